// ALP from the command line: `parq convert --encoding COL=alp` writes ALP
// pages (in the chunk's encodings), `parq cat` prints the same rows as the
// PLAIN file, filtered and limited reads included; `parq rewrite` turns a
// corpus file's FLOAT and DOUBLE columns into ALP without changing a row;
// ALP for an integer column is a usage error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class AlpCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parq-alp-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(AlpCommand, ConvertWritesAlpAndCatReadsIt) {
  {
    std::ofstream csv(path("in.csv"));
    csv << "id,price,temp\n";
    for (int i = 0; i < 5000; ++i)
      csv << i << "," << (i * 7919) % 100000 / 100.0 << "," << (i % 13 == 0 ? "" : std::to_string(i % 400 / 10.0))
          << "\n";
  }
  CommandResult plain = run_tool({"convert", path("in.csv"), path("plain.parquet"), "--dictionary", "off"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  CommandResult alp = run_tool({"convert", path("in.csv"), path("alp.parquet"), "--encoding", "price=alp", "--encoding",
                                "temp=ALP", "--codec", "zstd", "--page-rows", "777"});
  ASSERT_EQ(alp.exit_code, 0) << alp.err;
  CommandResult meta = run_tool({"meta", path("alp.parquet")});
  EXPECT_THAT(meta.out, HasSubstr("ALP"));
  const CommandResult want = run_tool({"cat", path("plain.parquet")});
  const CommandResult got = run_tool({"cat", path("alp.parquet")});
  ASSERT_EQ(got.exit_code, 0) << got.err;
  EXPECT_GT(want.out.size(), 100000u);
  EXPECT_EQ(got.out, want.out);
  for (const char* where : {"price < 20", "temp > 30 and id > 2500"}) {
    const CommandResult w = run_tool({"cat", path("plain.parquet"), "--where", where});
    const CommandResult g = run_tool({"cat", path("alp.parquet"), "--where", where});
    ASSERT_EQ(g.exit_code, 0) << g.err;
    EXPECT_FALSE(w.out.empty()) << where;
    EXPECT_EQ(g.out, w.out) << where;
  }
  const CommandResult w = run_tool({"cat", path("plain.parquet"), "--offset", "1234", "--limit", "2000"});
  const CommandResult g = run_tool({"cat", path("alp.parquet"), "--offset", "1234", "--limit", "2000"});
  EXPECT_EQ(g.out, w.out);
}

TEST_F(AlpCommand, RewriteTurnsCorpusColumnsIntoAlp) {
  const std::string in = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  CommandResult r = run_tool({"rewrite", in, path("out.parquet"), "--encoding", "double_col=alp", "--encoding",
                              "float_col=alp", "--dictionary", "off"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(run_tool({"meta", path("out.parquet")}).out, HasSubstr("ALP"));
  EXPECT_EQ(run_tool({"cat", path("out.parquet")}).out, run_tool({"cat", in}).out);
}

TEST_F(AlpCommand, IntegerColumnsRefuseAlp) {
  const std::string in = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  CommandResult r = run_tool({"rewrite", in, path("out.parquet"), "--encoding", "id=alp"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("ALP does not apply to INT32"));
}

}  // namespace
}  // namespace parq::testing
