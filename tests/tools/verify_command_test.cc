// `parq verify`: a clean file exits 0 with its summary; a file with a bad
// CRC exits 1 with a line naming file, column, row group and page; a cut
// file is one clear problem line; --quiet keeps the summary only; --columns
// picks columns and refuses unknown ones (exit 2); encrypted columns need
// their keys; no corpus file makes it crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kClean = corpus_dir() / "data/alltypes_tiny_pages.parquet";
const fs::path kBadCrc = corpus_dir() / "data/rle-dict-uncompressed-corrupt-checksum.parquet";

TEST(VerifyCommand, CleanFileExitsZero) {
  CommandResult r = run_tool({"verify", kClean.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("verified 1 file, 13 column chunks, "));
  EXPECT_THAT(r.out, HasSubstr(" pages: no problems\n"));
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1);  // the summary alone
}

TEST(VerifyCommand, BadCrcNamesThePage) {
  CommandResult r = run_tool({"verify", kClean.string(), kBadCrc.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr(kBadCrc.string() +
                               ": column long_field, row group 0, page 0 (offset 4): page CRC mismatch (stored "));
  EXPECT_THAT(r.out, HasSubstr(": column binary_field, row group 0, page 0 (offset 57): page CRC mismatch"));
  EXPECT_THAT(r.out, HasSubstr("verified 2 files, "));
  EXPECT_THAT(r.out, HasSubstr(": 2 problems in 1 file\n"));
  EXPECT_THAT(r.out, Not(HasSubstr(kClean.string() + ":")));
}

TEST(VerifyCommand, QuietPrintsTheSummaryOnly) {
  CommandResult r = run_tool({"verify", "--quiet", kBadCrc.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, Not(HasSubstr("CRC")));
  EXPECT_THAT(r.out, HasSubstr("2 problems in 1 file\n"));
}

TEST(VerifyCommand, ColumnsChosen) {
  CommandResult r = run_tool({"verify", "--columns", "binary_field", kBadCrc.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("column binary_field"));
  EXPECT_THAT(r.out, Not(HasSubstr("column long_field")));
  EXPECT_THAT(r.out, HasSubstr("verified 1 file, 1 column chunks, "));
  CommandResult clean = run_tool({"verify", "--columns", "long_field,missing", kBadCrc.string()});
  EXPECT_EQ(clean.exit_code, 2);
  EXPECT_THAT(clean.err, HasSubstr("--columns: " + kBadCrc.string() + " has no column 'missing'"));
}

TEST(VerifyCommand, UsageErrors) {
  CommandResult none = run_tool({"verify"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("parq verify"));
  CommandResult unknown = run_tool({"verify", "--frobnicate", kClean.string()});
  EXPECT_EQ(unknown.exit_code, 2);
  CommandResult help = run_tool({"verify", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("usage: parq verify FILE..."));
}

TEST(VerifyCommand, CutFileIsOneProblem) {
  TempDir dir("verify");
  const std::vector<uint8_t> bytes = read_file_bytes(kClean);
  const std::string cut = dir / "cut.parquet";
  std::ofstream(cut, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 1000);
  CommandResult r = run_tool({"verify", cut, kClean.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.signal, 0);
  EXPECT_THAT(r.out, HasSubstr(cut + ": "));
  EXPECT_THAT(r.out, HasSubstr("1 problem in 1 file\n"));
  EXPECT_THAT(r.out, HasSubstr("verified 2 files, 13 column chunks"));
}

TEST(VerifyCommand, EncryptedColumnsNeedKeys) {
  const std::string file = (corpus_dir() / "data/encrypt_columns_plaintext_footer.parquet.encrypted").string();
  CommandResult without = run_tool({"verify", file});
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_THAT(without.out, HasSubstr(": column double_field, row group 0: the column is encrypted, and no keys"));
  CommandResult with = run_tool({"verify", file, "--footer-key", "30313233343536373839303132333435", "--column-key",
                                 "double_field=31323334353637383930313233343530", "--column-key",
                                 "float_field=31323334353637383930313233343531"});
  EXPECT_EQ(with.exit_code, 0) << with.out << with.err;
  EXPECT_THAT(with.out, HasSubstr("no problems"));
}

// The good files are verified one by one in verify_test.cc; here the tool
// meets every bad one (and what else lies in the folder).
TEST(VerifyCommand, NoBadCorpusFileCrashes) {
  CommandResult r = run_tool({"verify", (corpus_dir() / "bad_data").string()});
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ARROW-GH-45185.parquet: column x.list.element, row group 0, page 0 (offset 4): the "
                               "first repetition level of the column chunk is 1, not 0"));
  EXPECT_THAT(r.out, HasSubstr("PARQUET-1481.parquet: "));
  EXPECT_THAT(r.out, HasSubstr(" problems in "));
}

}  // namespace
}  // namespace parq::testing
