// Datasets: files found by folder and glob, Hive partitions typed and
// pruned, schemas made one across files, summary files planning a read
// from one footer, and parallel reads giving the serial order.
#include "parq/dataset/dataset.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "dataset/discovery.h"
#include "json_batch.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "test_paths.h"

namespace parq {
namespace {
namespace fs = std::filesystem;

using testing::TempDir;

// Writes `rows` (JSON objects) with `schema` (message notation) to `path`,
// `group_rows` rows per row group.
void write_rows(const std::string& path, const std::string& schema_text, const std::vector<std::string>& rows,
                int64_t group_rows = 1000) {
  fs::create_directories(fs::path(path).parent_path());
  Schema schema = parse_schema_text(schema_text);
  WriteOptions options;
  options.row_group_rows = group_rows;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(testing::batch_from_json(schema, rows));
  writer->close();
}

std::string read_all(std::shared_ptr<const Dataset> ds, DatasetReadOptions options = {}) {
  auto source = read_batches(std::move(ds), options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

TEST(DatasetDiscovery, GlobsMatchComponentsAndDoubleStarAnyDepth) {
  using dataset::glob_match;
  EXPECT_TRUE(glob_match("*.parquet", "a.parquet"));
  EXPECT_FALSE(glob_match("*.parquet", "d/a.parquet"));
  EXPECT_TRUE(glob_match("**/*.parquet", "a.parquet"));
  EXPECT_TRUE(glob_match("**/*.parquet", "x=1/y=2/a.parquet"));
  EXPECT_TRUE(glob_match("x=*/part-?.parquet", "x=10/part-3.parquet"));
  EXPECT_FALSE(glob_match("x=*/part-?.parquet", "x=10/part-33.parquet"));
  EXPECT_TRUE(glob_match("part-[0-4].parquet", "part-3.parquet"));
  EXPECT_FALSE(glob_match("part-[!0-4].parquet", "part-3.parquet"));
  EXPECT_TRUE(glob_match("a/**/b/*.p", "a/b/c.p"));
  EXPECT_TRUE(glob_match("a/**/b/*.p", "a/x/y/b/c.p"));
  EXPECT_FALSE(glob_match("a/**/b/*.p", "a/x/y/c.p"));
  // Many stars against a long name stay fast (no exponential backtracking).
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*b", std::string(200, 'a')));
}

TEST(DatasetDiscovery, FoldersLeaveOutHiddenAndUnderscoreFiles) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int32 id; }";
  write_rows(dir / "b/part-1.parquet", schema, {R"({"id": 2})"});
  write_rows(dir / "a.parquet", schema, {R"({"id": 1})"});
  std::ofstream(dir / "_SUCCESS") << "";
  std::ofstream(dir / ".a.parquet.crc") << "x";
  fs::create_directories(dir / "_temporary");
  std::ofstream(dir / "_temporary/part-9.parquet") << "not parquet";
  auto found = dataset::find_files(dir.str());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].relative, "a.parquet");
  EXPECT_EQ(found[1].relative, "b/part-1.parquet");
  EXPECT_EQ(read_all(Dataset::open({dir.str()})), "{\"id\":1}\n{\"id\":2}\n");
  // Links are files of their own (three links to one file: three files).
  fs::create_directories(dir / "links");
  for (int i = 0; i < 3; ++i) fs::create_symlink(dir / "a.parquet", dir / ("links/l" + std::to_string(i) + ".parquet"));
  EXPECT_EQ(dataset::find_files(dir / "links").size(), 3u);
  EXPECT_EQ(Dataset::open({dir / "links"})->num_rows(), 3);
  fs::remove_all(dir / "links");
  auto globbed = dataset::find_files(dir / "**/*.parquet");
  EXPECT_EQ(globbed.size(), 3u);  // a glob says which files it wants, _temporary's too
  EXPECT_THROW(dataset::find_files(dir / "nothing-*.parquet"), Error);
  EXPECT_THROW(dataset::find_files(dir / "missing"), Error);
}

TEST(Dataset, HiveFoldersBecomeTypedPartitionColumns) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int32 id; optional binary name (STRING); }";
  write_rows(dir / "year=2024/region=EU/part-0.parquet", schema, {R"({"id": 1, "name": "a"})"});
  write_rows(dir / "year=2024/region=US%2FEast/part-0.parquet", schema, {R"({"id": 2, "name": "b"})"});
  write_rows(dir / "year=2025/region=__HIVE_DEFAULT_PARTITION__/part-0.parquet", schema,
             {R"({"id": 3, "name": null})"});
  auto ds = Dataset::open({dir.str()});
  ASSERT_EQ(ds->partition_columns(), (std::vector<std::string>{"year", "region"}));
  const Schema& s = ds->schema();
  ASSERT_EQ(s.num_columns(), 4u);
  EXPECT_EQ(s.column(2).type.physical, format::Type::INT64);
  EXPECT_EQ(s.column(3).type.physical, format::Type::BYTE_ARRAY);
  EXPECT_EQ(read_all(ds),
            "{\"id\":1,\"name\":\"a\",\"year\":2024,\"region\":\"EU\"}\n"
            "{\"id\":2,\"name\":\"b\",\"year\":2024,\"region\":\"US/East\"}\n"
            "{\"id\":3,\"name\":null,\"year\":2025,\"region\":null}\n");

  DatasetOptions declared;
  ValueType text;
  text.physical = format::Type::BYTE_ARRAY;
  text.logical.STRING = format::StringType{};
  declared.partition_types = {{"year", text}};
  EXPECT_EQ(Dataset::open({dir.str()}, declared)->schema().column(2).type.physical, format::Type::BYTE_ARRAY);
  DatasetOptions none;
  none.hive_partitioning = false;
  EXPECT_EQ(Dataset::open({dir.str()}, none)->schema().num_columns(), 2u);
}

TEST(Dataset, PartitionValuesPruneFilesBeforeTheyAreOpened) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int32 id; }";
  for (int year = 2020; year < 2025; ++year)
    for (int month : {1, 2})
      write_rows(dir / ("year=" + std::to_string(year) + "/month=" + std::to_string(month) + "/f.parquet"), schema,
                 {"{\"id\": " + std::to_string(year * 10 + month) + "}"});
  auto ds = Dataset::open({dir.str()});
  struct Case {
    const char* where;
    int files;
    const char* rows;
  } cases[] = {
      {"year = 2022", 2, "{\"id\":20221,\"year\":2022,\"month\":1}\n{\"id\":20222,\"year\":2022,\"month\":2}\n"},
      {"year >= 2024 AND month = 2", 1, "{\"id\":20242,\"year\":2024,\"month\":2}\n"},
      {"NOT (year < 2024) AND NOT month IN (1)", 1, "{\"id\":20242,\"year\":2024,\"month\":2}\n"},
      {"year = 2021 OR id = 20232", 10,
       "{\"id\":20211,\"year\":2021,\"month\":1}\n"
       "{\"id\":20212,\"year\":2021,\"month\":2}\n"
       "{\"id\":20232,\"year\":2023,\"month\":2}\n"},
      {"year IS NULL", 0, ""},
      {"year = 2022 AND id = 20222", 2, "{\"id\":20222,\"year\":2022,\"month\":2}\n"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(files_to_read(*ds, filter::parse_filter(c.where)).size(), static_cast<size_t>(c.files)) << c.where;
    for (int threads : {1, 2}) {
      ReadStats stats;
      DatasetReadOptions options;
      options.read.filter = filter::parse_filter(c.where);
      options.read.stats = &stats;
      options.read.threads = threads;
      EXPECT_EQ(read_all(ds, options), c.rows) << c.where;
      EXPECT_EQ(stats.files, 10);
      EXPECT_EQ(stats.files_pruned_by_partitions, 10 - c.files) << c.where;
      EXPECT_EQ(stats.files_opened + stats.files_pruned_by_statistics, c.files) << c.where;
    }
  }
}

TEST(Dataset, AFilterGivenWhenOpeningLeavesFilesUnopened) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int32 id; }";
  for (int year = 2020; year < 2030; ++year)
    write_rows(dir / ("year=" + std::to_string(year) + "/f.parquet"), schema,
               {"{\"id\": " + std::to_string(year) + "}"});
  std::atomic<int> opens{0};
  DatasetOptions options;
  options.reader.opener = [&](const std::string& location) {
    ++opens;
    return io::open_file(location);
  };
  options.filter = filter::parse_filter("year >= 2028 OR (id = 5 AND year = 2021)");
  auto ds = Dataset::open({dir.str()}, options);
  EXPECT_EQ(opens.load(), 3);  // 2021, 2028, 2029: footers only
  EXPECT_EQ(ds->files().size(), 3u);
  EXPECT_EQ(ds->files_pruned_at_open(), 7);
  ReadStats stats;
  DatasetReadOptions read;
  read.read.filter = options.filter;
  read.read.stats = &stats;
  EXPECT_EQ(read_all(ds, read), "{\"id\":2028,\"year\":2028}\n{\"id\":2029,\"year\":2029}\n");
  EXPECT_EQ(stats.files, 10);
  EXPECT_EQ(stats.files_pruned_by_partitions, 7);
  EXPECT_EQ(stats.files_pruned_by_statistics, 1);  // 2021: id = 5 is outside [2021, 2021]
  EXPECT_EQ(opens.load(), 5);

  // Nothing left: the schema still comes from a file, and nothing is read.
  options.filter = filter::parse_filter("year = 1999");
  auto none = Dataset::open({dir.str()}, options);
  EXPECT_TRUE(none->files().empty());
  EXPECT_EQ(none->schema().num_columns(), 2u);
  EXPECT_EQ(read_all(none), "");
  // A literal that does not fit a partition column's type names it.
  options.filter = filter::parse_filter("year = 'x'");
  EXPECT_THROW(Dataset::open({dir.str()}, options), Error);
}

TEST(Dataset, SchemasUniteByNameWithNullsWideningAndErrors) {
  TempDir dir("dataset");
  write_rows(dir / "a.parquet", "message m { required int32 id; optional binary name (STRING); required float f; }",
             {R"({"id": 1, "name": "x", "f": 1.5})"});
  write_rows(dir / "b.parquet", "message m { optional double f; required int64 id; optional int32 extra; }",
             {R"({"f": 2.25, "id": 5000000000, "extra": 7})"});
  auto ds = Dataset::open({dir.str()});
  const Schema& s = ds->schema();
  ASSERT_EQ(s.num_columns(), 4u);
  EXPECT_EQ(s.column(0).dotted_path(), "id");
  EXPECT_EQ(s.column(0).type.physical, format::Type::INT64);
  EXPECT_EQ(s.column(2).type.physical, format::Type::DOUBLE);
  EXPECT_EQ(s.column(3).dotted_path(), "extra");
  EXPECT_EQ(s.column(3).max_definition_level, 1);
  EXPECT_EQ(read_all(ds),
            "{\"id\":1,\"name\":\"x\",\"f\":1.5,\"extra\":null}\n"
            "{\"id\":5000000000,\"name\":null,\"f\":2.25,\"extra\":7}\n");
  // A filter on a column one file lacks: nulls there.
  DatasetReadOptions options;
  options.read.filter = filter::parse_filter("extra IS NULL");
  EXPECT_EQ(read_all(ds, options), "{\"id\":1,\"name\":\"x\",\"f\":1.5,\"extra\":null}\n");
  options.read.filter = filter::parse_filter("name = 'x' OR extra = 7");
  options.read.columns = {"id"};
  EXPECT_EQ(read_all(ds, options), "{\"id\":1}\n{\"id\":5000000000}\n");
  options.read.filter = filter::parse_filter("NOT (extra = 7)");
  EXPECT_EQ(read_all(ds, options), "");  // null in a, false in b

  write_rows(dir / "c.parquet", "message m { optional binary id (STRING); }", {R"({"id": "z"})"});
  try {
    Dataset::open({dir.str()});
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("c.parquet"), std::string::npos) << what;
    EXPECT_NE(what.find("a.parquet"), std::string::npos) << what;
    EXPECT_NE(what.find("cannot be one column"), std::string::npos) << what;
  }
}

// Writes JSON rows whose FLOAT or DOUBLE values 777, 888 and 999 stand for
// NaN, Infinity and -Infinity (which JSON lacks).
void write_special_rows(const std::string& path, const std::string& schema_text, const std::vector<std::string>& rows) {
  Schema schema = parse_schema_text(schema_text);
  RecordBatch batch = testing::batch_from_json(schema, rows);
  for (Array& a : batch.columns) {
    auto patch = [&](auto* v) {
      for (int64_t i = 0; i < a.length; ++i) {
        if (v[i] == 777) v[i] = NAN;
        if (v[i] == 888) v[i] = INFINITY;
        if (v[i] == 999) v[i] = -INFINITY;
      }
    };
    if (a.type.physical == format::Type::FLOAT) patch(a.values.data_as<float>());
    if (a.type.physical == format::Type::DOUBLE) patch(a.values.data_as<double>());
  }
  auto writer = FileWriter::open(path, schema, WriteOptions{});
  writer->write(batch);
  writer->close();
}

TEST(Dataset, FiltersOnWidenedColumnsGiveTheRowsOfTheWidenedValues) {
  // a.parquet holds INT32 and FLOAT, b.parquet INT64 and DOUBLE: literals
  // the narrow file cannot hold (3e9, 0.1, 1e39) must select as they
  // select the widened values. The reference is the dataset's rows written
  // as one file of the wide types, read with the same filter.
  TempDir dir("dataset");
  write_special_rows(
      dir / "a.parquet", "message m { optional int32 x; optional float f; }",
      {R"({"x": null, "f": null})", R"({"x": -2147483648, "f": 777})", R"({"x": -5, "f": 888})",
       R"({"x": 0, "f": 999})", R"({"x": 1, "f": 0.1})", R"({"x": 7, "f": 1.5})", R"({"x": 2147483647, "f": -3.4e38})",
       R"({"x": 3, "f": 3.4e38})", R"({"x": 4, "f": 0})", R"({"x": 5, "f": 0.099999994})"});
  write_special_rows(dir / "b.parquet", "message m { optional int64 x; optional double f; }",
                     {R"({"x": 5000000000, "f": 0.1})", R"({"x": -5000000000, "f": 1e39})", R"({"x": 7, "f": 777})",
                      R"({"x": null, "f": null})", R"({"x": 2, "f": 0.10000000149011612})"});
  auto ds = Dataset::open({dir.str()});
  ASSERT_EQ(ds->schema().column(0).type.physical, format::Type::INT64);
  ASSERT_EQ(ds->schema().column(1).type.physical, format::Type::DOUBLE);
  const fs::path reference = dir.path() / "reference" / "wide.parquet";
  fs::create_directories(reference.parent_path());
  {
    auto source = read_batches(ds, DatasetReadOptions{});
    auto writer = FileWriter::open(reference.string(), ds->schema(), WriteOptions{});
    RecordBatch batch;
    while (source->next(batch)) writer->write(batch);
    writer->close();
  }
  auto wide = FileReader::open(reference.string());
  ASSERT_EQ(wide->schema().column(0).type.physical, format::Type::INT64);
  const char* filters[] = {
      "x = 5000000000",
      "x != 5000000000",
      "x < 3000000000",
      "x <= 3000000000",
      "x > 3000000000",
      "x >= -3000000000",
      "x < -3000000000",
      "x IN (1, 5000000000)",
      "x IN (6000000000)",
      "NOT x IN (6000000000)",
      "NOT (x = 5000000000)",
      "NOT (x > 3000000000)",
      "x = 2147483647",
      "x > 2147483646",
      "f = 0.1",
      "f != 0.1",
      "f < 0.1",
      "f <= 0.1",
      "f > 0.1",
      "f >= 0.1",
      "NOT (f < 0.1)",
      "f IN (0.1, 1.5)",
      "NOT f IN (0.1, 1.5)",
      "f > 1e39",
      "f < 1e39",
      "f >= -1e39",
      "f < -1e39",
      "f = 1e39",
      "f > 3.4e38",
      "f = 1.5",
      "f = NaN",
      "f > Infinity",
      "f < 0.099999994",
      "f = 0.10000000149011612",
      "x = 7 OR f > 0.1",
      "NOT (x < 3000000000 AND f < 0.1)",
  };
  for (const char* where : filters) {
    SCOPED_TRACE(where);
    DatasetReadOptions options;
    options.read.filter = filter::parse_filter(where);
    ReadOptions one;
    one.filter = options.read.filter;
    std::string expected;
    auto source = read_batches(*wide, one);
    RecordBatch batch;
    while (source->next(batch)) text::RowJsonWriter(batch).append_rows(expected, 0, batch.num_rows);
    EXPECT_EQ(read_all(ds, options), expected);
  }
}

TEST(Dataset, LayoutsThatCannotBeOneDatasetAreErrorsNamingTheirFiles) {
  const std::string schema = "message m { required int32 id = 1; }";
  auto error_of = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument) << e.what();
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  };
  {
    TempDir dir("dataset");
    write_rows(dir / "year=1/a.parquet", schema, {R"({"id": 1})"});
    write_rows(dir / "month=2/b.parquet", schema, {R"({"id": 2})"});
    const std::string what = error_of([&] { Dataset::open({dir.str()}); });
    EXPECT_NE(what.find("partition folders differ"), std::string::npos) << what;
    EXPECT_NE(what.find("b.parquet"), std::string::npos) << what;
  }
  {
    TempDir dir("dataset");
    write_rows(dir / "k=1/k=2/a.parquet", schema, {R"({"id": 1})"});
    EXPECT_NE(error_of([&] { Dataset::open({dir.str()}); }).find("appears twice"), std::string::npos);
  }
  {
    TempDir dir("dataset");
    write_rows(dir / "k=x/a.parquet", schema, {R"({"id": 1})"});
    DatasetOptions declared;
    ValueType int64;
    int64.physical = format::Type::INT64;
    declared.partition_types = {{"k", int64}};
    const std::string what = error_of([&] { Dataset::open({dir.str()}, declared); });
    EXPECT_NE(what.find("the partition value 'x' is not of the column's type"), std::string::npos) << what;
  }
  {
    TempDir dir("dataset");
    write_rows(dir / "a.parquet", "message m { required int32 id; }", {R"({"id": 1})"});
    DatasetOptions by_id;
    by_id.schema_match = SchemaMatch::kByFieldId;
    EXPECT_NE(error_of([&] { Dataset::open({dir.str()}, by_id); }).find("no field id"), std::string::npos);
  }
  {
    TempDir dir("dataset");
    write_rows(dir / "a.parquet", schema, {R"({"id": 1})"});
    write_rows(dir / "b.parquet", "message m { required int64 id = 1; }", {R"({"id": 2})"});
    const std::string what = error_of([&] { write_summary_files(dir.str()); });
    EXPECT_NE(what.find("a summary has one schema"), std::string::npos) << what;
    EXPECT_FALSE(fs::exists(dir / "_metadata"));
  }
}

TEST(Dataset, FieldIdsMatchColumnsOfDifferentNames) {
  TempDir dir("dataset");
  write_rows(dir / "a.parquet", "message m { required int32 id = 1; optional binary name (STRING) = 2; }",
             {R"({"id": 1, "name": "x"})"});
  write_rows(dir / "b.parquet", "message m { optional binary full_name (STRING) = 2; required int32 key = 1; }",
             {R"({"full_name": "y", "key": 2})"});
  DatasetOptions options;
  options.schema_match = SchemaMatch::kByFieldId;
  auto ds = Dataset::open({dir.str()}, options);
  ASSERT_EQ(ds->schema().num_columns(), 2u);
  EXPECT_EQ(read_all(ds), "{\"id\":1,\"name\":\"x\"}\n{\"id\":2,\"name\":\"y\"}\n");
  DatasetReadOptions read;
  read.read.filter = filter::parse_filter("name = 'y'");
  read.read.columns = {"id"};
  EXPECT_EQ(read_all(ds, read), "{\"id\":2}\n");
}

TEST(Dataset, SummaryFilePlansTheReadAndOpensOnlyFilesWithRowsLeft) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int64 id; optional binary tag (STRING); }";
  for (int f = 0; f < 100; ++f) {
    std::vector<std::string> rows;
    for (int r = 0; r < 20; ++r)
      rows.push_back("{\"id\": " + std::to_string(f * 100 + r) + ", \"tag\": \"t" + std::to_string(r % 3) + "\"}");
    write_rows(dir / ("part=" + std::to_string(f % 4) + "/f" + std::to_string(f) + ".parquet"), schema, rows, 10);
  }
  EXPECT_EQ(write_summary_files(dir.str()), 100u);
  ASSERT_TRUE(fs::exists(dir / "_metadata"));
  ASSERT_TRUE(fs::exists(dir / "_common_metadata"));
  auto summary = Dataset::open({dir / "_metadata"});
  auto folder = Dataset::open({dir.str()});
  EXPECT_EQ(summary->files().size(), 100u);
  EXPECT_EQ(summary->num_rows(), 2000);
  EXPECT_EQ(summary->partition_columns(), (std::vector<std::string>{"part"}));
  EXPECT_EQ(read_all(summary), read_all(folder));

  ReadStats stats;
  DatasetReadOptions options;
  options.read.filter = filter::parse_filter("id = 4213 OR id BETWEEN 7005 AND 7012");
  options.read.stats = &stats;
  EXPECT_EQ(read_all(summary, options),
            "{\"id\":4213,\"tag\":\"t1\",\"part\":2}\n"
            "{\"id\":7005,\"tag\":\"t2\",\"part\":2}\n"
            "{\"id\":7006,\"tag\":\"t0\",\"part\":2}\n"
            "{\"id\":7007,\"tag\":\"t1\",\"part\":2}\n"
            "{\"id\":7008,\"tag\":\"t2\",\"part\":2}\n"
            "{\"id\":7009,\"tag\":\"t0\",\"part\":2}\n"
            "{\"id\":7010,\"tag\":\"t1\",\"part\":2}\n"
            "{\"id\":7011,\"tag\":\"t2\",\"part\":2}\n"
            "{\"id\":7012,\"tag\":\"t0\",\"part\":2}\n");
  EXPECT_EQ(stats.files, 100);
  EXPECT_EQ(stats.files_opened, 2);
  EXPECT_EQ(stats.files_pruned_by_statistics, 98);
  EXPECT_EQ(stats.row_groups_pruned_by_statistics, 200 - 3);

  // The summary as one file: its chunks read from the files they name.
  auto file = FileReader::open(dir / "_metadata");
  ReadOptions one;
  one.filter = filter::parse_filter("id = 4213");
  auto source = read_batches(*file, one);
  RecordBatch batch;
  std::string rows;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(rows, 0, batch.num_rows);
  EXPECT_EQ(rows, "{\"id\":4213,\"tag\":\"t1\"}\n");
  EXPECT_EQ(file->files_opened(), 1u);
}

TEST(Dataset, FilePathsThatLeaveTheFolderOrAreMissingAreErrors) {
  EXPECT_EQ(resolve_chunk_path("d/_metadata", "x=1/f.parquet"), "d/x=1/f.parquet");
  EXPECT_EQ(resolve_chunk_path("d/_metadata", "./a/../f.parquet"), "d/f.parquet");
  EXPECT_EQ(resolve_chunk_path("s3://b/d/_metadata", "f.parquet"), "s3://b/d/f.parquet");
  EXPECT_THROW(resolve_chunk_path("d/_metadata", "../f.parquet"), Error);
  EXPECT_THROW(resolve_chunk_path("d/_metadata", "a/../../f.parquet"), Error);
  EXPECT_THROW(resolve_chunk_path("d/_metadata", "/etc/passwd"), Error);
  EXPECT_THROW(resolve_chunk_path("d/_metadata", ""), Error);

  TempDir dir("dataset");
  write_rows(dir / "d/f.parquet", "message m { required int32 id; }", {R"({"id": 1})"});
  write_summary_files(dir / "d");
  fs::remove(dir / "d/f.parquet");
  auto file = FileReader::open(dir / "d/_metadata");
  try {
    auto source = read_batches(*file, {});
    RecordBatch batch;
    source->next(batch);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f.parquet"), std::string::npos) << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kIo) << e.what();
  }
}

TEST(Dataset, ThreadsOffsetLimitRowIndexAndFileNames) {
  TempDir dir("dataset");
  const std::string schema = "message m { required int32 id; optional binary s (STRING); }";
  std::vector<std::string> names;
  for (int f = 0; f < 7; ++f) {
    std::vector<std::string> rows;
    for (int r = 0; r < 300; ++r)
      rows.push_back("{\"id\": " + std::to_string(f * 1000 + r) + ", \"s\": \"v" + std::to_string(r % 7) + "\"}");
    write_rows(dir / ("f" + std::to_string(f) + ".parquet"), schema, rows, 128);
  }
  auto ds = Dataset::open({dir.str()});
  DatasetReadOptions base;
  base.read.batch_rows = 50;
  base.read.row_index_column = "row";
  base.file_name_column = "file";
  const std::string expected = read_all(ds, base);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'), 2100);
  EXPECT_NE(expected.find("{\"id\":3299,\"s\":\"v5\",\"row\":299,\"file\":\"" + (dir / "f3.parquet") + "\"}\n"),
            std::string::npos);
  for (int threads : {2, 3, 8}) {
    DatasetReadOptions o = base;
    o.read.threads = threads;
    EXPECT_EQ(read_all(ds, o), expected) << threads;
    o.read.filter = filter::parse_filter("s = 'v3'");
    DatasetReadOptions serial = o;
    serial.read.threads = 1;
    EXPECT_EQ(read_all(ds, o), read_all(ds, serial)) << threads;
  }
  // Offset and limit count over the whole dataset, across files.
  DatasetReadOptions window = base;
  window.read.filter = filter::parse_filter("s = 'v3'");
  window.read.offset = 80;
  window.read.limit = 5;
  window.read.threads = 2;
  const std::string got = read_all(ds, window);
  EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 5);
  // 43 matches per file (rows 3, 10, ..., 297): the 81st is file 1's 38th.
  EXPECT_EQ(got.substr(0, got.find('\n')),
            "{\"id\":1262,\"s\":\"v3\",\"row\":262,\"file\":\"" + (dir / "f1.parquet") + "\"}");
  DatasetReadOptions bad = base;
  bad.read.row_groups = {0};
  EXPECT_THROW(read_batches(ds, bad), Error);
  bad = base;
  bad.read.filter = filter::parse_filter("nope = 1");
  EXPECT_THROW(read_batches(ds, bad), Error);
}

}  // namespace
}  // namespace parq
