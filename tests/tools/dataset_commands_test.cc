// The tool on datasets: convert --partition-by writes Hive folders, cat,
// count and schema read folders, globs and several files as one table,
// summarize writes _metadata that cat --explain plans from, rewrite takes
// a dataset; --row-groups on a dataset is a usage error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(DatasetCommands, PartitionedConvertThenCatCountSchemaSummarize) {
  TempDir dir("dscmd");
  const fs::path jsonl = dir.path() / "rows.jsonl";
  {
    std::ofstream out(jsonl);
    for (int i = 0; i < 120; ++i)
      out << "{\"id\": " << i << ", \"region\": \""
          << (i % 3 == 0   ? "EU"
              : i % 3 == 1 ? "US"
                           : "APAC")
          << "\", \"year\": " << 2020 + i % 2 << "}\n";
  }
  const std::string ds = (dir.path() / "ds").string();
  auto convert = run_tool({"convert", jsonl.string(), ds, "--partition-by", "year,region", "--max-rows-per-file", "15",
                           "--row-group-rows", "5"});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_TRUE(fs::is_directory(dir.path() / "ds" / "year=2021" / "region=US"));

  auto count = run_tool({"count", ds});
  EXPECT_EQ(count.out, "120\n") << count.err;
  auto some = run_tool({"count", ds, "--where", "region = 'EU' AND id >= 60"});
  EXPECT_EQ(some.out, "20\n") << some.err;
  auto glob = run_tool({"count", ds + "/year=2020/**/*.parquet"});
  EXPECT_EQ(glob.out, "60\n") << glob.err;

  auto schema = run_tool({"schema", ds});
  EXPECT_EQ(schema.exit_code, 0) << schema.err;
  EXPECT_THAT(schema.out, HasSubstr("optional int64 year (INTEGER(64,true));"));
  EXPECT_THAT(schema.out, HasSubstr("optional binary region (STRING);"));
  auto declared = run_tool({"schema", ds, "--partition-type", "year=string", "--partition-type", "region=binary"});
  EXPECT_EQ(declared.exit_code, 0) << declared.err;
  EXPECT_THAT(declared.out, HasSubstr("optional binary year (STRING);"));
  EXPECT_THAT(declared.out, HasSubstr("optional binary region;"));
  auto as_text = run_tool({"cat", ds, "--where", "year = '2021' AND id = 7", "--partition-type", "year=string"});
  EXPECT_THAT(as_text.out, HasSubstr("\"year\":\"2021\""));
  auto not_a_date = run_tool({"count", ds, "--partition-type", "region=date"});
  EXPECT_NE(not_a_date.exit_code, 0);
  EXPECT_THAT(not_a_date.err, HasSubstr("/region="));
  EXPECT_THAT(not_a_date.err, HasSubstr("not of the column's type"));
  auto no_type = run_tool({"count", ds, "--partition-type", "year=int33"});
  EXPECT_NE(no_type.exit_code, 0);
  EXPECT_THAT(no_type.err, HasSubstr("'int33' is not a column type"));
  auto no_key = run_tool({"count", ds, "--partition-type", "int32"});
  EXPECT_NE(no_key.exit_code, 0);
  EXPECT_THAT(no_key.err, HasSubstr("--partition-type takes KEY=TYPE"));

  auto cat = run_tool({"cat", ds, "--where", "id = 7", "--file-name-column", "file"});
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_THAT(cat.out, HasSubstr("{\"id\":7,\"year\":2021,\"region\":\"US\",\"file\":\""));

  auto summarize = run_tool({"summarize", ds});
  EXPECT_EQ(summarize.exit_code, 0) << summarize.err;
  EXPECT_TRUE(fs::exists(dir.path() / "ds" / "_metadata"));
  auto explain = run_tool({"cat", ds + "/_metadata", "--where", "id BETWEEN 30 AND 34", "--explain"});
  EXPECT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_THAT(explain.out, HasSubstr("5 returned"));
  // Each file holds 15 rows of one year and region, in row groups of 5:
  // the ids 30-34 lie in at most 5 files, the rest are never opened.
  EXPECT_THAT(explain.out, ::testing::ContainsRegex("files: [0-9]+ considered, 0 pruned by partition values, "
                                                    "[0-9]+ by statistics, [1-5] opened"));
  auto from_summary = run_tool({"count", ds + "/_metadata", "--where", "region = 'APAC'"});
  EXPECT_EQ(from_summary.out, "40\n") << from_summary.err;

  const std::string again = (dir.path() / "again").string();
  auto rewrite = run_tool({"rewrite", ds, again, "--partition-by", "region"});
  EXPECT_EQ(rewrite.exit_code, 0) << rewrite.err;
  EXPECT_EQ(run_tool({"count", again}).out, "120\n");
  EXPECT_EQ(run_tool({"count", again, "--where", "year = 2020 AND region = 'US'"}).out, "20\n");

  auto bad = run_tool({"cat", ds, "--row-groups", "0"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--row-groups"));
  auto missing = run_tool({"count", (dir.path() / "nothing-*.parquet").string()});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.err, HasSubstr("no file matches"));
}

TEST(DatasetCommands, InspectionCommandsShowEachFileOfFoldersAndGlobs) {
  TempDir dir("dscmd");
  const fs::path jsonl = dir.path() / "rows.jsonl";
  {
    std::ofstream out(jsonl);
    for (int i = 0; i < 40; ++i) out << "{\"id\": " << i << ", \"k\": \"" << (i % 2 ? "odd" : "even") << "\"}\n";
  }
  const std::string ds = (dir.path() / "ds").string();
  ASSERT_EQ(run_tool({"convert", jsonl.string(), ds, "--partition-by", "k"}).exit_code, 0);
  const std::string even = ds + "/k=even", odd = ds + "/k=odd";

  auto meta = run_tool({"meta", ds});
  EXPECT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_THAT(meta.out, HasSubstr("file: " + even + "/"));
  EXPECT_THAT(meta.out, HasSubstr("file: " + odd + "/"));
  auto json = run_tool({"meta", ds, "--json"});
  EXPECT_EQ(json.out.front(), '[') << json.out;
  EXPECT_EQ(std::count(json.out.begin(), json.out.end(), '\n') > 2, true);
  auto one = run_tool({"meta", ds + "/k=even/*.parquet", "--json"});
  EXPECT_EQ(one.out.front(), '{') << one.out;  // one file: its object alone

  for (const std::vector<std::string>& command : {std::vector<std::string>{"pages", ds},
                                                  {"index", ds, "--column", "id"},
                                                  {"dictionary", ds, "--column", "id"},
                                                  {"bloom", ds + "/**/*.parquet", "--column", "id", "--value", "3"}}) {
    auto r = run_tool(command);
    EXPECT_EQ(r.exit_code, 0) << command[0] << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("file: " + even + "/")) << command[0];
    EXPECT_THAT(r.out, HasSubstr("file: " + odd + "/")) << command[0];
  }
  auto pages_json = run_tool({"pages", ds, "--json"});
  EXPECT_THAT(pages_json.out, HasSubstr("\"file\":")) << pages_json.out.substr(0, 200);

  auto no_column = run_tool({"index", ds, "--column", "nope"});
  EXPECT_EQ(no_column.exit_code, 2);
  EXPECT_THAT(no_column.err, HasSubstr("has no column 'nope'"));
  auto empty = run_tool({"meta", (dir.path() / "ds" / "k=*" / "*.csv").string()});
  EXPECT_NE(empty.exit_code, 0);
  EXPECT_THAT(empty.err, HasSubstr(".csv"));
}

// Files that shred one VARIANT column differently (two layouts, and none)
// are one dataset: the column is read whole from each, in the file order
// of its values, with the documents every file holds.
TEST(DatasetCommands, VariantColumnsShreddedDifferentlyReadWhole) {
  TempDir dir("dscmd-variant");
  const std::vector<std::string> docs[3] = {
      {R"({"a":1,"b":"x"})", R"({"a":2,"b":"y"})"},
      {R"({"a":"text","c":[1,2]})", R"({"c":[3]})"},
      {R"([1,2])", R"({"a":7})"},
  };
  fs::create_directory(dir.path() / "ds");
  for (int f = 0; f < 3; ++f) {
    const fs::path jsonl = dir.path() / ("in" + std::to_string(f) + ".jsonl");
    {
      std::ofstream out(jsonl);
      for (size_t i = 0; i < docs[f].size(); ++i) out << "{\"id\":" << f * 10 + i << ",\"v\":" << docs[f][i] << "}\n";
    }
    std::vector<std::string> args = {"convert", jsonl.string(),
                                     (dir.path() / "ds" / ("part" + std::to_string(f) + ".parquet")).string(),
                                     "--variant", "v"};
    if (f < 2) args.push_back("--shred-variants");  // objects of a and b, then of a and c: two layouts
    auto convert = run_tool(args);
    ASSERT_EQ(convert.exit_code, 0) << convert.err;
  }
  const std::string ds = (dir.path() / "ds").string();
  auto schema = run_tool({"schema", ds});
  ASSERT_EQ(schema.exit_code, 0) << schema.err;
  EXPECT_THAT(schema.out, HasSubstr("required binary value;"));
  EXPECT_THAT(schema.out, ::testing::Not(HasSubstr("typed_value")));
  auto cat = run_tool({"cat", ds, "--variant=json"});
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  std::string expected;
  for (int f = 0; f < 3; ++f)
    for (size_t i = 0; i < docs[f].size(); ++i)
      expected += "{\"id\":" + std::to_string(f * 10 + i) + ",\"v\":" + docs[f][i] + "}\n";
  EXPECT_EQ(cat.out, expected);
  auto count = run_tool({"count", ds, "--where", "id >= 10"});
  EXPECT_EQ(count.out, "4\n") << count.err;
  // Filters into the whole values: a = 2 in the first file, 7 in the last.
  auto into = run_tool({"cat", ds, "--where", "v.a >= 2", "--columns", "id"});
  EXPECT_EQ(into.out, "{\"id\":1}\n{\"id\":21}\n") << into.err;
}

}  // namespace
}  // namespace parq::testing
