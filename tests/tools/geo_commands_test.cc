// The tool on geometry columns: `parq meta` shows each chunk's
// GeospatialStatistics (text and JSON), `parq cat --where bbox_intersects`
// returns the matching rows and --explain counts the row groups pruned.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "file/geo_file_test.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

using ::testing::HasSubstr;

std::string write_temp(const TempDir& dir) {
  const auto bytes = write_geo_file(300, geo_write_options(true), [](int64_t, std::optional<std::string>&) {});
  const std::string path = dir / "geo.parquet";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(GeoCommands, MetaShowsGeospatialStatistics) {
  TempDir dir("geo-meta");
  const std::string path = write_temp(dir);
  const CommandResult text = run_tool({"meta", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // Row group 1: X from 10 to 16 (lines reach x + 2), Y 0 to 15
  // (polygons reach y + 3), Z of the lines' vertices (i and -i, the last
  // line row 196); empty lines add type 2 and nothing to the box.
  EXPECT_THAT(text.out, HasSubstr("geospatial statistics: types=1,2,3,1002 x=[10, 16] y=[0, 15] z=[-196, 196]\n"));
  // GEOGRAPHY of lines and polygons: types only.
  EXPECT_THAT(text.out, HasSubstr("geospatial statistics: types=1,2,3,1002\n"));
  const CommandResult json = run_tool({"meta", "--json", path});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"geospatial_statistics\": {\n"));
  EXPECT_THAT(json.out, HasSubstr("\"xmin\": 10,"));
  EXPECT_THAT(json.out, HasSubstr("\"geospatial_types\": [1, 2, 3, 1002]"));
}

TEST(GeoCommands, CatWhereBboxIntersectsPrunes) {
  TempDir dir("geo-cat");
  const std::string path = write_temp(dir);
  const CommandResult r =
      run_tool({"cat", path, "--columns", "id", "--where", "bbox_intersects(g, 20, 0, 21, 0)", "--explain"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Row groups 0 and 1 lie at x 0..16: their boxes miss x 20..21.
  EXPECT_THAT(r.out + r.err, HasSubstr("2 by statistics"));
  const CommandResult rows = run_tool({"cat", path, "--columns", "id", "--where", "bbox_intersects(g, 20, 0, 21, 0)"});
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  // The rows whose vertices' box meets x 20..21 at y 0.
  std::string want;
  for (int64_t i = 0; i < 300; ++i) {
    const GeoRow g = geo_row(i);
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const auto& v : g.vertices) {
      x0 = std::min(x0, v[0]);
      x1 = std::max(x1, v[0]);
      y0 = std::min(y0, v[1]);
      y1 = std::max(y1, v[1]);
    }
    if (!g.vertices.empty() && x0 <= 21 && x1 >= 20 && y0 <= 0 && y1 >= 0)
      want += "{\"id\":" + std::to_string(i) + "}\n";
  }
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(rows.out, want);
  const CommandResult bad = run_tool({"cat", path, "--where", "bbox_intersects(id, 0, 0, 1, 1)"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("bbox_intersects applies to GEOMETRY, GEOGRAPHY and binary columns"));
}

// Rewriting reads the geometries and writes them again: the new chunk's
// statistics are those of all the source's rows (the union of its row
// groups' boxes and types, as Arrow C++ wrote them).
TEST(GeoCommands, RewriteComputesStatisticsAgain) {
  TempDir dir("geo-rewrite");
  const std::string out = dir / "r.parquet";
  const CommandResult r =
      run_tool({"rewrite", (corpus_dir() / "data" / "geospatial" / "geospatial.parquet").string(), out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CommandResult meta = run_tool({"meta", out});
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_THAT(meta.out, HasSubstr("  column 2 geometry: BYTE_ARRAY GEOMETRY\n"));
  EXPECT_THAT(meta.out, HasSubstr("geospatial statistics: "
                                  "types=1,2,3,4,5,6,7,1001,1002,1003,1004,1005,1006,1007,2001,2002,2003,2004,2005,"
                                  "2006,2007,3001,3002,3003,3004,3005,3006,3007 x=[5, 50] y=[5, 50] z=[15, 100] "
                                  "m=[50, 2500]\n"));
}

}  // namespace
}  // namespace parq::testing
