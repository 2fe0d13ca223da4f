// `parq index`: the corpus file with tiny pages lists every page with rows
// that add up to the row group; files without an index say so; usage
// mistakes exit 2 naming the option; a damaged index exits 1 naming the
// column; no corpus file makes it crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "parq/file/file_reader.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kTinyPages = corpus_dir() / "data/alltypes_tiny_pages.parquet";

TEST(IndexCommand, TinyPagesJsonCoversEveryRow) {
  CommandResult r = run_tool({"index", "--json", kTinyPages.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto file = FileReader::open(kTinyPages.string());
  ASSERT_EQ(j.size(), file->schema().num_columns() * file->metadata().row_groups.size());
  for (const auto& chunk : j) {
    const auto& index = chunk["page_index"];
    ASSERT_TRUE(index.is_object()) << chunk["column"];
    EXPECT_EQ(index["has_column_index"], chunk["column"] != "timestamp_col") << chunk["column"];
    int64_t rows = 0, next_first = 0;
    for (const auto& page : index["pages"]) {
      EXPECT_EQ(page["first_row_index"], next_first);
      rows += page["num_rows"].get<int64_t>();
      next_first = rows;
      EXPECT_TRUE(page.contains("offset") && page.contains("compressed_size"));
      // INT96 timestamps have no column index (no defined order), only locations.
      EXPECT_EQ(page.contains("null_count"), index["has_column_index"].get<bool>()) << chunk["column"];
    }
    EXPECT_EQ(rows, file->metadata().row_groups[chunk["row_group"].get<size_t>()].num_rows) << chunk["column"];
  }
  // Bounds are rendered in the column's type: numbers for ids, strings for strings.
  CommandResult id = run_tool({"index", "--json", "--column", "id", "--row-group", "0", kTinyPages.string()});
  ASSERT_EQ(id.exit_code, 0) << id.err;
  auto ids = nlohmann::json::parse(id.out);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_TRUE(ids[0]["page_index"]["pages"][0]["min"].is_number());
  EXPECT_EQ(ids[0]["page_index"]["boundary_order"], "UNORDERED");
}

TEST(IndexCommand, TextListsPagesAndAbsentIndexes) {
  CommandResult r = run_tool({"index", kTinyPages.string(), "--column", "string_col", "--row-group", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("row group 0, column string_col (BYTE_ARRAY)\n"));
  EXPECT_THAT(r.out, HasSubstr("boundary order ASCENDING"));
  EXPECT_THAT(r.out, HasSubstr("  page 0: offset 167138, 37 B, first row 0, 21 rows, nulls 0, min \"0\", max \"9\"\n"));

  CommandResult none = run_tool({"index", (corpus_dir() / "data/alltypes_plain.parquet").string(), "--column", "id"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "row group 0, column id (INT32)\n  no page index\n");
  CommandResult json =
      run_tool({"index", "--json", (corpus_dir() / "data/alltypes_plain.parquet").string(), "--column", "id"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_TRUE(nlohmann::json::parse(json.out)[0]["page_index"].is_null());
}

TEST(IndexCommand, UsageErrorsNameTheOption) {
  const std::string f = kTinyPages.string();
  for (const auto& [args, option] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{{{"index", f, "--column", "nope"}, "--column"},
                                                                     {{"index", f, "--row-group", "7"}, "--row-group"},
                                                                     {{"index", f, "--row-group", "x"}, "--row-group"},
                                                                     {{"index", f, "--bogus"}, "--bogus"},
                                                                     {{"index"}, "FILE"}}) {
    CommandResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_THAT(r.err, HasSubstr(option));
  }
  CommandResult help = run_tool({"index", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("usage: parq index FILE"));
}

TEST(IndexCommand, DamagedIndexFailsNamingTheColumn) {
  const fs::path copy = fs::temp_directory_path() / ("parq-index-" + std::to_string(::getpid()) + ".parquet");
  auto bytes = read_file_bytes(kTinyPages);
  auto file = FileReader::open(kTinyPages.string());
  const int c = file->schema().find_column("float_col");
  const auto& chunk = file->metadata().row_groups[0].columns[static_cast<size_t>(c)];
  ASSERT_TRUE(chunk.offset_index_offset.has_value());
  std::fill_n(bytes.begin() + *chunk.offset_index_offset, *chunk.offset_index_length, uint8_t{0xff});
  std::ofstream(copy, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  CommandResult r = run_tool({"index", copy.string()});
  fs::remove(copy);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("column float_col, row group 0: offset index"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(IndexCommand, CorpusNeverCrashes) {
  size_t files = 0, with_index = 0;
  for (auto dir : {corpus_dir() / "data", corpus_dir() / "bad_data"}) {
    for (const auto& path : parquet_files(dir)) {
      ++files;
      CommandResult r = run_tool({"index", "--json", path.string()});
      ASSERT_EQ(r.signal, 0) << path << " crashed: " << r.err;
      // 1: corrupt; 4: encrypted, which needs a key.
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 4) << path << ": " << r.err;
      if (r.exit_code != 0) {
        EXPECT_THAT(r.err, HasSubstr(path.filename().string()));
      } else {
        nlohmann::json j;
        ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << path;
        for (const auto& chunk : j) with_index += chunk["page_index"].is_object();
      }
    }
  }
  EXPECT_GT(files, 70u);
  EXPECT_GT(with_index, 20u);
}

}  // namespace
}  // namespace parq::testing
