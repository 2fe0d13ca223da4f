// Filter expressions: what a read keeps, written over leaf columns.
//
// An Expression is the tree the caller builds (or parse_filter makes from
// text): comparisons of a column with literals, IN lists, IS [NOT] NULL,
// prefix matches on strings, joined by AND, OR and NOT. Literals keep the
// text they were written with; only binding to a file's schema (bound_filter.h
// inside the library) gives them a physical value, typed by the column's
// logical type, so that "12.50" can be a DECIMAL(9,2)'s 1250 or a DOUBLE.
//
// The meaning is SQL's: a comparison with a null is unknown (not true), NOT
// unknown is unknown, and a row is kept only when the whole expression is
// true. Floating-point NaN compares equal to itself and greater than every
// number (as DuckDB and PostgreSQL order it); -0.0 equals 0.0.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace parq::filter {

// A literal as written. `text` holds the number's digits ("-12.5e3"), the
// string's bytes (quotes removed, '' unescaped), or the binary's bytes.
struct Literal {
  enum class Kind {
    kNull,
    kBoolean,    // text "true" / "false"
    kNumber,     // decimal or exponent notation, NaN, Infinity, -Infinity
    kString,     // 'text'
    kBinary,     // X'0A1B'
    kDate,       // DATE 'YYYY-MM-DD'
    kTime,       // TIME 'HH:MM:SS[.fraction]'
    kTimestamp,  // TIMESTAMP 'YYYY-MM-DD[ T]HH:MM:SS[.fraction][Z|+HH:MM]'
  };
  Kind kind = Kind::kNull;
  std::string text;

  static Literal null() { return {}; }
  static Literal boolean(bool v) { return {Kind::kBoolean, v ? "true" : "false"}; }
  static Literal number(std::string digits) { return {Kind::kNumber, std::move(digits)}; }
  static Literal string(std::string bytes) { return {Kind::kString, std::move(bytes)}; }
  static Literal binary(std::string bytes) { return {Kind::kBinary, std::move(bytes)}; }
  static Literal date(std::string text) { return {Kind::kDate, std::move(text)}; }
  static Literal time(std::string text) { return {Kind::kTime, std::move(text)}; }
  static Literal timestamp(std::string text) { return {Kind::kTimestamp, std::move(text)}; }

  // SQL text that parse_filter reads back as this literal.
  std::string to_string() const;
  bool operator==(const Literal&) const = default;
};

enum class CompareOp { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

const char* to_string(CompareOp op);

class Expression;
using ExpressionPtr = std::shared_ptr<const Expression>;

class Expression {
 public:
  enum class Kind {
    kCompare,         // column op literals[0]
    kIn,              // column IN (literals...)
    kIsNull,          // column IS NULL
    kStartsWith,      // column's bytes start with literals[0] (LIKE 'prefix%')
    kBboxIntersects,  // the column's WKB geometry has a bounding box meeting box()
    kAnd,
    kOr,
    kNot,
  };

  Kind kind() const { return kind_; }
  // The leaf column's dotted path ("a", "s.b"), for the column kinds.
  const std::string& column() const { return column_; }
  CompareOp op() const { return op_; }
  const std::vector<Literal>& literals() const { return literals_; }
  const std::vector<ExpressionPtr>& children() const { return children_; }
  // kBboxIntersects: xmin, ymin, xmax, ymax (literals() holds them as text).
  const std::array<double, 4>& box() const { return box_; }

  // The expression as SQL text that parse_filter reads back to an equal
  // tree (fully parenthesized).
  std::string to_string() const;

  static ExpressionPtr compare(std::string column, CompareOp op, Literal value);
  static ExpressionPtr in(std::string column, std::vector<Literal> values);
  static ExpressionPtr is_null(std::string column);
  static ExpressionPtr is_not_null(std::string column);
  static ExpressionPtr starts_with(std::string column, std::string prefix);
  // True for a row whose geometry (WKB in a GEOMETRY, GEOGRAPHY or plain
  // binary column) has X and Y bounds meeting the box, edges included;
  // false for an empty geometry, unknown for a null. xmin > xmax wraps
  // around the antimeridian (x >= xmin or x <= xmax), as GeospatialStatistics
  // boxes do. Throws parq::Error for a NaN bound or ymin > ymax.
  static ExpressionPtr bbox_intersects(std::string column, double xmin, double ymin, double xmax, double ymax);
  static ExpressionPtr all_of(std::vector<ExpressionPtr> children);  // AND; empty: true
  static ExpressionPtr any_of(std::vector<ExpressionPtr> children);  // OR; empty: false
  static ExpressionPtr negate(ExpressionPtr child);

  // Paths of the columns the expression reads, each once, in order of first
  // appearance.
  std::vector<std::string> columns() const;

 private:
  Expression(Kind kind) : kind_(kind) {}
  void collect_columns(std::vector<std::string>& out) const;

  Kind kind_;
  std::string column_;
  CompareOp op_ = CompareOp::kEqual;
  std::vector<Literal> literals_;
  std::vector<ExpressionPtr> children_;
  std::array<double, 4> box_{};
};

// Parses the SQL-like filter syntax of `parq cat --where`:
//   expr      := or
//   or        := and (OR and)*
//   and       := not (AND not)*
//   not       := NOT not | primary
//   primary   := '(' expr ')' | column cmp literal | literal cmp column
//              | column [NOT] IN '(' literal (',' literal)* ')'
//              | column [NOT] BETWEEN literal AND literal
//              | column IS [NOT] NULL
//              | column [NOT] LIKE 'prefix%'     (a prefix, or no wildcard: =)
//              | starts_with '(' column ',' 'prefix' ')'
//              | bbox_intersects '(' column ',' xmin ',' ymin ',' xmax ',' ymax ')'
//   cmp       := = | == | != | <> | < | <= | > | >=
//   column    := name ('.' name)*,  name := identifier | "quoted name"
//   literal   := number | NaN | Infinity | -Infinity | 'string' | X'hex'
//              | TRUE | FALSE | NULL | DATE 'y-m-d' | TIME '...' | TIMESTAMP '...'
// Keywords are case-insensitive. Throws parq::Error naming the offending
// position ("at character 12: ...").
ExpressionPtr parse_filter(std::string_view text);

}  // namespace parq::filter
