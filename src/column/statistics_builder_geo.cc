// Statistics of GEOMETRY and GEOGRAPHY columns: null counts and
// GeospatialStatistics (Geospatial.md), never min/max (LogicalTypes.md: the
// sort order of these types is undefined, writers save no min/max).
//
// A value that is not ISO WKB leaves the chunk without geospatial
// statistics rather than failing the write: the column holds bytes the
// format does not police, and statistics that skipped a value would let a
// reader prune a row group holding it.
//
// GEOGRAPHY edges are geodesics, which may reach beyond their vertices'
// latitudes and cross the antimeridian; the box of the vertices bounds them
// only when there are no edges, so a GEOGRAPHY chunk gets a box only when
// it holds points alone (inside the canonical longitude and latitude
// ranges). Its type codes are written whatever it holds.
#include <cstdint>
#include <span>

#include "parq/error.h"
#include "parq/geo/wkb.h"
#include "statistics_builder.h"

namespace parq {
namespace {

class GeoStatistics final : public StatisticsBuilder {
 public:
  explicit GeoStatistics(bool geography) : geography_(geography) {}

  void add_values(const void*, size_t) override {
    detail::wrong_statistics_input("fixed-width values", "GEOMETRY or GEOGRAPHY");
  }

  void add_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n) override {
    if (invalid_) return;
    for (size_t i = 0; i < n; ++i) {
      const std::span<const uint8_t> wkb(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
      geo::WkbSummary s;
      try {
        s = geo::read_wkb(wkb);
      } catch (const Error&) {
        invalid_ = true;
        return;
      }
      types_ |= uint32_t{1} << type_bit(s.type_code);
      bounds_.merge(s.bounds);
      any_ = true;
    }
  }

  void merge(const StatisticsBuilder& other) override {
    const auto* o = dynamic_cast<const GeoStatistics*>(&other);
    if (o == nullptr) detail::wrong_statistics_input("statistics of another column", "GEOMETRY or GEOGRAPHY");
    null_count_ += o->null_count_;
    invalid_ = invalid_ || o->invalid_;
    any_ = any_ || o->any_;
    types_ |= o->types_;
    bounds_.merge(o->bounds_);
  }

  void reset() override {
    null_count_ = nan_count_ = 0;
    invalid_ = any_ = false;
    types_ = 0;
    bounds_ = geo::Bounds{};
  }

  bool has_bounds() const override { return false; }
  std::string min_bytes() const override { return {}; }
  std::string max_bytes() const override { return {}; }
  int compare(std::string_view a, std::string_view b) const override { return a.compare(b); }

  std::optional<format::GeospatialStatistics> geospatial() const override {
    if (invalid_ || !any_) return std::nullopt;
    format::GeospatialStatistics out;
    out.geospatial_types.emplace();
    bool points_only = true;
    for (uint32_t dims = 0; dims < 4; ++dims)
      for (uint32_t type = 1; type <= 7; ++type)
        if (types_ & (uint32_t{1} << type_bit(dims * 1000 + type))) {
          out.geospatial_types->push_back(static_cast<int32_t>(dims * 1000 + type));
          points_only = points_only && (type == 1 || type == 4);
        }
    if (bounds_.has_xy() && (!geography_ || (points_only && in_canonical_ranges()))) out.bbox = bounds_.to_thrift();
    return out;
  }

 private:
  static uint32_t type_bit(uint32_t code) { return (code / 1000) * 7 + code % 1000 - 1; }

  bool in_canonical_ranges() const {
    using geo::kX;
    using geo::kY;
    return bounds_.min[kX] >= -180 && bounds_.max[kX] <= 180 && bounds_.min[kY] >= -90 && bounds_.max[kY] <= 90;
  }

  bool geography_;
  bool invalid_ = false;
  bool any_ = false;    // a value was added
  uint32_t types_ = 0;  // one bit per ISO code, by type_bit
  geo::Bounds bounds_;
};

}  // namespace

namespace detail {

std::unique_ptr<StatisticsBuilder> make_geo_statistics(const ColumnDescriptor& column) {
  const auto& logical = column.type.logical;
  if (column.type.physical != format::Type::BYTE_ARRAY || !(logical.GEOMETRY || logical.GEOGRAPHY)) return nullptr;
  return std::make_unique<GeoStatistics>(logical.GEOGRAPHY.has_value());
}

}  // namespace detail

}  // namespace parq
