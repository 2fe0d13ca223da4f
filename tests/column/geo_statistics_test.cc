// GeospatialStatistics as the writer computes them: per column chunk, the
// box of every coordinate and the sorted distinct type codes, no min/max
// (LogicalTypes.md leaves the order of GEOMETRY and GEOGRAPHY undefined),
// none at all for a chunk holding a value that is not WKB, and for
// GEOGRAPHY a box only when the chunk holds points alone. On the corpus'
// geospatial files (written by Arrow C++) the builder reproduces the
// statistics stored there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "column/statistics_builder.h"
#include "file/geo_file_test.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/io/input.h"
#include "test_paths.h"

namespace parq {
namespace {

using testing::geo_row;
using testing::GeoRow;

struct Expected {
  std::optional<format::GeospatialStatistics> geo;
  int64_t nulls = 0;
};

// What the rows [first, last) of geo_row hold, computed from their
// coordinates.
Expected expected_for(int64_t first, int64_t last, bool geography) {
  Expected e;
  std::set<int32_t> codes;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  bool points_only = true;
  for (int64_t i = first; i < last; ++i) {
    const GeoRow r = geo_row(i);
    if (r.null) {
      ++e.nulls;
      continue;
    }
    codes.insert(static_cast<int32_t>(r.code));
    points_only = points_only && r.code % 1000 == 1;
    for (const auto& v : r.vertices)
      for (int k = 0; k < 3; ++k)
        if (!std::isnan(v[static_cast<size_t>(k)])) {
          lo[k] = std::min(lo[k], v[static_cast<size_t>(k)]);
          hi[k] = std::max(hi[k], v[static_cast<size_t>(k)]);
        }
  }
  if (codes.empty()) return e;
  e.geo.emplace();
  e.geo->geospatial_types = std::vector<int32_t>(codes.begin(), codes.end());
  if (lo[0] <= hi[0] && (!geography || points_only)) {
    format::BoundingBox b{lo[0], hi[0], lo[1], hi[1]};
    if (lo[2] <= hi[2]) {
      b.zmin = lo[2];
      b.zmax = hi[2];
    }
    e.geo->bbox = b;
  }
  return e;
}

std::string describe(const std::optional<format::GeospatialStatistics>& g) {
  if (!g) return "none";
  std::string s = "types";
  for (int32_t t : g->geospatial_types.value_or(std::vector<int32_t>{})) s += " " + std::to_string(t);
  if (g->bbox)
    s += "; box x " + std::to_string(g->bbox->xmin) + ".." + std::to_string(g->bbox->xmax) + " y " +
         std::to_string(g->bbox->ymin) + ".." + std::to_string(g->bbox->ymax) +
         (g->bbox->zmin ? " z " + std::to_string(*g->bbox->zmin) + ".." + std::to_string(*g->bbox->zmax) : "");
  return s;
}

TEST(GeoStatisticsTest, WrittenPerChunkWithoutMinMax) {
  for (bool dictionary : {true, false}) {
    SCOPED_TRACE(dictionary ? "dictionary" : "plain");
    const auto bytes = testing::write_geo_file(1000, testing::geo_write_options(dictionary),
                                               [](int64_t, std::optional<std::string>&) {});
    auto file = FileReader::open(io::memory_input(bytes));
    const auto& md = file->metadata();
    ASSERT_EQ(md.row_groups.size(), 10u);
    int with_box = 0;
    for (size_t g = 0; g < md.row_groups.size(); ++g) {
      SCOPED_TRACE("row group " + std::to_string(g));
      const auto first = static_cast<int64_t>(g * 100);
      for (size_t c : {size_t{1}, size_t{2}}) {
        const format::ColumnChunk& cc = md.row_groups[g].columns[c];
        const format::ColumnMetaData& m = *cc.meta_data;
        const Expected want = expected_for(first, first + 100, c == 2);
        EXPECT_EQ(m.geospatial_statistics, want.geo)
            << "column " << c << ": got " << describe(m.geospatial_statistics) << ", want " << describe(want.geo);
        with_box += m.geospatial_statistics && m.geospatial_statistics->bbox;
        ASSERT_TRUE(m.statistics);
        EXPECT_EQ(m.statistics->null_count, want.nulls);
        EXPECT_FALSE(m.statistics->min_value || m.statistics->max_value || m.statistics->min || m.statistics->max);
        // A column index needs min/max for every page with a value.
        EXPECT_FALSE(cc.column_index_offset);
        EXPECT_TRUE(cc.offset_index_offset);
      }
      // Plain binary keeps its byte-order bounds and gets no box.
      const format::ColumnMetaData& raw = *md.row_groups[g].columns[3].meta_data;
      EXPECT_FALSE(raw.geospatial_statistics);
      EXPECT_TRUE(raw.statistics && raw.statistics->min_value);
    }
    // GEOGRAPHY chunks hold lines and polygons: only GEOMETRY has boxes.
    EXPECT_EQ(with_box, 10);
  }
}

TEST(GeoStatisticsTest, GeographyOfPointsGetsABox) {
  // Row group 0: points only; row group 1: points and one line.
  const auto bytes =
      testing::write_geo_file(200, testing::geo_write_options(true), [](int64_t i, std::optional<std::string>& v) {
        if (!v || (i >= 100 && i % 50 == 0)) return;
        v = testing::wkb_point(1, {static_cast<double>(i % 90), -1.0}).str();
      });
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& rg0 = *file->metadata().row_groups[0].columns[2].meta_data;
  ASSERT_TRUE(rg0.geospatial_statistics);
  ASSERT_TRUE(rg0.geospatial_statistics->bbox);
  EXPECT_EQ(rg0.geospatial_statistics->bbox->xmin, 0);
  EXPECT_EQ(rg0.geospatial_statistics->bbox->xmax, 89);
  EXPECT_EQ(rg0.geospatial_statistics->geospatial_types, std::vector<int32_t>{1});
  const auto& rg1 = *file->metadata().row_groups[1].columns[2].meta_data;
  ASSERT_TRUE(rg1.geospatial_statistics);
  EXPECT_FALSE(rg1.geospatial_statistics->bbox);
  EXPECT_EQ(rg1.geospatial_statistics->geospatial_types, (std::vector<int32_t>{1, 1002}));
}

TEST(GeoStatisticsTest, ValueThatIsNotWkbDropsOnlyItsChunksStatistics) {
  const auto bytes =
      testing::write_geo_file(300, testing::geo_write_options(false), [](int64_t i, std::optional<std::string>& v) {
        if (i == 150) v = std::string("\x01\x01\x00", 3);
      });
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& groups = file->metadata().row_groups;
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_TRUE(groups[0].columns[1].meta_data->geospatial_statistics);
  EXPECT_FALSE(groups[1].columns[1].meta_data->geospatial_statistics);
  EXPECT_FALSE(groups[1].columns[2].meta_data->geospatial_statistics);
  EXPECT_TRUE(groups[1].columns[1].meta_data->statistics->null_count);
  EXPECT_TRUE(groups[2].columns[1].meta_data->geospatial_statistics);
}

TEST(GeoStatisticsTest, AllNullChunkHasNone) {
  const auto bytes = testing::write_geo_file(100, testing::geo_write_options(true),
                                             [](int64_t, std::optional<std::string>& v) { v.reset(); });
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& m = *file->metadata().row_groups[0].columns[1].meta_data;
  EXPECT_FALSE(m.geospatial_statistics);
  EXPECT_EQ(m.statistics->null_count, 100);
}

// The builder fed each row group's values of a corpus file gives the
// statistics its writer stored.
void expect_corpus_statistics(const std::string& name, int& compared) {
  const auto path = testing::corpus_dir() / "data" / "geospatial" / name;
  auto file = FileReader::open(path.string());
  const Schema& schema = file->schema();
  const int column = schema.find_column("geometry");
  ASSERT_GE(column, 0);
  const ColumnDescriptor& descriptor = schema.column(static_cast<size_t>(column));
  ASSERT_TRUE(descriptor.type.logical.GEOMETRY);
  const auto& md = file->metadata();
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    SCOPED_TRACE(name + " row group " + std::to_string(g));
    auto builder = StatisticsBuilder::make(descriptor, 64);
    ReadOptions options;
    options.row_groups = {g};
    options.columns = {"geometry"};
    auto source = read_batches(*file, options);
    RecordBatch batch;
    int64_t non_null = 0;
    while (source->next(batch)) {
      const Array& a = batch.columns[0];
      const int32_t* o = a.offsets_data();
      std::vector<int32_t> dense{0};
      std::string data;
      for (int64_t i = 0; i < a.length; ++i) {
        if (!a.is_valid(i)) continue;
        data.append(reinterpret_cast<const char*>(a.values.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i]));
        dense.push_back(static_cast<int32_t>(data.size()));
        ++non_null;
      }
      builder->add_byte_arrays(dense.data(), reinterpret_cast<const uint8_t*>(data.data()), dense.size() - 1);
    }
    auto stored = md.row_groups[g].columns[static_cast<size_t>(column)].meta_data->geospatial_statistics;
    // Arrow writes an empty type list ("not known") and no box for a chunk
    // of nulls; parq writes nothing, which says the same.
    if (stored && !stored->bbox && stored->geospatial_types && stored->geospatial_types->empty()) {
      EXPECT_EQ(non_null, 0);
      stored.reset();
    }
    EXPECT_EQ(builder->geospatial(), stored)
        << "computed " << describe(builder->geospatial()) << ", stored " << describe(stored);
    ++compared;
  }
}

TEST(GeoStatisticsTest, CorpusStatisticsAreReproduced) {
  int compared = 0;
  expect_corpus_statistics("geospatial.parquet", compared);
  expect_corpus_statistics("geospatial-with-nan.parquet", compared);
  EXPECT_EQ(compared, 32);
}

}  // namespace
}  // namespace parq
