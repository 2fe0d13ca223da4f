// bbox_intersects on whole reads: the rows kept are exactly those whose
// geometry's box meets the query box (checked against the rows'
// coordinates, with or without pruning), row groups whose
// GeospatialStatistics box misses the query are pruned and counted, and a
// value that is not WKB fails the read by name. On the corpus' GEOGRAPHY
// files (wrapping statistics boxes written by DataFusion) pruning and the
// row test agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "file/geo_file_test.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/geo/wkb.h"
#include "parq/io/input.h"
#include "test_paths.h"

namespace parq {
namespace {

using filter::Expression;
using testing::geo_row;

struct Query {
  double xmin, ymin, xmax, ymax;
};

bool x_meets(double lo, double hi, const Query& q) {
  if (q.xmin <= q.xmax) return lo <= q.xmax && hi >= q.xmin;
  return hi >= q.xmin || lo <= q.xmax;
}

// The reference: true, false or unknown (null) from the row's coordinates.
enum class Truth { kFalse, kTrue, kNull };
Truth reference(int64_t i, const Query& q) {
  const testing::GeoRow r = geo_row(i);
  if (r.null) return Truth::kNull;
  if (r.vertices.empty()) return Truth::kFalse;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& v : r.vertices) {
    x0 = std::min(x0, v[0]);
    x1 = std::max(x1, v[0]);
    y0 = std::min(y0, v[1]);
    y1 = std::max(y1, v[1]);
  }
  return x_meets(x0, x1, q) && y0 <= q.ymax && y1 >= q.ymin ? Truth::kTrue : Truth::kFalse;
}

std::vector<int64_t> read_ids(const FileReader& file, ReadOptions options, ReadStats& stats) {
  options.columns = {"id"};
  options.stats = &stats;
  auto source = read_batches(file, options);
  std::vector<int64_t> ids;
  RecordBatch batch;
  while (source->next(batch))
    for (int64_t i = 0; i < batch.num_rows; ++i) ids.push_back(batch.columns[0].values.data_as<int64_t>()[i]);
  return ids;
}

constexpr int64_t kRows = 1000;

TEST(GeoFilteredReadTest, RowsMatchTheReferenceAndRowGroupsArePruned) {
  const std::vector<Query> queries = {
      {0, 0, 4, 20},                                // row group 0 only
      {31, 5, 46, 6},                               // row groups 3 and 4, a band of Y
      {95, -1, 5, 2},                               // across the antimeridian: x >= 95 or x <= 5
      {-10, 100, 200, 200},                         // above everything
      {-1e9, -1e9, 1e9, 1e9}, {37.5, 0, 39.5, 12},  // between points, met by lines and polygons only
  };
  int64_t total_pruned = 0;
  for (bool dictionary : {false, true}) {
    const auto bytes = testing::write_geo_file(kRows, testing::geo_write_options(dictionary),
                                               [](int64_t, std::optional<std::string>&) {});
    auto file = FileReader::open(io::memory_input(bytes));
    for (const Query& q : queries) {
      for (const char* column : {"g", "geog", "raw"}) {
        for (bool negated : {false, true}) {
          for (bool prune : {true, false}) {
            SCOPED_TRACE(std::string(column) + (negated ? " NOT" : "") + (dictionary ? " dictionary" : " plain") +
                         (prune ? " pruned" : " unpruned") + " box " + std::to_string(q.xmin) + " " +
                         std::to_string(q.ymin) + " " + std::to_string(q.xmax) + " " + std::to_string(q.ymax));
            ReadOptions options;
            options.filter = Expression::bbox_intersects(column, q.xmin, q.ymin, q.xmax, q.ymax);
            if (negated) options.filter = Expression::negate(options.filter);
            options.pruning.statistics = options.pruning.dictionaries = prune;
            ReadStats stats;
            const std::vector<int64_t> got = read_ids(*file, options, stats);
            std::vector<int64_t> want;
            std::vector<bool> group_has(10, false);
            for (int64_t i = 0; i < kRows; ++i) {
              const Truth t = reference(i, q);
              if (t != Truth::kNull && (t == Truth::kTrue) != negated) want.push_back(i);
              if (t == Truth::kTrue) group_has[static_cast<size_t>(i / 100)] = true;
            }
            EXPECT_EQ(got, want);
            const int64_t pruned = stats.row_groups_pruned_by_statistics + stats.row_groups_pruned_by_dictionary;
            if (!prune) {
              EXPECT_EQ(pruned, 0);
              continue;
            }
            const auto empty_groups = static_cast<int64_t>(std::count(group_has.begin(), group_has.end(), false));
            if (negated) {
              EXPECT_EQ(pruned, 0);
            } else if (std::string(column) == "g") {
              // The statistics box of each chunk is its rows' box: exactly
              // the row groups without a match go.
              EXPECT_EQ(stats.row_groups_pruned_by_statistics, empty_groups);
              total_pruned += stats.row_groups_pruned_by_statistics;
            } else {
              // GEOGRAPHY chunks of lines have no box, plain binary none at
              // all: only dictionaries (whose entries are every value) prune.
              EXPECT_EQ(stats.row_groups_pruned_by_statistics, 0);
              EXPECT_EQ(stats.row_groups_pruned_by_dictionary, dictionary ? empty_groups : 0);
            }
          }
        }
      }
    }
  }
  RecordProperty("row_groups_pruned", static_cast<int>(total_pruned));
  std::printf("bbox_intersects on g: %lld of %d row groups pruned by statistics\n",
              static_cast<long long>(total_pruned), 2 * 10 * static_cast<int>(queries.size()));
  EXPECT_GT(total_pruned, 0);
}

TEST(GeoFilteredReadTest, ExplainCountsThePrunedRowGroups) {
  const auto bytes =
      testing::write_geo_file(kRows, testing::geo_write_options(false), [](int64_t, std::optional<std::string>&) {});
  auto file = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.filter = filter::parse_filter("bbox_intersects(g, 50, 0, 59, 3) AND id >= 0");
  ReadStats stats;
  const auto ids = read_ids(*file, options, stats);
  EXPECT_EQ(stats.row_groups, 10);
  EXPECT_EQ(stats.row_groups_pruned_by_statistics, 9);
  EXPECT_EQ(stats.rows_pruned_by_row_groups, 900);
  EXPECT_NE(stats.to_string().find("9 by statistics"), std::string::npos);
  ASSERT_FALSE(ids.empty());
  for (int64_t id : ids) EXPECT_EQ(id / 100, 5);
}

TEST(GeoFilteredReadTest, ValueThatIsNotWkbFailsTheRead) {
  const auto bytes =
      testing::write_geo_file(300, testing::geo_write_options(false), [](int64_t i, std::optional<std::string>& v) {
        if (i == 150) v = std::string("\x01\x02\x00\x00\x00", 5);
      });
  auto file = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.filter = Expression::bbox_intersects("g", -1e9, -1e9, 1e9, 1e9);
  ReadStats stats;
  try {
    read_ids(*file, options, stats);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("bbox_intersects on column g: WKB: at byte 5"), std::string::npos) << e.what();
  }
  // Only the geometry test reads the value as WKB.
  options.filter = filter::parse_filter("id >= 0");
  EXPECT_EQ(read_ids(*file, options, stats).size(), 300u);
}

// Each geometry of the corpus' GEOGRAPHY files (points, and polygons
// around the poles and across the antimeridian, their statistics boxes
// written by DataFusion, some wrapping) and whether its vertices' box meets
// `q`, by the walker; pruning by the files' statistics must keep every such
// row.
TEST(GeoFilteredReadTest, CorpusGeographyPrunesConsistently) {
  for (const char* name : {"geography-points.parquet", "geography-polygons.parquet"}) {
    SCOPED_TRACE(name);
    const auto path = testing::corpus_dir() / "data" / "geospatial" / name;
    auto file = FileReader::open(path.string());
    ASSERT_EQ(file->metadata().row_groups.size(), 50u);
    std::vector<int64_t> all_ids;
    std::vector<geo::Bounds> all_bounds;
    {
      ReadOptions options;
      options.columns = {"id", "geometry"};
      auto source = read_batches(*file, options);
      RecordBatch b;
      while (source->next(b)) {
        const Array& g = b.columns[1];
        for (int64_t i = 0; i < b.num_rows; ++i) {
          all_ids.push_back(b.columns[0].values.data_as<int64_t>()[i]);
          const int32_t* o = g.offsets_data();
          all_bounds.push_back(geo::read_wkb({g.values.data() + o[i], static_cast<size_t>(o[i + 1] - o[i])}).bounds);
        }
      }
    }
    ASSERT_EQ(all_ids.size(), 500u);
    int64_t pruned_total = 0;
    for (const geo::QueryBox q : {geo::QueryBox{-10, -10, 10, 10}, geo::QueryBox{170, -30, -170, 0},
                                  geo::QueryBox{100, 40, 140, 90}, geo::QueryBox{-180, 80, 180, 90}}) {
      std::vector<int64_t> want;
      for (size_t i = 0; i < all_ids.size(); ++i)
        if (geo::intersects(all_bounds[i], q)) want.push_back(all_ids[i]);
      ReadOptions options;
      options.filter = Expression::bbox_intersects("geometry", q.xmin, q.ymin, q.xmax, q.ymax);
      ReadStats stats;
      EXPECT_EQ(read_ids(*file, options, stats), want);
      pruned_total += stats.row_groups_pruned_by_statistics;
    }
    std::printf("%s: %lld of 200 row groups pruned by statistics\n", name, static_cast<long long>(pruned_total));
    EXPECT_GT(pruned_total, 50);
  }
}

}  // namespace
}  // namespace parq
