// The filter syntax: what parses to what, text that round-trips, and
// errors that name the position.
#include "parq/filter/expression.h"

#include <gtest/gtest.h>

#include "parq/error.h"

namespace parq::filter {
namespace {

TEST(FilterParse, OperatorsAndPrecedence) {
  auto e = parse_filter("a = 1 OR b < 2.5 AND NOT c IS NULL");
  ASSERT_EQ(e->kind(), Expression::Kind::kOr);
  ASSERT_EQ(e->children().size(), 2u);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kCompare);
  EXPECT_EQ(e->children()[0]->literals()[0], Literal::number("1"));
  const auto& conj = e->children()[1];
  ASSERT_EQ(conj->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(conj->children()[0]->op(), CompareOp::kLess);
  EXPECT_EQ(conj->children()[1]->kind(), Expression::Kind::kNot);
  EXPECT_EQ(conj->children()[1]->children()[0]->kind(), Expression::Kind::kIsNull);
  auto not_null = parse_filter("c IS NOT NULL");  // NOT (c IS NULL)
  ASSERT_EQ(not_null->kind(), Expression::Kind::kNot);
  EXPECT_EQ(not_null->children()[0]->kind(), Expression::Kind::kIsNull);
  EXPECT_EQ(e->columns(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(FilterParse, LiteralsOfEveryKind) {
  auto e = parse_filter(
      "x IN (-3, +4.5e2, NaN, -Infinity, 'it''s', X'0aff', TRUE, NULL, DATE '2020-01-31', TIME '10:00:00', "
      "TIMESTAMP '2020-01-31 10:00:00Z')");
  ASSERT_EQ(e->kind(), Expression::Kind::kIn);
  const auto& l = e->literals();
  ASSERT_EQ(l.size(), 11u);
  EXPECT_EQ(l[0], Literal::number("-3"));
  EXPECT_EQ(l[1], Literal::number("4.5e2"));
  EXPECT_EQ(l[2], Literal::number("NaN"));
  EXPECT_EQ(l[3], Literal::number("-Infinity"));
  EXPECT_EQ(l[4], Literal::string("it's"));
  EXPECT_EQ(l[5], Literal::binary(std::string("\x0a\xff", 2)));
  EXPECT_EQ(l[6], Literal::boolean(true));
  EXPECT_EQ(l[7], Literal::null());
  EXPECT_EQ(l[8], Literal::date("2020-01-31"));
  EXPECT_EQ(l[9], Literal::time("10:00:00"));
  EXPECT_EQ(l[10], Literal::timestamp("2020-01-31 10:00:00Z"));
}

TEST(FilterParse, SugarBecomesTheCoreForms) {
  auto between = parse_filter("v BETWEEN 1 AND 5");
  ASSERT_EQ(between->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(between->children()[0]->op(), CompareOp::kGreaterEqual);
  EXPECT_EQ(between->children()[1]->op(), CompareOp::kLessEqual);
  auto like = parse_filter("s LIKE 'ab%'");
  EXPECT_EQ(like->kind(), Expression::Kind::kStartsWith);
  EXPECT_EQ(like->literals()[0].text, "ab");
  EXPECT_EQ(parse_filter("s LIKE 'ab'")->kind(), Expression::Kind::kCompare);
  EXPECT_EQ(parse_filter("s NOT LIKE 'a%'")->kind(), Expression::Kind::kNot);
  EXPECT_EQ(parse_filter("starts_with(s, 'a')")->kind(), Expression::Kind::kStartsWith);
  auto mirrored = parse_filter("5 < v");  // literal on the left
  EXPECT_EQ(mirrored->op(), CompareOp::kGreater);
  EXPECT_EQ(mirrored->column(), "v");
  EXPECT_EQ(parse_filter("\"odd name\".\"x.y\" = 1")->column(), "odd name.x.y");
  EXPECT_EQ(parse_filter("a.b.c <> 1")->op(), CompareOp::kNotEqual);
  EXPECT_EQ(parse_filter("date >= DATE '2020-01-01'")->column(), "date");  // a column named date
  EXPECT_EQ(parse_filter("0 = NaN")->column(), "NaN");                     // NaN on the right names a column
  EXPECT_EQ(parse_filter("0 = NaN")->to_string(), "\"NaN\" = 0");
  EXPECT_EQ(parse_filter("TRUE")->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(parse_filter("false")->kind(), Expression::Kind::kOr);
}

TEST(FilterParse, TextRoundTrips) {
  for (const char* text :
       {"a = 1", "(a = 1 OR (b < 2 AND c IS NULL))", "NOT (s IN ('x', 'y''z'))", "starts_with(s, 'pre')",
        "\"a b\".c >= DATE '2020-01-01'", "x != NaN", "(t < TIMESTAMP '2020-01-01 00:00:00' AND b = X'00FF')",
        "v <= -1.5e-3", "v = NULL", "0 = NaN", "\"NaN\" = 1", "date = DATE '2020-01-01'", "x = X'00'",
        "\"and\" IS NULL", "a.\"\".\"b.c\" = 1"}) {
    auto e = parse_filter(text);
    auto again = parse_filter(e->to_string());
    EXPECT_EQ(again->to_string(), e->to_string()) << text;
  }
}

TEST(FilterParse, ErrorsNameThePosition) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c :
       {Case{"a =", "character 4"}, Case{"a = 1 AND", "character 10"}, Case{"a IN ()", "expected a value"},
        Case{"(a = 1", "expected ')'"}, Case{"a = 'x", "not closed"}, Case{"a LIKE 'a_c'", "prefix pattern"},
        Case{"a = 1 b", "unexpected 'b'"}, Case{"= 1", "expected a column name"},
        Case{"a ~ 1", "unexpected character '~'"}, Case{"a = X'0'", "even number"}, Case{"a = 12abc", "runs into"},
        Case{"a IS 1", "expected NULL"}}) {
    try {
      parse_filter(c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << c.text << ": " << e.what();
    }
  }
  std::string deep(5000, '(');
  EXPECT_THROW(parse_filter(deep + "a = 1"), Error);
}

}  // namespace
}  // namespace parq::filter
