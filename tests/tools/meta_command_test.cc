// `parq meta` over the whole shared corpus: valid JSON for every readable
// file, row counts that match the golden dumps, the clear error for encrypted
// footers, and clean failures (never a crash) for the corrupt files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

using ::testing::HasSubstr;

// Golden row counts: lines of <golden>/<path>.jsonl, or INDEX.tsv's count for
// the files that have no dump (NO_GOLDEN.md).
std::map<std::string, int64_t> golden_row_counts() {
  std::map<std::string, int64_t> rows;
  std::ifstream index(golden_dir() / "INDEX.tsv");
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::istringstream fields(line);
    std::string path, count;
    std::getline(fields, path, '\t');
    std::getline(fields, count, '\t');
    std::ifstream dump(golden_dir() / (path + ".jsonl"));
    if (dump) {
      int64_t n = 0;
      for (std::string l; std::getline(dump, l);) ++n;
      rows[path] = n;
    } else {
      rows[path] = std::stoll(count);
    }
  }
  return rows;
}

bool has_encrypted_footer(const std::filesystem::path& p) {
  auto b = read_file_bytes(p);
  return b.size() >= 4 && std::string(b.end() - 4, b.end()) == "PARE";
}

TEST(MetaCommand, EveryCorpusDataFileMatchesItsGoldenRowCount) {
  auto golden = golden_row_counts();
  ASSERT_GE(golden.size(), 150u);
  size_t checked = 0, encrypted = 0;
  for (auto dir : {corpus_dir() / "data", corpus_dir() / "shredded_variant"}) {
    for (const auto& path : parquet_files(dir)) {
      std::string rel = std::filesystem::relative(path, corpus_dir()).string();
      CommandResult r = run_tool({"meta", "--json", path.string()});
      ASSERT_EQ(r.signal, 0) << rel << " crashed: " << r.err;
      if (has_encrypted_footer(path)) {
        ++encrypted;
        EXPECT_EQ(r.exit_code, 4) << rel;
        EXPECT_THAT(r.err, HasSubstr("encrypted file: its footer is encrypted")) << rel;
        continue;
      }
      ASSERT_EQ(r.exit_code, 0) << rel << ": " << r.err;
      nlohmann::json j;
      ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << rel;
      ASSERT_TRUE(j.contains("num_rows")) << rel;
      int64_t num_rows = j["num_rows"].get<int64_t>();
      if (rel.find(".encrypted") != std::string::npos) {
        // Plaintext-footer encrypted files: 50 rows each (corpus README).
        EXPECT_EQ(num_rows, 50) << rel;
        ++checked;
        continue;
      }
      auto it = golden.find(rel);
      ASSERT_NE(it, golden.end()) << rel << " is not in INDEX.tsv";
      if (rel == "data/repeated_no_annotation.parquet") {
        // FORMAT.md: the footer says 0 rows, the pages hold 6.
        EXPECT_EQ(num_rows, 0);
        EXPECT_EQ(it->second, 6);
      } else {
        EXPECT_EQ(num_rows, it->second) << rel;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked + encrypted, 172u);  // every Parquet file outside bad_data
  EXPECT_EQ(encrypted, 11u);
}

TEST(MetaCommand, CorruptFilesFailCleanlyOrSucceed) {
  size_t files = 0;
  for (const auto& path : parquet_files(corpus_dir() / "bad_data")) {
    ++files;
    for (std::vector<std::string> args :
         {std::vector<std::string>{"meta", "--json"}, {"meta"}, {"schema"}, {"pages"}}) {
      bool json = args.size() == 2;
      args.push_back(path.string());
      CommandResult r = run_tool(args);
      EXPECT_EQ(r.signal, 0) << path << " crashed: " << r.err;
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << path << ": " << r.err;
      if (r.exit_code == 1) {
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        EXPECT_THAT(r.err, HasSubstr(path.filename().string()));
      }
      if (r.exit_code == 0 && json) {
        EXPECT_TRUE(nlohmann::json::accept(r.out)) << path;
      }
    }
  }
  EXPECT_EQ(files, 8u);
}

TEST(MetaCommand, CorruptSchemaEnumIsRejected) {
  // PARQUET-1481: the physical type of a schema element is corrupt.
  CommandResult r = run_tool({"meta", (corpus_dir() / "bad_data" / "PARQUET-1481.parquet").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("PARQUET-1481.parquet"));
}

TEST(MetaCommand, ReportsColumnChunkDetails) {
  CommandResult r = run_tool({"meta", "--json", (corpus_dir() / "data" / "alltypes_plain.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["num_rows"], 8);
  EXPECT_EQ(j["num_columns"], 11);
  ASSERT_EQ(j["row_groups"].size(), 1u);
  const auto& cols = j["row_groups"][0]["columns"];
  ASSERT_EQ(cols.size(), 11u);
  EXPECT_EQ(cols[0]["path"], "id");
  EXPECT_EQ(cols[0]["type"], "INT32");
  EXPECT_EQ(cols[0]["codec"], "UNCOMPRESSED");
  EXPECT_EQ(cols[0]["num_values"], 8);
  EXPECT_EQ(cols[10]["path"], "timestamp_col");
  EXPECT_EQ(cols[10]["type"], "INT96");
}

TEST(MetaCommand, StatisticsAreRenderedByLogicalType) {
  CommandResult r = run_tool({"meta", "--json", (corpus_dir() / "data" / "int32_decimal.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& col = j["row_groups"][0]["columns"][0];
  ASSERT_TRUE(col.contains("statistics")) << col.dump();
  // DECIMAL(4,2) values 1.00 .. 24.00 (the golden dump holds them).
  const auto& stats = col["statistics"];
  std::string min = stats.contains("min") ? stats["min"] : stats["legacy_min"];
  std::string max = stats.contains("max") ? stats["max"] : stats["legacy_max"];
  EXPECT_EQ(min, "1.00");
  EXPECT_EQ(max, "24.00");
}

TEST(MetaCommand, TextFormNamesEveryColumn) {
  CommandResult r = run_tool({"meta", (corpus_dir() / "data" / "nested_structs.rust.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("num_rows: 1"));
  EXPECT_THAT(r.out, HasSubstr("row group 0"));
  EXPECT_THAT(r.out, HasSubstr("codec"));
}

TEST(ToolUsage, ErrorsAreOneLineAndNonZero) {
  struct Case {
    std::vector<std::string> args;
    int code;
    const char* message;
  } cases[] = {
      {{}, 2, "usage: parq"},
      {{"frobnicate"}, 2, "unknown command 'frobnicate'"},
      {{"meta"}, 2, "missing FILE"},
      {{"meta", "--bogus", "x"}, 2, "unknown option '--bogus'"},
      {{"summarize", "a", "b"}, 2, "unexpected argument 'b'"},
      {{"schema"}, 2, "missing FILE"},
      // The exit status follows the error's kind: 3 for I/O, 4 for what
      // this build cannot do, 1 for a corrupt file.
      {{"meta", "/nonexistent.parquet"}, 3, "/nonexistent.parquet: cannot open"},
      {{"schema", "/nonexistent.parquet"}, 3, "/nonexistent.parquet: cannot open"},
      {{"schema", (corpus_dir() / "data" / "uniform_encryption.parquet.encrypted").string()}, 4, "no keys were given"},
      {{"schema", (corpus_dir() / "bad_data" / "PARQUET-1481.parquet").string()}, 1, "PARQUET-1481.parquet"},
  };
  for (const auto& c : cases) {
    CommandResult r = run_tool(c.args);
    EXPECT_EQ(r.exit_code, c.code) << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message));
    if (!c.args.empty()) {
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
}

TEST(ToolUsage, HelpOnEverySubcommand) {
  for (const char* cmd : {"schema", "meta", "pages"}) {
    CommandResult r = run_tool({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr(std::string("usage: parq ") + cmd));
  }
  CommandResult r = run_tool({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("schema"));
  EXPECT_THAT(r.out, HasSubstr("meta"));
}

}  // namespace
}  // namespace parq::testing
