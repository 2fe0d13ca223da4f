// `parq bench read` and `parq bench write`: the JSON they print has the runs
// asked for, the sizes and row counts of the file, and a written file that
// matches its source; usage mistakes are errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_paths.h"

namespace parq::testing {
namespace {

const std::string kFile = "alltypes_tiny_pages.parquet";

TEST(BenchCommand, ReadReportsEachRun) {
  CommandResult r = run_tool({"bench", "read", (corpus_dir() / "data" / kFile).string(), "--json", "--repeat", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rows"], 7300);
  EXPECT_EQ(j["seconds"].size(), 3u);
  EXPECT_GT(j["bytes"].get<int64_t>(), 0);
}

// Thread counts given as a list take turns: K runs of each, reported per
// count in the list's order.
TEST(BenchCommand, ReadTakesTurnsOverThreadCounts) {
  CommandResult r = run_tool(
      {"bench", "read", (corpus_dir() / "data" / kFile).string(), "--json", "--repeat", "2", "--threads", "1,2,3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rows"], 7300);
  EXPECT_EQ(j["threads"], nlohmann::json::parse("[1, 2, 3]"));
  ASSERT_EQ(j["seconds"].size(), 3u);
  for (const auto& runs : j["seconds"]) EXPECT_EQ(runs.size(), 2u);

  CommandResult text = run_tool({"bench", "read", (corpus_dir() / "data" / kFile).string(), "--threads", "1,2"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("1 thread(s)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2 thread(s)"), std::string::npos) << text.out;
  EXPECT_EQ(run_tool({"bench", "read", (corpus_dir() / "data" / kFile).string(), "--threads", "1,x"}).exit_code, 2);
  EXPECT_EQ(run_tool({"bench", "read", (corpus_dir() / "data" / kFile).string(), "--threads", ","}).exit_code, 2);
}

TEST(BenchCommand, WriteReportsEachRunAndTheOutputSize) {
  const auto out = std::filesystem::temp_directory_path() / "parq-bench-write-test.parquet";
  CommandResult r = run_tool({"bench", "write", (corpus_dir() / "data" / kFile).string(), "--json", "--repeat", "2",
                              "--codec", "zstd", "--threads", "2", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rows"], 7300);
  EXPECT_EQ(j["seconds"].size(), 2u);
  EXPECT_EQ(j["codec"], "ZSTD");
  EXPECT_EQ(j["bytes"].get<uint64_t>(), std::filesystem::file_size(out));
  EXPECT_GT(j["writer_peak_buffered_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(run_tool({"cat", out.string()}).out, run_tool({"cat", (corpus_dir() / "data" / kFile).string()}).out);
  std::filesystem::remove(out);

  CommandResult memory =
      run_tool({"bench", "write", (corpus_dir() / "data" / kFile).string(), "--json", "--repeat", "1", "--to-memory"});
  ASSERT_EQ(memory.exit_code, 0) << memory.err;
  EXPECT_GT(nlohmann::json::parse(memory.out)["bytes"].get<int64_t>(), 0);
}

TEST(BenchCommand, UsageMistakes) {
  EXPECT_EQ(run_tool({"bench"}).exit_code, 2);
  EXPECT_EQ(run_tool({"bench", "fly", "x"}).exit_code, 2);
  EXPECT_EQ(run_tool({"bench", "write", (corpus_dir() / "data" / kFile).string(), "--codec", "nope"}).exit_code, 2);
}

}  // namespace
}  // namespace parq::testing
