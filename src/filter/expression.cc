// Expression trees: construction and their SQL text; see expression.h.
#include "parq/filter/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "parq/error.h"

namespace parq::filter {

namespace {

std::string quote(std::string_view text, char q) {
  std::string out(1, q);
  for (char c : text) {
    if (c == q) out += q;
    out += c;
  }
  out += q;
  return out;
}

// Words the parser reads as keywords or literals wherever a column could
// start.
bool is_keyword(std::string_view word) {
  static const char* const kWords[] = {
      "AND",     "OR",        "NOT",         "IN",          "IS",       "NULL", "LIKE",
      "BETWEEN", "TRUE",      "FALSE",       "NAN",         "INFINITY", "INF",  "DATE",
      "TIME",    "TIMESTAMP", "TIMESTAMPTZ", "STARTS_WITH", "PREFIX",   "X",    "BBOX_INTERSECTS"};
  for (const char* k : kWords) {
    if (word.size() != std::char_traits<char>::length(k)) continue;
    bool same = true;
    for (size_t i = 0; i < word.size() && same; ++i) same = std::toupper(static_cast<unsigned char>(word[i])) == k[i];
    if (same) return true;
  }
  return false;
}

// A path component needs quotes unless it is a plain identifier that is
// not a keyword.
std::string column_text(const std::string& path) {
  std::string out;
  size_t start = 0;
  for (;;) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    bool plain = !part.empty() && !(part[0] >= '0' && part[0] <= '9') && !is_keyword(part);
    for (char c : part)
      plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
    if (!out.empty()) out += '.';
    out += plain ? part : quote(part, '"');
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

}  // namespace

std::string Literal::to_string() const {
  switch (kind) {
    case Kind::kNull:
      return "NULL";
    case Kind::kBoolean:
      return text == "true" ? "TRUE" : "FALSE";
    case Kind::kNumber:
      return text;
    case Kind::kString:
      return quote(text, '\'');
    case Kind::kBinary: {
      static const char* hex = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : text) {
        out += hex[c >> 4];
        out += hex[c & 15];
      }
      return out + "'";
    }
    case Kind::kDate:
      return "DATE " + quote(text, '\'');
    case Kind::kTime:
      return "TIME " + quote(text, '\'');
    case Kind::kTimestamp:
      return "TIMESTAMP " + quote(text, '\'');
  }
  return "NULL";
}

const char* to_string(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual:
      return "=";
    case CompareOp::kNotEqual:
      return "!=";
    case CompareOp::kLess:
      return "<";
    case CompareOp::kLessEqual:
      return "<=";
    case CompareOp::kGreater:
      return ">";
    case CompareOp::kGreaterEqual:
      return ">=";
  }
  return "?";
}

ExpressionPtr Expression::compare(std::string column, CompareOp op, Literal value) {
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kCompare));
  e->column_ = std::move(column);
  e->op_ = op;
  e->literals_.push_back(std::move(value));
  return e;
}

ExpressionPtr Expression::in(std::string column, std::vector<Literal> values) {
  if (values.empty()) throw Error("IN needs at least one value (column " + column + ")", ErrorKind::kInvalidArgument);
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kIn));
  e->column_ = std::move(column);
  e->literals_ = std::move(values);
  return e;
}

ExpressionPtr Expression::is_null(std::string column) {
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kIsNull));
  e->column_ = std::move(column);
  return e;
}

ExpressionPtr Expression::is_not_null(std::string column) { return negate(is_null(std::move(column))); }

ExpressionPtr Expression::starts_with(std::string column, std::string prefix) {
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kStartsWith));
  e->column_ = std::move(column);
  e->literals_.push_back(Literal::string(std::move(prefix)));
  return e;
}

namespace {

// The shortest text that reads back as `v` (parse_filter's spellings of
// the infinities).
std::string number_text(double v) {
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

ExpressionPtr Expression::bbox_intersects(std::string column, double xmin, double ymin, double xmax, double ymax) {
  if (std::isnan(xmin) || std::isnan(ymin) || std::isnan(xmax) || std::isnan(ymax))
    throw Error("bbox_intersects on " + column + ": a bound is NaN", ErrorKind::kInvalidArgument);
  if (ymin > ymax)
    throw Error("bbox_intersects on " + column + ": ymin " + number_text(ymin) + " is above ymax " + number_text(ymax),
                ErrorKind::kInvalidArgument);
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kBboxIntersects));
  e->column_ = std::move(column);
  e->box_ = {xmin, ymin, xmax, ymax};
  for (double v : e->box_) e->literals_.push_back(Literal::number(number_text(v)));
  return e;
}

ExpressionPtr Expression::all_of(std::vector<ExpressionPtr> children) {
  for (const auto& c : children)
    if (!c) throw Error("a filter's AND has a missing operand", ErrorKind::kInvalidArgument);
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kAnd));
  e->children_ = std::move(children);
  return e;
}

ExpressionPtr Expression::any_of(std::vector<ExpressionPtr> children) {
  for (const auto& c : children)
    if (!c) throw Error("a filter's OR has a missing operand", ErrorKind::kInvalidArgument);
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kOr));
  e->children_ = std::move(children);
  return e;
}

ExpressionPtr Expression::negate(ExpressionPtr child) {
  if (!child) throw Error("a filter's NOT has a missing operand", ErrorKind::kInvalidArgument);
  auto e = std::shared_ptr<Expression>(new Expression(Kind::kNot));
  e->children_.push_back(std::move(child));
  return e;
}

std::string Expression::to_string() const {
  switch (kind_) {
    case Kind::kCompare:
      return column_text(column_) + " " + filter::to_string(op_) + " " + literals_[0].to_string();
    case Kind::kIn: {
      std::string out = column_text(column_) + " IN (";
      for (size_t i = 0; i < literals_.size(); ++i) out += (i ? ", " : "") + literals_[i].to_string();
      return out + ")";
    }
    case Kind::kIsNull:
      return column_text(column_) + " IS NULL";
    case Kind::kStartsWith:
      return "starts_with(" + column_text(column_) + ", " + literals_[0].to_string() + ")";
    case Kind::kBboxIntersects: {
      std::string out = "bbox_intersects(" + column_text(column_);
      for (const Literal& l : literals_) out += ", " + l.to_string();
      return out + ")";
    }
    case Kind::kAnd:
    case Kind::kOr: {
      if (children_.empty()) return kind_ == Kind::kAnd ? "TRUE" : "FALSE";
      std::string out = "(";
      for (size_t i = 0; i < children_.size(); ++i)
        out += (i ? (kind_ == Kind::kAnd ? " AND " : " OR ") : "") + children_[i]->to_string();
      return out + ")";
    }
    case Kind::kNot:
      return "(NOT " + children_[0]->to_string() + ")";
  }
  return "";
}

void Expression::collect_columns(std::vector<std::string>& out) const {
  if (!column_.empty() && std::find(out.begin(), out.end(), column_) == out.end()) out.push_back(column_);
  for (const auto& c : children_) c->collect_columns(out);
}

std::vector<std::string> Expression::columns() const {
  std::vector<std::string> out;
  collect_columns(out);
  return out;
}

}  // namespace parq::filter
