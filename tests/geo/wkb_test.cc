// The WKB walk: bounds and type codes of every geometry type in every
// dimension and byte order, empties and NaNs as Geospatial.md treats them,
// errors for hostile values, and the box tests the filter uses.
#include "parq/geo/wkb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "geo/wkb_builder.h"
#include "parq/error.h"

namespace parq::geo {
namespace {

using testing::Wkb;
using testing::wkb_point;

const double kNaN = std::nan("");

WkbSummary walk(const Wkb& w) { return read_wkb(w.bytes()); }

std::string error_of(const Wkb& w) {
  try {
    read_wkb(w.bytes());
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

void expect_axis(const Bounds& b, int axis, double lo, double hi) {
  ASSERT_TRUE(b.has(axis)) << "axis " << axis;
  EXPECT_EQ(b.min[axis], lo) << "axis " << axis;
  EXPECT_EQ(b.max[axis], hi) << "axis " << axis;
}

TEST(WkbTest, PointInEveryDimensionAndByteOrder) {
  for (bool big : {false, true}) {
    SCOPED_TRACE(big ? "big endian" : "little endian");
    WkbSummary s = walk(wkb_point(1, {1.5, -2}, big));
    EXPECT_EQ(s.type_code, 1u);
    expect_axis(s.bounds, kX, 1.5, 1.5);
    expect_axis(s.bounds, kY, -2, -2);
    EXPECT_FALSE(s.bounds.has(kZ));
    EXPECT_FALSE(s.bounds.has(kM));

    s = walk(wkb_point(1001, {1, 2, 3}, big));
    EXPECT_EQ(s.type_code, 1001u);
    expect_axis(s.bounds, kZ, 3, 3);
    EXPECT_FALSE(s.bounds.has(kM));

    // XYM's third coordinate is M, not Z.
    s = walk(wkb_point(2001, {1, 2, 7}, big));
    EXPECT_EQ(s.type_code, 2001u);
    EXPECT_FALSE(s.bounds.has(kZ));
    expect_axis(s.bounds, kM, 7, 7);

    s = walk(wkb_point(3001, {1, 2, 3, 4}, big));
    EXPECT_EQ(s.type_code, 3001u);
    expect_axis(s.bounds, kX, 1, 1);
    expect_axis(s.bounds, kY, 2, 2);
    expect_axis(s.bounds, kZ, 3, 3);
    expect_axis(s.bounds, kM, 4, 4);
  }
}

// Each type in each dimension: coordinate k of vertex i is (i + 1) * 10^k
// negated for odd i, so the bounds of every axis are known.
struct Shape {
  uint32_t dims_code;
  bool big;
  int dims() const { return 2 + (dims_code == 1 || dims_code == 3) + (dims_code == 2 || dims_code == 3); }
  void vertex(Wkb& w, int i) const {
    for (int k = 0; k < dims(); ++k) w.f64((i % 2 ? -1 : 1) * (i + 1) * std::pow(10.0, k));
  }
  Wkb linestring(int first, int n) const {
    Wkb w(big);
    w.header(dims_code * 1000 + 2).u32(static_cast<uint32_t>(n));
    for (int i = 0; i < n; ++i) vertex(w, first + i);
    return w;
  }
  Wkb polygon(int first) const {
    Wkb w(big);
    w.header(dims_code * 1000 + 3).u32(2);
    w.u32(4);
    for (int i = 0; i < 4; ++i) vertex(w, first + (i % 3));
    w.u32(0);  // an empty ring
    return w;
  }
  Wkb point(int i) const {
    Wkb w(big);
    w.header(dims_code * 1000 + 1);
    vertex(w, i);
    return w;
  }
  // The expected bounds of each axis over vertices first..last.
  void expect(const Bounds& b, int first, int last) const {
    std::vector<int> all;
    for (int i = first; i <= last; ++i) all.push_back(i);
    expect(b, all);
  }
  void expect(const Bounds& b, const std::vector<int>& vertices) const {
    for (int k = 0; k < dims(); ++k) {
      double lo = INFINITY, hi = -INFINITY;
      for (int i : vertices) {
        const double v = (i % 2 ? -1 : 1) * (i + 1) * std::pow(10.0, k);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      const int axis = k < 2 ? k : (k == 2 && dims_code == 2 ? kM : (k == 2 ? kZ : kM));
      expect_axis(b, axis, lo, hi);
    }
    if (dims_code == 0 || dims_code == 2) {
      EXPECT_FALSE(b.has(kZ));
    }
    if (dims_code == 0 || dims_code == 1) {
      EXPECT_FALSE(b.has(kM));
    }
  }
};

TEST(WkbTest, EveryTypeDimensionAndByteOrder) {
  for (uint32_t d = 0; d < 4; ++d) {
    for (bool big : {false, true}) {
      SCOPED_TRACE("dimensions " + std::to_string(d) + (big ? " big" : " little"));
      const Shape s{d, big};
      const uint32_t base = d * 1000;

      WkbSummary r = walk(s.linestring(0, 3));
      EXPECT_EQ(r.type_code, base + 2);
      s.expect(r.bounds, 0, 2);

      r = walk(s.polygon(2));
      EXPECT_EQ(r.type_code, base + 3);
      s.expect(r.bounds, 2, 4);

      Wkb mp(big);
      mp.header(base + 4).u32(2).part(s.point(5)).part(s.point(6));
      r = walk(mp);
      EXPECT_EQ(r.type_code, base + 4);
      s.expect(r.bounds, 5, 6);

      Wkb ml(big);
      ml.header(base + 5).u32(2).part(s.linestring(0, 2)).part(s.linestring(7, 2));
      r = walk(ml);
      EXPECT_EQ(r.type_code, base + 5);
      s.expect(r.bounds, 0, 8);

      Wkb mpoly(big);
      mpoly.header(base + 6).u32(1).part(s.polygon(3));
      r = walk(mpoly);
      EXPECT_EQ(r.type_code, base + 6);
      s.expect(r.bounds, 3, 5);

      // A collection holding a collection: the nested parts count too.
      Wkb inner(!big);
      inner.header(base + 7).u32(1).part(Shape{d, !big}.point(9));
      Wkb gc(big);
      gc.header(base + 7).u32(3).part(s.point(1)).part(s.linestring(2, 2)).part(inner);
      r = walk(gc);
      EXPECT_EQ(r.type_code, base + 7);
      s.expect(r.bounds, {1, 2, 3, 9});
    }
  }
}

TEST(WkbTest, EmptiesAndNaNsAddNothing) {
  // POINT EMPTY is a point of NaNs.
  WkbSummary s = walk(wkb_point(1, {kNaN, kNaN}));
  EXPECT_EQ(s.type_code, 1u);
  EXPECT_FALSE(s.bounds.has(kX));
  EXPECT_FALSE(s.bounds.has_xy());

  Wkb ls;
  ls.header(1002).u32(0);
  s = walk(ls);
  EXPECT_EQ(s.type_code, 1002u);
  EXPECT_FALSE(s.bounds.has_xy());
  EXPECT_FALSE(s.bounds.has(kZ));

  Wkb gc;
  gc.header(3007).u32(0);
  EXPECT_EQ(walk(gc).type_code, 3007u);

  // POINT (1 NaN) gives X a value and Y none.
  s = walk(wkb_point(1, {1, kNaN}));
  expect_axis(s.bounds, kX, 1, 1);
  EXPECT_FALSE(s.bounds.has(kY));
  EXPECT_FALSE(s.bounds.has_xy());

  // NaN vertices among numbers are skipped, per axis.
  Wkb line;
  line.header(1002).u32(3).coords({kNaN, 5, 1, 2, kNaN, kNaN, 4, 3, kNaN});
  s = walk(line);
  expect_axis(s.bounds, kX, 2, 4);
  expect_axis(s.bounds, kY, 3, 5);
  expect_axis(s.bounds, kZ, 1, 1);
}

TEST(WkbTest, BoundsToThriftKeepsOnlyAxesWithValues) {
  Bounds b;
  b.add(kX, 1);
  b.add(kY, 2);
  b.add(kM, 3);
  const format::BoundingBox t = b.to_thrift();
  EXPECT_EQ(t.xmin, 1);
  EXPECT_EQ(t.ymax, 2);
  EXPECT_FALSE(t.zmin.has_value());
  EXPECT_FALSE(t.zmax.has_value());
  EXPECT_EQ(t.mmin, 3);
  EXPECT_EQ(t.mmax, 3);
}

TEST(WkbTest, HostileValuesFailWithWhatIsWrong) {
  EXPECT_NE(error_of(Wkb()).find("needs 1 bytes, 0 left"), std::string::npos);

  Wkb order;
  order.u32(0x00000102);  // byte order 2
  EXPECT_NE(error_of(order).find("byte order 2"), std::string::npos);

  for (uint32_t code : {0u, 8u, 1000u, 4001u, 17u}) {
    Wkb w;
    w.header(code).coords({1, 2});
    EXPECT_NE(error_of(w).find("unknown geometry type " + std::to_string(code)), std::string::npos) << code;
  }

  Wkb ewkb;
  ewkb.header(0x80000001u).coords({1, 2, 3});
  EXPECT_NE(error_of(ewkb).find("EWKB"), std::string::npos);

  Wkb truncated;
  truncated.header(1).f64(1).u32(0);  // half of Y
  EXPECT_NE(error_of(truncated).find("a point needs 16 bytes, 12 left"), std::string::npos);

  // Counts far beyond the bytes fail before any loop or allocation.
  Wkb huge_line;
  huge_line.header(2).u32(0xFFFFFFFFu).coords({1, 2});
  EXPECT_NE(error_of(huge_line).find("point count 4294967295"), std::string::npos);
  Wkb huge_rings;
  huge_rings.header(3).u32(0x40000000u).u32(0);
  EXPECT_NE(error_of(huge_rings).find("ring count"), std::string::npos);
  Wkb huge_parts;
  huge_parts.header(7).u32(0x7FFFFFFFu).part(wkb_point(1, {1, 2}));
  EXPECT_NE(error_of(huge_parts).find("part count"), std::string::npos);
  Wkb ring_short;
  ring_short.header(3).u32(1).u32(3).coords({0, 0, 1, 1});
  EXPECT_NE(error_of(ring_short).find("point count 3"), std::string::npos);

  Wkb trailing = wkb_point(1, {1, 2});
  trailing.u32(0);
  EXPECT_NE(error_of(trailing).find("4 bytes follow the geometry"), std::string::npos);

  Wkb mixed;
  mixed.header(1007).u32(1).part(wkb_point(1, {1, 2}));
  EXPECT_NE(error_of(mixed).find("other dimensions"), std::string::npos);

  Wkb wrong_part;
  Wkb line;
  line.header(2).u32(1).coords({1, 2});
  wrong_part.header(4).u32(1).part(line);
  EXPECT_NE(error_of(wrong_part).find("type 4 holds a part of type 2"), std::string::npos);
}

TEST(WkbTest, NestingIsBounded) {
  // kMaxWkbDepth collections around a point are read; one more is refused.
  auto nested = [](int depth) {
    Wkb w = wkb_point(1, {3, 4});
    for (int i = 0; i < depth; ++i) {
      Wkb outer;
      outer.header(7).u32(1).part(w);
      w = outer;
    }
    return w;
  };
  const WkbSummary s = walk(nested(kMaxWkbDepth));
  EXPECT_EQ(s.type_code, 7u);
  expect_axis(s.bounds, kX, 3, 3);
  EXPECT_NE(error_of(nested(kMaxWkbDepth + 1)).find("nest deeper than"), std::string::npos);
}

TEST(WkbTest, EveryTruncationOfAValidValueFails) {
  Wkb gc;
  gc.header(3007).u32(2).part(Shape{3, true}.polygon(0)).part(Shape{3, false}.linestring(1, 3));
  const std::vector<uint8_t>& all = gc.bytes();
  for (size_t n = 0; n < all.size(); ++n)
    EXPECT_THROW(read_wkb(std::span<const uint8_t>(all.data(), n)), Error) << n << " bytes";
  EXPECT_NO_THROW(read_wkb(all));
}

Bounds box_of(double x0, double y0, double x1, double y1) {
  Bounds b;
  b.add(kX, x0);
  b.add(kX, x1);
  b.add(kY, y0);
  b.add(kY, y1);
  return b;
}

TEST(WkbTest, IntersectsCountsEdgesAndWraps) {
  const QueryBox q{0, 0, 10, 10};
  EXPECT_TRUE(intersects(box_of(5, 5, 6, 6), q));
  EXPECT_TRUE(intersects(box_of(10, 10, 20, 20), q));  // a shared corner
  EXPECT_TRUE(intersects(box_of(-5, -5, 20, 20), q));  // around the box
  EXPECT_FALSE(intersects(box_of(10.5, 0, 20, 10), q));
  EXPECT_FALSE(intersects(box_of(0, -3, 10, -0.5), q));
  EXPECT_FALSE(intersects(Bounds{}, q));  // empty geometry

  // Across the antimeridian: x >= 170 or x <= -170.
  const QueryBox wrap{170, -10, -170, 10};
  EXPECT_TRUE(intersects(box_of(175, 0, 176, 1), wrap));
  EXPECT_TRUE(intersects(box_of(-180, 0, -175, 1), wrap));
  EXPECT_FALSE(intersects(box_of(0, 0, 100, 1), wrap));
  EXPECT_FALSE(intersects(box_of(175, 20, 176, 21), wrap));
}

TEST(WkbTest, StatisticsBoxesRuleOutOnlyWhatTheyCan) {
  const QueryBox q{0, 0, 10, 10};
  EXPECT_TRUE(statistics_may_intersect({5, 20, 5, 20}, q));
  EXPECT_FALSE(statistics_may_intersect({11, 20, 0, 10}, q));
  EXPECT_FALSE(statistics_may_intersect({0, 10, 11, 20}, q));
  EXPECT_TRUE(statistics_may_intersect({-1, 0, -1, 0}, q));  // the corner
  // A wrapping statistics box: a value's planar bounds may span the gap,
  // so X rules nothing out; Y still does.
  EXPECT_TRUE(statistics_may_intersect({170, -170, 0, 5}, q));
  EXPECT_FALSE(statistics_may_intersect({170, -170, 20, 30}, q));
  // A NaN bound rules nothing out.
  EXPECT_TRUE(statistics_may_intersect({kNaN, 30, 20, 30}, q));
  // A wrapping query.
  EXPECT_TRUE(statistics_may_intersect({175, 178, 0, 1}, QueryBox{170, -10, -170, 10}));
  EXPECT_FALSE(statistics_may_intersect({0, 100, 0, 1}, QueryBox{170, -10, -170, 10}));
}

}  // namespace
}  // namespace parq::geo
