// `parq dictionary`: a chunk's dictionary values in the column's logical
// type, the limit, chunks without a dictionary, usage errors naming the
// option, and a damaged dictionary page exiting 1 naming the column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "parq/file/file_reader.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kPlain = corpus_dir() / "data/alltypes_plain.parquet";

TEST(DictionaryCommand, ValuesInTheColumnsType) {
  CommandResult r = run_tool({"dictionary", kPlain.string(), "--column", "string_col"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "row group 0, column string_col (BYTE_ARRAY): 2 values, not known to cover every data page (some may be "
            "encoded otherwise)\n  0: \"MA==\"\n  1: \"MQ==\"\n");
  CommandResult ts = run_tool({"dictionary", kPlain.string(), "--column", "timestamp_col", "--limit", "2"});
  ASSERT_EQ(ts.exit_code, 0) << ts.err;
  EXPECT_THAT(ts.out, HasSubstr("8 values"));
  EXPECT_THAT(ts.out, HasSubstr("  0: \"2009-03-01T00:00:00.000000000\"\n  1: \"2009-03-01T00:01:00.000000000\"\n"));
  EXPECT_THAT(ts.out, HasSubstr("  ... 6 more\n"));
  CommandResult none = run_tool({"dictionary", kPlain.string(), "--column", "bool_col"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "row group 0, column bool_col (BOOLEAN): no dictionary page (not dictionary-encoded)\n");

  CommandResult strings =
      run_tool({"dictionary", (corpus_dir() / "data/data_index_bloom_encoding_with_length.parquet").string(),
                "--column", "String", "--limit", "1", "--row-group", "0"});
  ASSERT_EQ(strings.exit_code, 0) << strings.err;
  EXPECT_EQ(strings.out,
            "row group 0, column String (BYTE_ARRAY): 14 values, not known to cover every data page (some may be "
            "encoded otherwise)\n  0: \"Hello\"\n  ... 13 more\n");
}

TEST(DictionaryCommand, UsageErrorsNameTheOption) {
  const std::string f = kPlain.string();
  for (const auto& [args, option] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"dictionary", f}, "--column"},
           {{"dictionary", f, "--column", "nope"}, "--column"},
           {{"dictionary", f, "--column", "id", "--limit", "-1"}, "--limit"},
           {{"dictionary", f, "--column", "id", "--row-group", "2"}, "--row-group"}}) {
    CommandResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(option));
  }
  CommandResult help = run_tool({"dictionary", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("usage: parq dictionary FILE... --column C"));
  CommandResult missing = run_tool({"dictionary", "/nonexistent.parquet", "--column", "a"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent.parquet"));
}

TEST(DictionaryCommand, DamagedDictionaryFailsNamingTheColumn) {
  const fs::path copy = fs::temp_directory_path() / ("parq-dictionary-" + std::to_string(::getpid()) + ".parquet");
  auto bytes = read_file_bytes(kPlain);
  auto file = FileReader::open(kPlain.string());
  const int c = file->schema().find_column("string_col");
  const auto& md = *file->metadata().row_groups[0].columns[static_cast<size_t>(c)].meta_data;
  ASSERT_TRUE(md.dictionary_page_offset.has_value());
  // The page header's first bytes: the page no longer decodes.
  std::fill_n(bytes.begin() + *md.dictionary_page_offset, 3, uint8_t{0xff});
  std::ofstream(copy, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  CommandResult r = run_tool({"dictionary", copy.string(), "--column", "string_col"});
  fs::remove(copy);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("column string_col, row group 0"));
}

TEST(DictionaryCommand, CorpusNeverCrashes) {
  size_t files = 0, dictionaries = 0;
  for (auto dir : {corpus_dir() / "data", corpus_dir() / "bad_data"}) {
    for (const auto& path : parquet_files(dir)) {
      // 1 GiB of map keys (tests/file/large_string_map_test.cc): valid, and slow.
      if (path.filename() == "large_string_map.brotli.parquet") continue;
      std::string column;
      try {
        auto file = FileReader::open(path.string());
        if (file->schema().num_columns() == 0) continue;
        column = file->schema().column(0).dotted_path();
      } catch (const std::exception&) {
        continue;
      }
      ++files;
      CommandResult r = run_tool({"dictionary", path.string(), "--column", column, "--limit", "3"});
      ASSERT_EQ(r.signal, 0) << path << " crashed: " << r.err;
      // 1: corrupt; 4: encrypted, which needs a key.
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 4) << path << ": " << r.err;
      if (r.exit_code != 0) {
        EXPECT_THAT(r.err, HasSubstr(path.filename().string()));
      }
      dictionaries += r.out.find(" values, ") != std::string::npos;
    }
  }
  EXPECT_GT(files, 60u);
  EXPECT_GT(dictionaries, 10u);
}

}  // namespace
}  // namespace parq::testing
