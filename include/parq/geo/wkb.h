// Well-Known Binary (ISO variant) as GEOMETRY and GEOGRAPHY columns hold it:
// the walk that yields a geometry's bounding box and its type code, for the
// column chunk's GeospatialStatistics and for bounding-box filters.
//
// Written by hand: no well-kept Debian library does only this (GEOS parses
// WKB, but into full geometry objects, a heavy dependency and an allocation
// per value to learn four numbers), and a bounding box needs no geometry
// model, only a bounded walk over counts and coordinates.
//
// The walk trusts nothing: both byte orders are read, each count is checked
// against the bytes left before any loop uses it, collections nest at most
// kMaxWkbDepth deep, and no memory is allocated at all. Whatever is wrong
// (a truncated value, an unknown type, EWKB flags, a child of another
// dimension than its parent, bytes after the geometry) is a parq::Error
// saying what and at which byte.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "parq/format/metadata.h"

namespace parq::geo {

inline constexpr int kMaxWkbDepth = 32;

enum Axis : int { kX = 0, kY = 1, kZ = 2, kM = 3 };

// Per-axis bounds, NaN coordinates skipped (Geospatial.md: a NaN adds
// nothing to its axis). An axis that saw no number has min > max.
struct Bounds {
  double min[4] = {kInf, kInf, kInf, kInf};
  double max[4] = {-kInf, -kInf, -kInf, -kInf};

  bool has(int axis) const { return min[axis] <= max[axis]; }
  // A box exists only when both X and Y have a value.
  bool has_xy() const { return has(kX) && has(kY); }
  void add(int axis, double v) {
    // Comparisons with NaN are false: NaN changes neither bound.
    if (v < min[axis]) min[axis] = v;
    if (v > max[axis]) max[axis] = v;
  }
  void merge(const Bounds& other) {
    for (int a = 0; a < 4; ++a) {
      if (other.min[a] < min[a]) min[a] = other.min[a];
      if (other.max[a] > max[a]) max[a] = other.max[a];
    }
  }
  // The thrift form; requires has_xy(). Z and M only where they saw values.
  format::BoundingBox to_thrift() const;

  static constexpr double kInf = std::numeric_limits<double>::infinity();
};

// What a walk of one value found.
struct WkbSummary {
  // The ISO code of the outer geometry: dimensions * 1000 + type, with
  // dimensions 0 XY, 1 XYZ, 2 XYM, 3 XYZM and type 1 Point ... 7
  // GeometryCollection (Geospatial.md, "Geospatial Types").
  uint32_t type_code = 0;
  Bounds bounds;  // of every coordinate, at any depth
};

// Walks one WKB value; throws parq::Error (kCorrupt) for anything that is
// not a whole ISO WKB geometry.
WkbSummary read_wkb(std::span<const uint8_t> wkb);

// A query box; xmin > xmax wraps around the antimeridian (as a bounding box
// in the statistics may: x >= xmin or x <= xmax).
struct QueryBox {
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};

// Whether a value's bounds meet the query box (boundaries touching count).
// False when the value has no X or no Y (an empty geometry, only NaNs).
bool intersects(const Bounds& value, const QueryBox& box);

// Whether a column chunk's statistics box can hold a value whose bounds
// meet the query box. A statistics box that wraps says only that its
// values' X lie at one of its two ends; a single value's planar bounds may
// then span anything between, so only Y can rule the chunk out. A NaN
// bound rules nothing out.
bool statistics_may_intersect(const format::BoundingBox& stats, const QueryBox& box);

}  // namespace parq::geo
