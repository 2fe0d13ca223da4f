// GEOMETRY interop with pyarrow (Arrow C++), run through a Python that has
// it: PARQ_PYTHON, else the checkout's .venv (python/setup-venv.sh installs
// pyarrow there); skipped, saying so, when neither imports pyarrow with
// GeospatialStatistics. tests/geo/pyarrow_geo.py writes random geometries of
// every type, dimension and byte order; parq's statistics of each row group
// must equal those Arrow stored, pyarrow must read the statistics of the
// file parq writes from the same rows as parq wrote them, and
// bbox_intersects on pyarrow's file must prune by its statistics and keep
// exactly the rows the walker says meet the box.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "column/statistics_builder.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/geo/wkb.h"
#include "parq/io/output.h"
#include "test_paths.h"

namespace parq {
namespace {

namespace fs = std::filesystem;

std::string python() {
  if (const char* p = std::getenv("PARQ_PYTHON"); p != nullptr && *p != '\0') return p;
  return (fs::path(PARQ_SOURCE_DIR) / ".venv" / "bin" / "python").string();
}

// Runs the script with `args`; its stdout, or nullopt when it failed.
std::optional<std::string> run_script(const std::vector<std::string>& args) {
  std::string cmd =
      "'" + python() + "' '" + (fs::path(PARQ_SOURCE_DIR) / "tests" / "geo" / "pyarrow_geo.py").string() + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return std::nullopt;
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) {
    std::fprintf(stderr, "%s\n", out.c_str());
    return std::nullopt;
  }
  return out;
}

std::vector<std::string> values_of(const FileReader& file, std::optional<size_t> row_group,
                                   std::vector<bool>* valid = nullptr) {
  ReadOptions options;
  if (row_group) options.row_groups = {*row_group};
  options.columns = {"geometry"};
  auto source = read_batches(file, options);
  std::vector<std::string> out;
  RecordBatch b;
  while (source->next(b)) {
    const Array& a = b.columns[0];
    const int32_t* o = a.offsets_data();
    for (int64_t i = 0; i < a.length; ++i) {
      if (valid) valid->push_back(a.is_valid(i));
      if (a.is_valid(i) || valid)
        out.emplace_back(reinterpret_cast<const char*>(a.values.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i]));
    }
  }
  return out;
}

std::optional<format::GeospatialStatistics> computed(const ColumnDescriptor& column,
                                                     const std::vector<std::string>& v) {
  auto builder = StatisticsBuilder::make(column, 64);
  std::vector<int32_t> offsets{0};
  std::string data;
  for (const auto& s : v) {
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  builder->add_byte_arrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), v.size());
  return builder->geospatial();
}

// pyarrow's JSON of one row group's statistics, as the thrift struct.
std::optional<format::GeospatialStatistics> from_json(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  format::GeospatialStatistics g;
  g.geospatial_types = j["types"].get<std::vector<int32_t>>();
  const auto& b = j["bbox"];
  if (!b[0].is_null()) {
    format::BoundingBox box{b[0].get<double>(), b[1].get<double>(), b[2].get<double>(), b[3].get<double>()};
    if (!b[4].is_null()) box.zmin = b[4].get<double>(), box.zmax = b[5].get<double>();
    if (!b[6].is_null()) box.mmin = b[6].get<double>(), box.mmax = b[7].get<double>();
    g.bbox = box;
  }
  return g;
}

TEST(GeoInteropTest, StatisticsAgreeWithPyarrowBothWays) {
  testing::TempDir dir("geo-interop");
  const std::string theirs = dir / "pyarrow.parquet";
  if (!run_script({"write", theirs}))
    GTEST_SKIP() << python() << " cannot write GEOMETRY with pyarrow; set PARQ_PYTHON to a Python with pyarrow >= 21";
  auto file = FileReader::open(theirs);
  const Schema& schema = file->schema();
  const ColumnDescriptor& column = schema.column(static_cast<size_t>(schema.find_column("geometry")));
  ASSERT_TRUE(column.type.logical.GEOMETRY);
  const auto& md = file->metadata();
  ASSERT_EQ(md.row_groups.size(), 8u);
  int compared = 0;
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    SCOPED_TRACE("row group " + std::to_string(g));
    const auto& stored = md.row_groups[g].columns[static_cast<size_t>(column.column_index)].meta_data;
    ASSERT_TRUE(stored->geospatial_statistics);
    EXPECT_EQ(computed(column, values_of(*file, g)), stored->geospatial_statistics);
    ++compared;
  }

  // The same rows written by parq, read back by pyarrow.
  const std::string ours = dir / "parq.parquet";
  {
    WriteOptions options;
    options.row_group_rows = 50;
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), schema, options);
    auto source = read_batches(*file);
    RecordBatch b;
    while (source->next(b)) writer->write(b);
    writer->close();
    std::ofstream(ours, std::ios::binary)
        .write(reinterpret_cast<const char*>(sink->buffer().data()),
               static_cast<std::streamsize>(sink->buffer().size()));
  }
  const auto json = run_script({"stats", ours});
  ASSERT_TRUE(json);
  const nlohmann::json read_back = nlohmann::json::parse(*json);
  auto written = FileReader::open(ours);
  ASSERT_EQ(read_back.size(), 8u);
  for (size_t g = 0; g < read_back.size(); ++g) {
    SCOPED_TRACE("parq's row group " + std::to_string(g));
    EXPECT_EQ(read_back[g]["logical"], "Geometry(crs=)");
    const auto& mine = written->metadata().row_groups[g].columns[1].meta_data->geospatial_statistics;
    EXPECT_EQ(from_json(read_back[g]), mine);
    EXPECT_EQ(mine, md.row_groups[g].columns[1].meta_data->geospatial_statistics);
    ++compared;
  }
  std::printf("pyarrow interop: %d row groups' GeospatialStatistics compared\n", compared);
  EXPECT_EQ(compared, 16);
}

TEST(GeoInteropTest, BboxFilterOnPyarrowFile) {
  testing::TempDir dir("geo-interop-filter");
  const std::string theirs = dir / "pyarrow.parquet";
  if (!run_script({"write", theirs}))
    GTEST_SKIP() << python() << " cannot write GEOMETRY with pyarrow; set PARQ_PYTHON to a Python with pyarrow >= 21";
  auto file = FileReader::open(theirs);
  std::vector<bool> valid;
  const std::vector<std::string> all = values_of(*file, std::nullopt, &valid);
  for (const geo::QueryBox q :
       {geo::QueryBox{9.9, 9.9, 10.6, 10.1}, geo::QueryBox{0, 0, 20, 20}, geo::QueryBox{150, -90, -150, 90}}) {
    std::vector<int64_t> want;
    for (size_t i = 0; i < all.size(); ++i)
      if (valid[i] &&
          geo::intersects(geo::read_wkb({reinterpret_cast<const uint8_t*>(all[i].data()), all[i].size()}).bounds, q))
        want.push_back(static_cast<int64_t>(i));
    ReadOptions options;
    options.columns = {"id"};
    options.filter = filter::Expression::bbox_intersects("geometry", q.xmin, q.ymin, q.xmax, q.ymax);
    ReadStats stats;
    options.stats = &stats;
    auto source = read_batches(*file, options);
    std::vector<int64_t> got;
    RecordBatch b;
    while (source->next(b))
      for (int64_t i = 0; i < b.num_rows; ++i) got.push_back(b.columns[0].values.data_as<int64_t>()[i]);
    EXPECT_EQ(got, want);
    if (q.xmin == 9.9) {
      // Each row group lies in its own band of X: at most the last (the
      // points near (10, 10)) and the one from x 10 to 40 are read.
      EXPECT_GE(want.size(), 50u);
      EXPECT_GE(stats.row_groups_pruned_by_statistics, 6);
      std::printf("pyarrow file, box around (10, 10): %lld of 8 row groups pruned by statistics\n",
                  static_cast<long long>(stats.row_groups_pruned_by_statistics));
    }
  }
}

}  // namespace
}  // namespace parq
