// `parq recover` and `--checkpoint`: a checkpointed rewrite cut short comes
// back with its report, a file without checkpoints needs --schema, and the
// checkpoint option's forms and mistakes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

using ::testing::HasSubstr;

std::string tiny_pages() { return (corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string(); }

void truncate_copy(const std::string& from, uint64_t size, const std::string& to) {
  std::vector<uint8_t> bytes = read_file_bytes(from);
  bytes.resize(size);
  std::ofstream(to, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

TEST(RecoverCommand, BringsBackACheckpointedRewriteCutShort) {
  TempDir dir("recover-command");
  auto rewrite =
      run_tool({"rewrite", tiny_pages(), dir / "ck.parquet", "--row-group-rows", "1000", "--checkpoint", "2"});
  ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;
  EXPECT_EQ(run_tool({"count", dir / "ck.parquet"}).out, "7300\n");
  const uint64_t size = std::filesystem::file_size(dir / "ck.parquet");
  truncate_copy(dir / "ck.parquet", size * 2 / 3, dir / "cut.parquet");
  auto r = run_tool({"recover", dir / "cut.parquet", dir / "out.parquet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("from the last checkpoint"));
  EXPECT_THAT(r.out, HasSubstr("wrote " + dir / "out.parquet"));
  const auto count = run_tool({"count", dir / "out.parquet"});
  ASSERT_EQ(count.exit_code, 0);
  const int rows = std::stoi(count.out);
  EXPECT_GE(rows, 4000);
  EXPECT_LT(rows, 7300);
  EXPECT_EQ(rows % 1000, 0);
  // The rows are the file's first rows.
  EXPECT_EQ(run_tool({"cat", dir / "out.parquet"}).out,
            run_tool({"cat", dir / "ck.parquet", "--limit", std::to_string(rows)}).out);
}

TEST(RecoverCommand, AFileWithoutCheckpointsNeedsItsSchema) {
  TempDir dir("recover-command");
  ASSERT_EQ(run_tool({"rewrite", tiny_pages(), dir / "f.parquet", "--row-group-rows", "1000"}).exit_code, 0);
  truncate_copy(dir / "f.parquet", std::filesystem::file_size(dir / "f.parquet") / 2, dir / "cut.parquet");
  auto without = run_tool({"recover", dir / "cut.parquet", dir / "out.parquet"});
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_THAT(without.err, HasSubstr("no checkpoint"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.parquet"));
  auto with = run_tool({"recover", dir / "cut.parquet", dir / "out.parquet", "--schema", tiny_pages()});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_THAT(with.out, HasSubstr("from scanning pages"));
  EXPECT_THAT(with.out, HasSubstr("scanning stopped at offset"));
  auto whole = run_tool({"recover", dir / "f.parquet", dir / "copy.parquet"});
  EXPECT_EQ(whole.exit_code, 0);
  EXPECT_THAT(whole.out, HasSubstr("is whole (7300 rows)"));
}

TEST(RecoverCommand, CheckpointTakesRowGroupsBytesOrTime) {
  TempDir dir("recover-command");
  for (const char* good : {"3", "64KiB", "100000B", "1MB", "30s", "5m", "1h"}) {
    auto r = run_tool({"rewrite", tiny_pages(), dir / "f.parquet", "--checkpoint", good});
    EXPECT_EQ(r.exit_code, 0) << good << ": " << r.err;
  }
  for (const char* bad : {"0", "-1", "3x", "MiB", "10 s", "1.5h"}) {
    auto r = run_tool({"rewrite", tiny_pages(), dir / "g.parquet", "--checkpoint", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("--checkpoint takes")) << bad;
  }
  auto encrypted = run_tool({"rewrite", tiny_pages(), dir / "e.parquet", "--checkpoint", "1", "--footer-key",
                             "000102030405060708090a0b0c0d0e0f"});
  EXPECT_NE(encrypted.exit_code, 0);
  EXPECT_THAT(encrypted.err, HasSubstr("checkpoints are not written in encrypted files"));
}

}  // namespace
}  // namespace parq::testing
