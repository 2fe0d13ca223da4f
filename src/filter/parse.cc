// The SQL-like filter syntax of `parq cat --where`: a tokenizer and a
// recursive-descent parser into Expression trees; see expression.h for the
// grammar. Nesting is bounded so that hostile text cannot exhaust the stack.
#include <cctype>
#include <cstdlib>
#include <string>

#include "parq/error.h"
#include "parq/filter/expression.h"

namespace parq::filter {
namespace {

struct Token {
  enum class Kind { kEnd, kName, kQuotedName, kNumber, kString, kBinary, kSymbol };
  Kind kind = Kind::kEnd;
  std::string text;  // names as written; strings unescaped; symbols as written
  size_t at = 0;     // byte offset in the text
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) { advance(); }

  ExpressionPtr parse() {
    ExpressionPtr e = disjunction(0);
    if (tok_.kind != Token::Kind::kEnd) fail("unexpected '" + tok_.text + "' after the expression");
    return e;
  }

 private:
  static constexpr int kMaxDepth = 200;

  [[noreturn]] void fail(const std::string& what, size_t at) const {
    throw Error("filter: at character " + std::to_string(at + 1) + ": " + what, ErrorKind::kInvalidArgument);
  }
  [[noreturn]] void fail(const std::string& what) const { fail(what, tok_.at); }

  static bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  std::string quoted(char q) {
    // At the opening quote; a doubled quote stands for one.
    std::string out;
    size_t p = pos_ + 1;
    for (;;) {
      if (p >= s_.size()) fail(std::string("a quoted text is not closed (") + q + ")", pos_);
      if (s_[p] == q) {
        if (p + 1 < s_.size() && s_[p + 1] == q) {
          out += q;
          p += 2;
          continue;
        }
        pos_ = p + 1;
        return out;
      }
      out += s_[p++];
    }
  }

  void advance() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    tok_ = Token{};
    tok_.at = pos_;
    if (pos_ >= s_.size()) return;
    const char c = s_[pos_];
    if ((c == 'x' || c == 'X') && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\'') {
      ++pos_;
      tok_.kind = Token::Kind::kBinary;
      tok_.text = unhex(quoted('\''));
      return;
    }
    if (is_name_start(c)) {
      size_t p = pos_;
      while (p < s_.size() && is_name_char(s_[p])) ++p;
      tok_.kind = Token::Kind::kName;
      tok_.text = std::string(s_.substr(pos_, p - pos_));
      pos_ = p;
      return;
    }
    if (c == '"') {
      tok_.kind = Token::Kind::kQuotedName;
      tok_.text = quoted('"');
      return;
    }
    if (c == '\'') {
      tok_.kind = Token::Kind::kString;
      tok_.text = quoted('\'');
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
      size_t p = pos_;
      while (p < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p]))) ++p;
      if (p < s_.size() && s_[p] == '.') {
        ++p;
        while (p < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p]))) ++p;
      }
      if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) {
        size_t q = p + 1;
        if (q < s_.size() && (s_[q] == '+' || s_[q] == '-')) ++q;
        if (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q]))) {
          while (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q]))) ++q;
          p = q;
        }
      }
      if (p < s_.size() && is_name_char(s_[p])) fail("a number runs into '" + std::string(1, s_[p]) + "'", pos_);
      tok_.kind = Token::Kind::kNumber;
      tok_.text = std::string(s_.substr(pos_, p - pos_));
      pos_ = p;
      return;
    }
    static const char* const kSymbols[] = {"<=", ">=", "<>", "!=", "==", "=", "<", ">", "(", ")", ",", ".", "-", "+"};
    for (const char* sym : kSymbols) {
      const std::string_view v(sym);
      if (s_.substr(pos_, v.size()) == v) {
        tok_.kind = Token::Kind::kSymbol;
        tok_.text = std::string(v);
        pos_ += v.size();
        return;
      }
    }
    fail(std::string("unexpected character '") + c + "'", pos_);
  }

  std::string unhex(const std::string& digits) const {
    if (digits.size() % 2 != 0) fail("a binary literal X'...' needs an even number of hex digits");
    auto nibble = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      fail(std::string("'") + c + "' is not a hex digit in a binary literal");
    };
    std::string out;
    for (size_t i = 0; i < digits.size(); i += 2)
      out += static_cast<char>(nibble(digits[i]) << 4 | nibble(digits[i + 1]));
    return out;
  }

  bool keyword(const char* word) const {
    if (tok_.kind != Token::Kind::kName || tok_.text.size() != std::char_traits<char>::length(word)) return false;
    for (size_t i = 0; i < tok_.text.size(); ++i)
      if (std::toupper(static_cast<unsigned char>(tok_.text[i])) != word[i]) return false;
    return true;
  }
  bool accept_keyword(const char* word) {
    if (!keyword(word)) return false;
    advance();
    return true;
  }
  void expect_keyword(const char* word) {
    if (!accept_keyword(word))
      fail(std::string("expected ") + word + (tok_.text.empty() ? "" : ", found '" + tok_.text + "'"));
  }
  bool symbol(const char* sym) const { return tok_.kind == Token::Kind::kSymbol && tok_.text == sym; }
  bool accept_symbol(const char* sym) {
    if (!symbol(sym)) return false;
    advance();
    return true;
  }
  void expect_symbol(const char* sym) {
    if (!accept_symbol(sym))
      fail(std::string("expected '") + sym + "'" + (tok_.text.empty() ? " at the end" : ", found '" + tok_.text + "'"));
  }

  void enter(int depth) const {
    if (depth > kMaxDepth) fail("the expression nests deeper than " + std::to_string(kMaxDepth));
  }

  ExpressionPtr disjunction(int depth) {
    enter(depth);
    std::vector<ExpressionPtr> parts{conjunction(depth + 1)};
    while (accept_keyword("OR")) parts.push_back(conjunction(depth + 1));
    return parts.size() == 1 ? parts[0] : Expression::any_of(std::move(parts));
  }

  ExpressionPtr conjunction(int depth) {
    enter(depth);
    std::vector<ExpressionPtr> parts{negation(depth + 1)};
    while (accept_keyword("AND")) parts.push_back(negation(depth + 1));
    return parts.size() == 1 ? parts[0] : Expression::all_of(std::move(parts));
  }

  ExpressionPtr negation(int depth) {
    enter(depth);
    if (accept_keyword("NOT")) return Expression::negate(negation(depth + 1));
    return primary(depth + 1);
  }

  // Keywords that cannot start a column name without quotes.
  bool reserved() const {
    for (const char* w : {"AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "BETWEEN", "TRUE", "FALSE"})
      if (keyword(w)) return true;
    return false;
  }

  bool at_literal() const {
    if (tok_.kind == Token::Kind::kNumber || tok_.kind == Token::Kind::kString || tok_.kind == Token::Kind::kBinary)
      return true;
    if (symbol("-") || symbol("+")) return true;
    for (const char* w : {"NULL", "TRUE", "FALSE", "NAN", "INFINITY", "INF"})
      if (keyword(w)) return true;
    // DATE '...' is a value; `date` alone is a column of that name.
    for (const char* w : {"DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ"})
      if (keyword(w)) return next_is_string();
    return false;
  }

  bool next_is_string() const {
    Parser ahead = *this;
    ahead.advance();
    return ahead.tok_.kind == Token::Kind::kString;
  }

  std::string column() {
    std::string path;
    for (;;) {
      // A quoted name may be empty: schemas from the wild have such fields.
      if (tok_.kind == Token::Kind::kQuotedName) {
      } else if (tok_.kind != Token::Kind::kName || reserved()) {
        fail(tok_.kind == Token::Kind::kEnd ? "a column name is missing at the end"
                                            : "expected a column name, found '" + tok_.text + "'");
      }
      path += tok_.text;
      advance();
      if (!accept_symbol(".")) return path;
      path += '.';
    }
  }

  Literal literal() {
    const size_t at = tok_.at;
    bool negative = false;
    if (symbol("-") || symbol("+")) {
      negative = symbol("-");
      advance();
      if (tok_.kind != Token::Kind::kNumber && !keyword("INFINITY") && !keyword("INF"))
        fail("a sign must be followed by a number", at);
    }
    if (tok_.kind == Token::Kind::kNumber) {
      Literal l = Literal::number((negative ? "-" : "") + tok_.text);
      advance();
      return l;
    }
    if (keyword("INFINITY") || keyword("INF")) {
      advance();
      return Literal::number(negative ? "-Infinity" : "Infinity");
    }
    if (accept_keyword("NAN")) return Literal::number("NaN");
    if (tok_.kind == Token::Kind::kString) {
      Literal l = Literal::string(tok_.text);
      advance();
      return l;
    }
    if (tok_.kind == Token::Kind::kBinary) {
      Literal l = Literal::binary(tok_.text);
      advance();
      return l;
    }
    if (accept_keyword("NULL")) return Literal::null();
    if (accept_keyword("TRUE")) return Literal::boolean(true);
    if (accept_keyword("FALSE")) return Literal::boolean(false);
    for (auto [word, kind] :
         {std::pair{"DATE", Literal::Kind::kDate}, std::pair{"TIME", Literal::Kind::kTime},
          std::pair{"TIMESTAMP", Literal::Kind::kTimestamp}, std::pair{"TIMESTAMPTZ", Literal::Kind::kTimestamp}}) {
      if (accept_keyword(word)) {
        if (tok_.kind != Token::Kind::kString) fail(std::string(word) + " must be followed by a quoted value");
        Literal l{kind, tok_.text};
        advance();
        return l;
      }
    }
    fail(tok_.kind == Token::Kind::kEnd ? "a value is missing at the end"
                                        : "expected a value, found '" + tok_.text + "'");
  }

  bool accept_compare(CompareOp& op) {
    if (tok_.kind != Token::Kind::kSymbol) return false;
    const std::string& t = tok_.text;
    if (t == "=" || t == "==") {
      op = CompareOp::kEqual;
    } else if (t == "!=" || t == "<>") {
      op = CompareOp::kNotEqual;
    } else if (t == "<") {
      op = CompareOp::kLess;
    } else if (t == "<=") {
      op = CompareOp::kLessEqual;
    } else if (t == ">") {
      op = CompareOp::kGreater;
    } else if (t == ">=") {
      op = CompareOp::kGreaterEqual;
    } else {
      return false;
    }
    advance();
    return true;
  }

  static CompareOp mirrored(CompareOp op) {
    switch (op) {
      case CompareOp::kLess:
        return CompareOp::kGreater;
      case CompareOp::kLessEqual:
        return CompareOp::kGreaterEqual;
      case CompareOp::kGreater:
        return CompareOp::kLess;
      case CompareOp::kGreaterEqual:
        return CompareOp::kLessEqual;
      default:
        return op;
    }
  }

  // A LIKE pattern: a prefix followed by one '%', or no wildcard at all.
  ExpressionPtr like(const std::string& col, const std::string& pattern, size_t at) {
    const size_t wild = pattern.find_first_of("%_");
    if (wild == std::string::npos) return Expression::compare(col, CompareOp::kEqual, Literal::string(pattern));
    if (pattern[wild] == '%' && wild + 1 == pattern.size())
      return Expression::starts_with(col, pattern.substr(0, wild));
    fail("LIKE supports a prefix pattern ('abc%') only", at);
  }

  ExpressionPtr primary(int depth) {
    enter(depth);
    if (accept_symbol("(")) {
      ExpressionPtr e = disjunction(depth + 1);
      expect_symbol(")");
      return e;
    }
    if (keyword("STARTS_WITH") || keyword("PREFIX")) {
      advance();
      expect_symbol("(");
      std::string col = column();
      expect_symbol(",");
      if (tok_.kind != Token::Kind::kString) fail("starts_with needs a quoted prefix");
      std::string prefix = tok_.text;
      advance();
      expect_symbol(")");
      return Expression::starts_with(col, prefix);
    }
    if (keyword("BBOX_INTERSECTS")) {
      const size_t at = tok_.at;
      advance();
      expect_symbol("(");
      std::string col = column();
      double bounds[4];
      for (double& b : bounds) {
        expect_symbol(",");
        const size_t number_at = tok_.at;
        const Literal l = literal();
        if (l.kind != Literal::Kind::kNumber) fail("bbox_intersects takes numbers for its box", number_at);
        b = std::strtod(l.text.c_str(), nullptr);
      }
      expect_symbol(")");
      try {
        return Expression::bbox_intersects(col, bounds[0], bounds[1], bounds[2], bounds[3]);
      } catch (const Error& e) {
        fail(e.detail(), at);
      }
    }
    if (at_literal()) {
      // TRUE and FALSE alone are constant conditions; otherwise a literal
      // on the left of a comparison.
      const bool is_bool = keyword("TRUE") || keyword("FALSE");
      const bool value = keyword("TRUE");
      Literal left = literal();
      CompareOp op;
      if (!accept_compare(op)) {
        if (is_bool) return value ? Expression::all_of({}) : Expression::any_of({});
        fail("expected a comparison after the value");
      }
      return Expression::compare(column(), mirrored(op), std::move(left));
    }
    std::string col = column();
    CompareOp op;
    if (accept_compare(op)) return Expression::compare(col, op, literal());
    if (accept_keyword("IS")) {
      const bool negated = accept_keyword("NOT");
      expect_keyword("NULL");
      return negated ? Expression::is_not_null(col) : Expression::is_null(col);
    }
    const bool negated = accept_keyword("NOT");
    ExpressionPtr e;
    if (accept_keyword("IN")) {
      expect_symbol("(");
      std::vector<Literal> values{literal()};
      while (accept_symbol(",")) values.push_back(literal());
      expect_symbol(")");
      e = Expression::in(col, std::move(values));
    } else if (accept_keyword("BETWEEN")) {
      Literal low = literal();
      expect_keyword("AND");
      Literal high = literal();
      e = Expression::all_of({Expression::compare(col, CompareOp::kGreaterEqual, std::move(low)),
                              Expression::compare(col, CompareOp::kLessEqual, std::move(high))});
    } else if (keyword("LIKE")) {
      advance();
      const size_t at = tok_.at;
      if (tok_.kind != Token::Kind::kString) fail("LIKE needs a quoted pattern");
      std::string pattern = tok_.text;
      advance();
      e = like(col, pattern, at);
    } else {
      fail(tok_.kind == Token::Kind::kEnd
               ? "the condition on " + col + " is missing at the end"
               : "expected a comparison, IN, BETWEEN, LIKE or IS after " + col + ", found '" + tok_.text + "'");
    }
    return negated ? Expression::negate(e) : e;
  }

  std::string_view s_;
  size_t pos_ = 0;
  Token tok_;
};

}  // namespace

ExpressionPtr parse_filter(std::string_view text) { return Parser(text).parse(); }

}  // namespace parq::filter
