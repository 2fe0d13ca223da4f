// libFuzzer target for the WKB walk (geo/wkb.h) and the GEOMETRY statistics
// builder that runs it on every value a writer gets. The input is one WKB
// value; the walk must either fail with parq::Error or give bounds whose
// axes hold no NaN and a type code Geospatial.md defines. The builder, fed
// the same bytes as a two-value batch, must agree with the walk on whether
// the value is WKB.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "column/statistics_builder.h"
#include "parq/error.h"
#include "parq/geo/wkb.h"
#include "parq/schema/field.h"

namespace {

using namespace parq;

const Schema& geometry_schema() {
  static const Schema schema = make_schema({Field::binary("g").logical_type({.GEOMETRY = format::GeometryType{}})});
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bool valid = true;
  geo::WkbSummary s;
  try {
    s = geo::read_wkb({data, size});
  } catch (const Error&) {
    valid = false;
  }
  if (valid) {
    if (s.type_code % 1000 < 1 || s.type_code % 1000 > 7 || s.type_code / 1000 > 3) std::abort();
    for (int a = 0; a < 4; ++a)
      if (std::isnan(s.bounds.min[a]) || std::isnan(s.bounds.max[a])) std::abort();
    geo::intersects(s.bounds, geo::QueryBox{-1, -1, 1, 1});
  }
  auto builder = StatisticsBuilder::make(geometry_schema().column(0), 64);
  const int32_t offsets[3] = {0, static_cast<int32_t>(size), static_cast<int32_t>(2 * size)};
  std::vector<uint8_t> twice(data, data + size);
  twice.insert(twice.end(), data, data + size);
  builder->add_byte_arrays(offsets, twice.data(), 2);
  const auto stats = builder->geospatial();
  if (stats.has_value() != valid) std::abort();
  if (stats && stats->geospatial_types != std::vector<int32_t>{static_cast<int32_t>(s.type_code)}) std::abort();
  if (stats && stats->bbox) {
    const auto& b = *stats->bbox;
    if (b.xmin > b.xmax || b.ymin > b.ymax || b.xmin != s.bounds.min[geo::kX]) std::abort();
  }
  return 0;
}
