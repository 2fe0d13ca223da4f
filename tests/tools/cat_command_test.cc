// `parq cat` against the golden dumps of the shared corpus (byte for byte),
// the files without a dump by what their documentation expects, the corrupt
// files, and the reading options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "json_batch.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

using ::testing::HasSubstr;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> golden_paths() {
  std::vector<std::string> paths;
  std::ifstream index(golden_dir() / "INDEX.tsv");
  std::string line;
  std::getline(index, line);
  while (std::getline(index, line)) {
    std::string path = line.substr(0, line.find('\t'));
    if (std::filesystem::exists(golden_dir() / (path + ".jsonl"))) paths.push_back(path);
  }
  return paths;
}

bool corrupt_checksum(const std::string& path) { return path.find("corrupt-checksum") != std::string::npos; }

TEST(CatCommand, EveryGoldenFileMatchesExactly) {
  auto paths = golden_paths();
  ASSERT_EQ(paths.size(), 156u);
  size_t matched = 0;
  for (const std::string& path : paths) {
    std::vector<std::string> args = {"cat", (corpus_dir() / path).string()};
    if (corrupt_checksum(path)) args.insert(args.begin() + 1, "--no-verify-crc");
    CommandResult r = run_tool(args);
    ASSERT_EQ(r.signal, 0) << path << " crashed";
    EXPECT_EQ(r.exit_code, 0) << path << ": " << r.err;
    std::string golden = slurp(golden_dir() / (path + ".jsonl"));
    if (r.out == golden) {
      ++matched;
    } else {
      ADD_FAILURE() << path << " differs from its golden dump";
    }
  }
  EXPECT_EQ(matched, paths.size());
}

TEST(CatCommand, CorruptChecksumsFailByDefault) {
  for (const char* name : {"datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"}) {
    CommandResult r = run_tool({"cat", (corpus_dir() / "data" / name).string()});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_THAT(r.err, HasSubstr("page CRC mismatch")) << name;
    EXPECT_THAT(r.err, HasSubstr("row group 0, page")) << name;
  }
}

TEST(CatCommand, Int96FromSparkUsesExactArithmetic) {
  // The corpus README's microseconds for rows 1-4 (written out as UTC
  // datetimes), a null, and for row 6 FORMAT.md's exact Julian-day
  // arithmetic on the raw value (NO_GOLDEN.md works it out).
  CommandResult r = run_tool({"cat", (corpus_dir() / "data" / "int96_from_spark.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"a\":\"2024-01-01T20:34:56.123456000\"}\n"
            "{\"a\":\"2024-01-01T01:00:00.000000000\"}\n"
            "{\"a\":\"9999-12-31T03:00:00.000000000\"}\n"
            "{\"a\":\"2024-12-30T23:00:00.000000000\"}\n"
            "{\"a\":null}\n"
            "{\"a\":\"-294554-12-13T14:58:10.448384000\"}\n");
}

TEST(CatCommand, MalformedDictionaryFailsCleanly) {
  // nation.dict-malformed: only DuckDB reads it; its README accepts a clean failure.
  CommandResult r = run_tool({"cat", (corpus_dir() / "data" / "nation.dict-malformed.parquet").string()});
  EXPECT_EQ(r.signal, 0);
  if (r.exit_code != 0) {
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  } else {
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 25);
  }
}

TEST(CatCommand, CorruptFilesReportErrors) {
  size_t files = 0;
  for (const auto& path : parquet_files(corpus_dir() / "bad_data")) {
    ++files;
    CommandResult r = run_tool({"cat", path.string()});
    EXPECT_EQ(r.signal, 0) << path << " crashed: " << r.err;
    std::string name = path.filename().string();
    if (name == "ARROW-GH-43605.parquet") {
      // Its README only asks that a reader not crash.
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
      continue;
    }
    EXPECT_EQ(r.exit_code, 1) << name << " was read without an error";
    EXPECT_THAT(r.err, HasSubstr(name));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(files, 8u);
}

TEST(CatCommand, ColumnsLimitAndRowGroups) {
  std::string file = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  CommandResult r = run_tool({"cat", file, "--columns", "id,bool_col", "--limit", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":4,\"bool_col\":true}\n{\"id\":5,\"bool_col\":false}\n");

  std::string nested = (corpus_dir() / "data" / "nullable.impala.parquet").string();
  r = run_tool({"cat", nested, "--columns", "nested_struct.A,id", "--limit", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":1,\"nested_struct\":{\"A\":1}}\n");

  r = run_tool({"cat", file, "--columns", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no column 'nope'"));
  r = run_tool({"cat", file, "--row-groups", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("row group 3 does not exist"));
  r = run_tool({"cat", file, "--limit", "x"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CatCommand, CsvAndTableFormats) {
  std::string file = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
  CommandResult r = run_tool({"cat", file, "--format=csv", "--columns", "id,double_col", "--limit", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,double_col\n4,0\n5,10.1\n");
  r = run_tool({"head", file, "--columns", "id", "--limit", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("id"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);  // header, rule, 3 rows
}

}  // namespace
}  // namespace parq::testing

namespace parq::testing {
namespace {

// VARIANT columns: JSON text with --variant=json (shredded values rebuilt;
// cases.json describes these rows), the binary parts by default in JSON
// Lines (the golden form), JSON text by default in tables; invalid
// shredding an error naming the file, row group and path.
TEST(CatCommand, VariantsPrintAsTheirValuesWhenAsked) {
  const auto dir = corpus_dir() / "shredded_variant";
  CommandResult r = run_tool({"cat", "--variant=json", (dir / "case-083.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":0,\"var\":null}\n"
            "{\"id\":1,\"var\":{\"c\":{\"b\":\"iceberg\"}}}\n"
            "{\"id\":2,\"var\":{\"c\":8,\"d\":-0.0}}\n"
            "{\"id\":3,\"var\":{\"c\":{\"a\":34,\"b\":\"\"},\"d\":0}}\n");
  r = run_tool({"cat", "--variant=json", (dir / "case-136.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":1,\"var\":[[\"comedy\",\"drama\"],[]]}\n");

  r = run_tool({"cat", (dir / "case-136.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"typed_value\":["));
  r = run_tool({"head", (dir / "case-083.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" 2 | {\"c\":8,\"d\":-0.0}"));
  r = run_tool({"cat", "--format=csv", "--variant=json", (dir / "case-031.parquet").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,var\n1,iceberg\n");  // a string variant's text, as string columns print

  r = run_tool({"cat", "--variant=text", (dir / "case-083.parquet").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--variant takes json or parts"));
  r = run_tool({"cat", "--variant=json", (dir / "case-040.parquet").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("case-040.parquet: row group 0: variant var.typed_value.element, row 0 of the batch: "
                               "invalid shredding: conflicting value and typed_value"));
}

// A row group claiming more rows than a chunk holds: cat prints the whole
// rows, warns on stderr, and --explain names the column.
TEST(CatCommand, ShortChunksAreReadAsFarAsTheyGoWithAWarning) {
  const Schema schema = parse_schema_text("message m { required int64 id; optional binary s (STRING); }");
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, {});
  writer->write(batch_from_json(schema, {R"({"id":1,"s":"a"})", R"({"id":2,"s":"b"})", R"({"id":3,"s":"c"})"}));
  writer->close();
  std::string file(sink->take().view());
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  const size_t start = file.size() - 8 - length;
  format::FileMetaData meta;
  format::decode_thrift(reinterpret_cast<const uint8_t*>(file.data()) + start, length, meta);
  meta.row_groups[0].columns[1].meta_data->num_values = 2;
  std::string footer;
  format::encode_thrift(meta, footer);
  file = file.substr(0, start) + footer;
  const auto n = static_cast<uint32_t>(footer.size());
  file.append(reinterpret_cast<const char*>(&n), 4);
  file += "PAR1";
  TempDir dir("cat-short");
  const std::string path = dir / "short.parquet";
  std::ofstream(path, std::ios::binary) << file;

  auto cat = run_tool({"cat", path});
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"b\"}\n");
  EXPECT_THAT(cat.err, ::testing::HasSubstr("1 rows claimed by row groups are missing from short column chunks"));
  auto explain = run_tool({"cat", path, "--explain"});
  EXPECT_THAT(explain.out, ::testing::HasSubstr("row group 0: column s holds 2 values where the row group has 3 rows"));
}

}  // namespace
}  // namespace parq::testing
