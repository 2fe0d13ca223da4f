// `parq rewrite` over the golden corpus: every file, rewritten with several
// option sets, prints exactly its golden dump again; the options reach the
// file (codec, page version, encodings, bloom filters); bad options are
// usage errors; a rewrite in place replaces the file only when complete.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "parq/file/file_reader.h"
#include "parq/file/page_index.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class RewriteCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parq-rewrite-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RewriteCommand, EveryGoldenFileSurvivesSeveralOptionSets) {
  const std::vector<std::vector<std::string>> option_sets = {
      {},
      {"--codec", "zstd:5", "--page-version", "2", "--page-rows", "3", "--dictionary-entries", "2", "--dictionary",
       "always"},
      {"--codec", "lz4", "--dictionary", "off", "--page-bytes", "64", "--row-group-rows", "5", "--page-index", "off"},
  };
  std::ifstream index(golden_dir() / "INDEX.tsv");
  std::string line;
  std::getline(index, line);
  size_t files = 0, matched = 0;
  while (std::getline(index, line)) {
    const std::string path = line.substr(0, line.find('\t'));
    // Unreadable by design, and 1 GiB map keys (tests/file/large_string_map_test.cc).
    if (path == "data/nation.dict-malformed.parquet" || path == "data/large_string_map.brotli.parquet") continue;
    ++files;
    const bool corrupt = path.find("corrupt-checksum") != std::string::npos;
    // Files without a dump (NO_GOLDEN.md) compare with parq's reading of the original.
    const fs::path dump = golden_dir() / (path + ".jsonl");
    const std::string golden =
        fs::exists(dump)
            ? slurp(dump)
            : run_tool(corrupt ? std::vector<std::string>{"cat", "--no-verify-crc", (corpus_dir() / path).string()}
                               : std::vector<std::string>{"cat", (corpus_dir() / path).string()})
                  .out;
    bool all = true;
    for (const auto& options : option_sets) {
      const std::string out = (dir_ / "out.parquet").string();
      std::vector<std::string> args = {"rewrite", (corpus_dir() / path).string(), out};
      if (corrupt) args.push_back("--no-verify-crc");
      args.insert(args.end(), options.begin(), options.end());
      CommandResult r = run_tool(args);
      ASSERT_EQ(r.signal, 0) << path << " crashed";
      if (r.exit_code != 0) {
        ADD_FAILURE() << path << ": " << r.err;
        all = false;
        continue;
      }
      CommandResult cat = run_tool({"cat", out});
      if (cat.out != golden) {
        ADD_FAILURE() << path << " rewritten with option set " << (&options - option_sets.data())
                      << " differs from its golden dump";
        all = false;
      }
    }
    matched += all;
  }
  EXPECT_GT(files, 150u);
  EXPECT_EQ(matched, files);
}

TEST_F(RewriteCommand, OptionsReachTheFile) {
  const std::string in = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  const std::string out = (dir_ / "out.parquet").string();
  CommandResult r = run_tool({"rewrite", in, out, "--codec", "brotli", "--page-version", "2", "--encoding",
                              "string_col=delta_length_byte_array", "--encoding", "double_col=byte_stream_split",
                              "--bloom-filter", "id"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult meta = run_tool({"meta", out});
  EXPECT_THAT(meta.out, HasSubstr("BROTLI"));
  EXPECT_THAT(meta.out, HasSubstr("DELTA_LENGTH_BYTE_ARRAY"));
  EXPECT_THAT(meta.out, HasSubstr("BYTE_STREAM_SPLIT"));
  EXPECT_THAT(meta.out, HasSubstr("parq version"));
  CommandResult pages = run_tool({"pages", out});
  EXPECT_THAT(pages.out, HasSubstr("DATA_PAGE_V2"));
  EXPECT_THAT(pages.out, ::testing::Not(HasSubstr("crc invalid")));
}

TEST_F(RewriteCommand, FallbackKeepsTheDictionaryFirst) {
  const std::string in = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  const std::string out = (dir_ / "out.parquet").string();
  CommandResult r = run_tool({"rewrite", in, out, "--fallback", "string_col=delta_byte_array", "--dictionary-entries",
                              "1", "--page-rows", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult pages = run_tool({"pages", out, "--json"});
  EXPECT_THAT(pages.out, HasSubstr("RLE_DICTIONARY"));
  EXPECT_THAT(pages.out, HasSubstr("DELTA_BYTE_ARRAY"));
  EXPECT_EQ(run_tool({"cat", out}).out, run_tool({"cat", in}).out);
}

TEST_F(RewriteCommand, BadOptionsAreUsageErrors) {
  const std::string in = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  const std::string out = (dir_ / "out.parquet").string();
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--codec", "nope"},
                                                {"--page-version", "3"},
                                                {"--encoding", "id"},
                                                {"--encoding", "id=fancy"},
                                                {"--dictionary", "maybe"}}) {
    std::vector<std::string> args = {"rewrite", in, out};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << ": " << r.err;
  }
  const CommandResult dictionary = run_tool({"rewrite", in, out, "--dictionary", "maybe"});
  EXPECT_THAT(dictionary.err, HasSubstr("--dictionary takes on, off or always, not 'maybe'"));
  for (const char* saving : {"abc", "2", "-0.5", "0.5x"}) {
    CommandResult r = run_tool({"rewrite", in, out, "--min-saving", saving});
    EXPECT_EQ(r.exit_code, 2) << saving << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("--min-saving takes a fraction from 0 to 1")) << saving;
  }
  CommandResult unknown = run_tool({"rewrite", in, out, "--encoding", "no_such_column=plain"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no_such_column"));
  CommandResult wrong = run_tool({"rewrite", in, out, "--encoding", "string_col=delta_binary_packed"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("does not apply"));
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(RewriteCommand, InPlaceRewriteReplacesTheFileWhole) {
  const fs::path file = dir_ / "f.parquet";
  fs::copy_file(corpus_dir() / "data" / "alltypes_plain.parquet", file);
  const std::string before = run_tool({"cat", file.string()}).out;
  CommandResult r = run_tool({"rewrite", file.string(), file.string(), "--codec", "gzip"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", file.string()}).out, before);
  EXPECT_THAT(run_tool({"meta", file.string()}).out, HasSubstr("GZIP"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), {}), 1);
}

}  // namespace
}  // namespace parq::testing

namespace parq::testing {
namespace {

// Float orders: a rewrite keeps each column's ColumnOrder, and its IEEE 754
// total-order statistics are parquet-java's exactly (zeros with their sign,
// NaN bounds for a row group of only NaNs, column indexes for it too);
// --float-order type asks for the type's order instead.
TEST(RewriteFloatOrders, TotalOrderStatisticsMatchParquetJavasAndOrdersAreKept) {
  const std::string source = (corpus_dir() / "data" / "floating_orders_nan_count.parquet").string();
  TempDir dir("float-orders");
  CommandResult r = run_tool({"rewrite", source, dir / "total.parquet", "--row-group-rows", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto before = FileReader::open(source);
  auto after = FileReader::open(dir / "total.parquet");
  ASSERT_TRUE(after->metadata().column_orders.has_value());
  EXPECT_EQ(*after->metadata().column_orders, *before->metadata().column_orders);
  ASSERT_EQ(after->metadata().row_groups.size(), before->metadata().row_groups.size());
  int compared = 0, nan_bounds = 0;
  for (size_t g = 0; g < before->metadata().row_groups.size(); ++g)
    for (size_t c = 0; c < before->schema().num_columns(); ++c) {
      if (!(*before->metadata().column_orders)[c].IEEE_754_TOTAL_ORDER) continue;
      const format::Statistics& want = *before->metadata().row_groups[g].columns[c].meta_data->statistics;
      const format::Statistics& got = *after->metadata().row_groups[g].columns[c].meta_data->statistics;
      SCOPED_TRACE("row group " + std::to_string(g) + ", column " + std::to_string(c));
      EXPECT_EQ(got.min_value, want.min_value);
      EXPECT_EQ(got.max_value, want.max_value);
      EXPECT_EQ(got.nan_count, want.nan_count);
      EXPECT_FALSE(got.min.has_value());  // no legacy bounds beside NaN ones
      ++compared;
      nan_bounds += got.nan_count == int64_t{10};
      // The column index exists where parquet-java wrote one, with its bounds.
      const auto want_index = read_page_index(*before, g, c);
      const auto got_index = read_page_index(*after, g, c);
      ASSERT_TRUE(want_index && got_index && want_index->column_index && got_index->column_index);
      EXPECT_EQ(got_index->column_index->min_values, want_index->column_index->min_values);
      EXPECT_EQ(got_index->column_index->max_values, want_index->column_index->max_values);
    }
  EXPECT_EQ(compared, 15);
  EXPECT_EQ(nan_bounds, 3);  // the NaN-only row group, in each of the three types

  r = run_tool({"rewrite", source, dir / "type.parquet", "--float-order", "type"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto typed = FileReader::open(dir / "type.parquet");
  for (const auto& order : *typed->metadata().column_orders) EXPECT_TRUE(order.TYPE_ORDER.has_value());
  EXPECT_EQ(run_tool({"cat", dir / "type.parquet"}).out, run_tool({"cat", source}).out);
  r = run_tool({"rewrite", source, dir / "x.parquet", "--float-order", "ieee"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--float-order takes total or type"));
}

}  // namespace
}  // namespace parq::testing
