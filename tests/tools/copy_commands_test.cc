// `parq concat`, `parq merge` and `parq split`: what each writes (rows in
// order, row groups by size, chunks copied byte for byte), what they say,
// and their refusals (usage, mismatched schemas) with no output left.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "parq/column/page_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "rows_text.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string corpus(const std::string& name) { return (corpus_dir() / "data" / name).string(); }

std::string rows_at(const std::string& path) { return rows_of(*FileReader::open(path)); }

std::vector<uint8_t> chunk_bytes(const FileReader& file, size_t row_group, size_t column) {
  const ChunkRange range = chunk_range(file.metadata(), row_group, column, file.input().size());
  std::vector<uint8_t> bytes(range.length);
  file.input().read_at(range.offset, bytes.size(), bytes.data());
  return bytes;
}

class CopyCommands : public ::testing::Test {
 protected:
  // alltypes_tiny_pages in row groups of 1000 rows.
  void SetUp() override {
    const CommandResult r =
        run_tool({"rewrite", corpus("alltypes_tiny_pages.parquet"), in_, "--row-group-rows", "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    file_ = FileReader::open(in_);
  }
  TempDir dir_{"copy-commands"};
  std::string in_ = dir_ / "in.parquet";
  std::unique_ptr<FileReader> file_;
};

TEST_F(CopyCommands, ConcatCopiesAndSaysWhat) {
  const std::string out = dir_ / "out.parquet";
  const CommandResult r = run_tool({"concat", out, in_, in_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const int64_t rows = file_->metadata().num_rows;
  const size_t groups = file_->metadata().row_groups.size();
  EXPECT_EQ(r.out, out + ": " + std::to_string(2 * rows) + " rows in " + std::to_string(2 * groups) +
                       " row groups from 2 files\n");
  EXPECT_EQ(rows_at(out), rows_at(in_) + rows_at(in_));
  auto o = FileReader::open(out);
  for (size_t c = 0; c < file_->schema().num_columns(); ++c)
    EXPECT_EQ(chunk_bytes(*o, groups, c), chunk_bytes(*file_, 0, c)) << c;
}

TEST_F(CopyCommands, ConcatRefusesMismatchesAndBadArguments) {
  const std::string out = dir_ / "out.parquet";
  const std::string other = corpus("alltypes_plain.parquet");
  CommandResult r = run_tool({"concat", out, in_, other});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr(other + " cannot be concatenated with " + in_ + ": its schema differs"));
  EXPECT_FALSE(fs::exists(out));
  r = run_tool({"concat", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected OUT and at least one IN"));
  r = run_tool({"concat", out, corpus("uniform_encryption.parquet.encrypted")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("uniform_encryption.parquet.encrypted"));
  EXPECT_FALSE(fs::exists(out));
  r = run_tool({"concat", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: parq concat OUT IN..."));
}

TEST_F(CopyCommands, ConcatIntoAnInputAppendsToIt) {
  const std::string before = rows_at(in_);
  const std::string other = dir_ / "other.parquet";
  ASSERT_EQ(run_tool({"rewrite", in_, other, "--row-group-rows", "3000"}).exit_code, 0);
  const CommandResult r = run_tool({"concat", in_, in_, other});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rows_at(in_), before + before);
  EXPECT_EQ(FileReader::open(in_)->metadata().row_groups.size(), file_->metadata().row_groups.size() + 3);
}

TEST_F(CopyCommands, MergeReencodesIntoTheAskedRowGroups) {
  const std::string out = dir_ / "merged.parquet";
  const CommandResult r = run_tool({"merge", out, in_, in_, "--row-group-rows", "5000", "--codec", "zstd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rows_at(out), rows_at(in_) + rows_at(in_));
  auto o = FileReader::open(out);
  const int64_t rows = 2 * file_->metadata().num_rows;
  ASSERT_EQ(o->metadata().row_groups.size(), static_cast<size_t>((rows + 4999) / 5000));
  for (size_t g = 0; g + 1 < o->metadata().row_groups.size(); ++g)
    EXPECT_EQ(o->metadata().row_groups[g].num_rows, 5000);
  EXPECT_EQ(o->metadata().row_groups[0].columns[0].meta_data->codec, format::CompressionCodec::ZSTD);
  EXPECT_THAT(r.out, HasSubstr(std::to_string(rows) + " rows in " + std::to_string(o->metadata().row_groups.size()) +
                               " row groups from 2 files"));

  const CommandResult bad = run_tool({"merge", out, in_, corpus("alltypes_plain.parquet")});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("alltypes_plain.parquet cannot be merged with " + in_));
}

TEST_F(CopyCommands, SplitByRowGroupsCopiesThem) {
  const std::string out = dir_ / "pieces";
  const CommandResult r = run_tool({"split", in_, out, "--row-groups", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t groups = file_->metadata().row_groups.size();
  const size_t pieces = (groups + 2) / 3;
  std::string rows;
  for (size_t p = 0; p < pieces; ++p) {
    char name[48];
    std::snprintf(name, sizeof name, "part-%05zu.parquet", p);
    const std::string path = (fs::path(out) / name).string();
    EXPECT_THAT(r.out, HasSubstr(path + ": "));
    auto piece = FileReader::open(path);
    ASSERT_EQ(piece->metadata().row_groups.size(), std::min<size_t>(3, groups - 3 * p));
    for (size_t g = 0; g < piece->metadata().row_groups.size(); ++g)
      for (size_t c = 0; c < piece->schema().num_columns(); ++c)
        EXPECT_EQ(chunk_bytes(*piece, g, c), chunk_bytes(*file_, 3 * p + g, c)) << p << " " << g << " " << c;
    rows += rows_of(*piece);
  }
  EXPECT_EQ(parquet_files(out).size(), pieces);
  EXPECT_EQ(rows, rows_at(in_));
}

TEST_F(CopyCommands, SplitRemovesPiecesOfAnEarlierLongerSplit) {
  const std::string out = dir_ / "pieces";
  ASSERT_EQ(run_tool({"split", in_, out, "--row-groups", "1"}).exit_code, 0);
  const size_t many = parquet_files(out).size();
  ASSERT_GT(many, 2u);
  // Files of other names stay, and so does a name that only looks like a piece's.
  for (const char* other : {"notes.txt", "part-1.parquet", "part-0000x.parquet"})
    std::ofstream(fs::path(out) / other) << "x";
  const CommandResult r = run_tool({"split", in_, out, "--row-groups", "1000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("removed " + std::to_string(many - 1) + " pieces of an earlier split from " + out));
  EXPECT_TRUE(fs::exists(fs::path(out) / "part-00000.parquet"));
  EXPECT_FALSE(fs::exists(fs::path(out) / "part-00001.parquet"));
  for (const char* other : {"notes.txt", "part-1.parquet", "part-0000x.parquet"})
    EXPECT_TRUE(fs::exists(fs::path(out) / other)) << other;
  EXPECT_EQ(rows_at((fs::path(out) / "part-00000.parquet").string()), rows_at(in_));
}

TEST_F(CopyCommands, SplitByRowsAndBytesGivesTheRowsInOrder) {
  for (const std::vector<std::string>& how : {std::vector<std::string>{"--rows", "2500"}, {"--bytes", "20000"}}) {
    SCOPED_TRACE(how[0]);
    const std::string out = dir_ / ("pieces" + how[0]);
    std::vector<std::string> args = {"split", in_, out};
    args.insert(args.end(), how.begin(), how.end());
    const CommandResult r = run_tool(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string rows;
    int64_t total = 0;
    size_t pieces = 0;
    for (const auto& path : parquet_files(out)) {
      auto piece = FileReader::open(path.string());
      if (how[0] == "--rows" && total + 2500 < file_->metadata().num_rows) {
        EXPECT_EQ(piece->metadata().num_rows, 2500) << path;
      }
      total += piece->metadata().num_rows;
      rows += rows_of(*piece);
      ++pieces;
    }
    EXPECT_GT(pieces, 2u);
    EXPECT_EQ(total, file_->metadata().num_rows);
    EXPECT_EQ(rows, rows_at(in_));
  }
  CommandResult r = run_tool({"split", in_, dir_ / "x", "--rows", "5", "--bytes", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("give one of --rows N, --bytes N, --row-groups N"));
  r = run_tool({"split", in_, dir_ / "x", "--rows", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--rows must be at least 1"));
}

}  // namespace
}  // namespace parq::testing
