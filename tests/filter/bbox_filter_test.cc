// bbox_intersects in the filter language: its text form, its checks, and
// where it binds.
#include <gtest/gtest.h>

#include "filter/bound_filter.h"
#include "parq/error.h"
#include "parq/filter/expression.h"
#include "parq/schema/field.h"

namespace parq::filter {
namespace {

Schema schema() {
  return make_schema({
      Field::binary("g").logical_type({.GEOMETRY = format::GeometryType{}}),
      Field::binary("geog").logical_type({.GEOGRAPHY = format::GeographyType{}}),
      Field::binary("raw"),
      Field::string("s"),
      Field::int32("i"),
  });
}

TEST(BboxFilterTest, ParsesAndPrintsBack) {
  const ExpressionPtr e = parse_filter("BBOX_INTERSECTS(g, -1.5, -2, 3e2, Infinity)");
  ASSERT_EQ(e->kind(), Expression::Kind::kBboxIntersects);
  EXPECT_EQ(e->column(), "g");
  EXPECT_EQ(e->box(), (std::array<double, 4>{-1.5, -2, 300, INFINITY}));
  EXPECT_EQ(e->to_string(), "bbox_intersects(g, -1.5, -2, 300, Infinity)");
  EXPECT_EQ(parse_filter(e->to_string())->to_string(), e->to_string());
  EXPECT_EQ(e->columns(), std::vector<std::string>{"g"});

  const ExpressionPtr combined = parse_filter("NOT bbox_intersects(\"a b\".c, 0, 0, 1, 1) AND i > 3");
  EXPECT_EQ(combined->to_string(), "((NOT bbox_intersects(\"a b\".c, 0, 0, 1, 1)) AND i > 3)");
  // A column of that name needs quotes.
  EXPECT_EQ(Expression::compare("bbox_intersects", CompareOp::kEqual, Literal::number("1"))->to_string(),
            "\"bbox_intersects\" = 1");
  // Shortest round-trip text for the bounds.
  EXPECT_EQ(Expression::bbox_intersects("g", 0.1, -0.0, 1e-300, 2)->to_string(),
            "bbox_intersects(g, 0.1, -0, 1e-300, 2)");
}

TEST(BboxFilterTest, RefusesWhatIsNoBox) {
  auto message = [](const std::string& text) {
    try {
      parse_filter(text);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("bbox_intersects(g, 0, 5, 1, 4)").find("ymin 5 is above ymax 4"), std::string::npos);
  EXPECT_NE(message("bbox_intersects(g, NaN, 0, 1, 1)").find("NaN"), std::string::npos);
  EXPECT_NE(message("bbox_intersects(g, 'a', 0, 1, 1)").find("at character 20: bbox_intersects takes numbers"),
            std::string::npos);
  EXPECT_NE(message("bbox_intersects(g, 0, 0, 1)").find("expected ','"), std::string::npos);
  EXPECT_NE(message("bbox_intersects(g, 0, 0, 1, 1, 2)").find("expected ')'"), std::string::npos);
  EXPECT_THROW(Expression::bbox_intersects("g", 0, 1, 0, 0), Error);
  // xmin > xmax is a box across the antimeridian, not an error.
  EXPECT_NO_THROW(parse_filter("bbox_intersects(g, 170, -10, -170, 10)"));
}

TEST(BboxFilterTest, BindsToWkbColumnsOnly) {
  const Schema s = schema();
  for (const char* column : {"g", "geog", "raw"}) {
    const BoundFilter f = BoundFilter::bind(*Expression::bbox_intersects(column, 0, 1, 2, 3), s);
    ASSERT_EQ(f.tests().size(), 1u);
    EXPECT_EQ(f.tests()[0].kind, LeafTest::Kind::kBboxIntersects);
    EXPECT_EQ(f.tests()[0].box.xmax, 2);
    EXPECT_EQ(f.tests()[0].box.ymin, 1);
  }
  const BoundFilter negated = BoundFilter::bind(*parse_filter("NOT bbox_intersects(g, 0, 0, 1, 1)"), s);
  EXPECT_EQ(negated.tests()[0].kind, LeafTest::Kind::kNotBboxIntersects);
  for (const char* column : {"s", "i"}) {
    try {
      BoundFilter::bind(*Expression::bbox_intersects(column, 0, 0, 1, 1), s);
      ADD_FAILURE() << column;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("applies to GEOMETRY, GEOGRAPHY and binary columns"), std::string::npos);
    }
  }
  EXPECT_THROW(BoundFilter::bind(*Expression::bbox_intersects("nope", 0, 0, 1, 1), s), Error);
}

TEST(BboxFilterTest, StatisticsSummaryPrunesByTheBox) {
  const BoundFilter f = BoundFilter::bind(*Expression::bbox_intersects("g", 0, 0, 10, 10), schema());
  const BoundFilter n = BoundFilter::bind(*parse_filter("NOT bbox_intersects(g, 0, 0, 10, 10)"), schema());
  const LeafTest& t = f.tests()[0];
  ValueSummary s;
  EXPECT_TRUE(may_be_true(t, s));  // no box: anything
  const format::BoundingBox far{20, 30, 20, 30};
  s.bbox = &far;
  EXPECT_FALSE(may_be_true(t, s));
  EXPECT_TRUE(may_be_true(n.tests()[0], s));
  const format::BoundingBox near{5, 30, 5, 30};
  s.bbox = &near;
  EXPECT_TRUE(may_be_true(t, s));
  s.may_have_non_null = false;
  EXPECT_FALSE(may_be_true(t, s));
  EXPECT_FALSE(may_be_true(n.tests()[0], s));
}

}  // namespace
}  // namespace parq::filter
