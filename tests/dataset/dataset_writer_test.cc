// The partitioned dataset writer: rows land in key=value folders without
// their partition columns, read back as the same rows; files end at their
// row and byte limits; the open-file bound closes the least recently
// written; an abandoned write leaves no file.
#include "parq/dataset/dataset_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "json_batch.h"
#include "parq/array/take.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "test_paths.h"

namespace parq {
namespace {
namespace fs = std::filesystem;

using testing::TempDir;

const char* kSchema =
    "message m { required int64 id; optional binary region (STRING); required int32 day (DATE); optional group tags "
    "(LIST) { repeated group list { optional binary element (STRING); } } }";

RecordBatch rows_batch(int64_t n) {
  const char* regions[] = {"\"EU\"", "\"US/East\"", "null", "\"a b%\""};
  std::vector<std::string> rows;
  for (int64_t i = 0; i < n; ++i)
    rows.push_back("{\"id\": " + std::to_string(i) + ", \"region\": " + regions[i % 4] + ", \"day\": \"2024-01-0" +
                   std::to_string(1 + i % 3) + "\", \"tags\": [\"t" + std::to_string(i % 5) + "\"" +
                   (i % 2 ? ", null" : "") + "]}");
  return testing::batch_from_json(kSchema, rows);
}

std::multiset<std::string> lines(const RecordBatch& b) {
  std::string text;
  text::RowJsonWriter(b).append_rows(text, 0, b.num_rows);
  std::multiset<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.insert(text.substr(start, nl - start));
  return out;
}

std::multiset<std::string> dataset_lines(const std::string& folder, DatasetReadOptions options = {}) {
  auto source = read_batches(Dataset::open({folder}), options);
  std::multiset<std::string> out;
  RecordBatch b;
  while (source->next(b))
    for (auto& l : lines(b)) out.insert(l);
  return out;
}

TEST(DatasetWriter, PartitionedRowsReadBackWithTheirFolderValues) {
  TempDir dir("dswrite");
  const Schema schema = parse_schema_text(kSchema);
  DatasetWriteOptions options;
  options.partition_by = {"region", "day"};
  options.file_prefix = "part";
  auto writer = DatasetWriter::open(dir.path().string(), schema, options);
  RecordBatch batch = rows_batch(1000);
  writer->write(batch);
  writer->write(rows_batch(10));
  writer->close();
  EXPECT_EQ(writer->num_rows(), 1010);
  EXPECT_EQ(writer->files().size(), 12u);  // 4 regions x 3 days
  EXPECT_TRUE(fs::exists(dir.path() / "region=US%2FEast" / "day=2024-01-02"));
  EXPECT_TRUE(fs::exists(dir.path() / "region=__HIVE_DEFAULT_PARTITION__" / "day=2024-01-01"));
  // The files hold id and tags only.
  auto one = Dataset::open({writer->files()[0]});
  EXPECT_EQ(one->schema().num_columns(), 2u);

  // Read back: region and day come from the folders (last, as STRING and
  // DATE), every row as written.
  auto ds = Dataset::open({dir.path().string()});
  ASSERT_EQ(ds->partition_columns(), (std::vector<std::string>{"region", "day"}));
  EXPECT_TRUE(ds->schema().column(ds->schema().num_columns() - 1).type.logical.DATE);
  DatasetReadOptions read;
  read.read.columns = {"id", "region", "day", "tags"};
  std::multiset<std::string> expected = lines(batch);
  for (auto& l : lines(rows_batch(10))) expected.insert(l);
  // The dataset's order is id, tags, region, day; compare through a
  // projection in the written order by rebuilding lines.
  std::multiset<std::string> got;
  {
    auto source = read_batches(ds, read);
    RecordBatch b;
    while (source->next(b)) {
      RecordBatch reordered;
      reordered.num_rows = b.num_rows;
      for (const char* name : {"id", "region", "day", "tags"})
        for (auto& a : b.columns)
          if (a.name == name) reordered.columns.push_back(a);
      for (auto& l : lines(reordered)) got.insert(l);
    }
  }
  EXPECT_EQ(got, expected);

  // A filter on a partition column reads only its folders' files.
  ReadStats stats;
  read.read.filter = filter::parse_filter("region = 'US/East' AND day > DATE '2024-01-01'");
  read.read.stats = &stats;
  auto filtered = dataset_lines(dir.path().string(), read);
  size_t matching = 0;  // region 1 mod 4, day 1 or 2 mod 3, of both batches
  for (int64_t n : {1000, 10})
    for (int64_t i = 0; i < n; ++i) matching += i % 4 == 1 && i % 3 != 0;
  EXPECT_EQ(filtered.size(), matching);
  for (const std::string& l : filtered) EXPECT_NE(l.find("\"region\":\"US/East\""), std::string::npos) << l;
  EXPECT_EQ(stats.files_pruned_by_partitions, 10);
}

TEST(DatasetWriter, PartitionValuesOfAnyBytesNameFoldersThatReadBack) {
  // Quotes, slashes, '=', '%', spaces and non-ASCII bytes are escaped in
  // the folder's name and read back as they were.
  TempDir dir("dswrite");
  const char* schema_text = "message m { required int32 id; optional binary k (STRING); }";
  const std::vector<std::string> rows = {R"({"id": 1, "k": "\"quoted\""})", R"({"id": 2, "k": "a/b=c%d e"})",
                                         R"({"id": 3, "k": "ü"})"};
  DatasetWriteOptions options;
  options.partition_by = {"k"};
  auto writer = DatasetWriter::open(dir.path().string(), parse_schema_text(schema_text), options);
  writer->write(testing::batch_from_json(schema_text, rows));
  writer->close();
  EXPECT_EQ(writer->files().size(), 3u);
  EXPECT_EQ(dataset_lines(dir.path().string()), lines(testing::batch_from_json(schema_text, rows)));
}

TEST(DatasetWriter, FilesEndAtTheirLimitsAndOpenFilesAreBounded) {
  TempDir dir("dswrite");
  const Schema schema = parse_schema_text(kSchema);
  DatasetWriteOptions options;
  options.max_rows_per_file = 300;
  auto writer = DatasetWriter::open(dir.path().string(), schema, options);
  writer->write(rows_batch(1000));
  writer->close();
  ASSERT_EQ(writer->files().size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(Dataset::open({writer->files()[i]})->num_rows(), i < 3 ? 300 : 100) << i;
  EXPECT_EQ(dataset_lines(dir.path().string()), lines(rows_batch(1000)));

  TempDir many("dswrite");
  DatasetWriteOptions bounded;
  bounded.partition_by = {"region"};
  bounded.max_open_files = 2;
  auto w2 = DatasetWriter::open(many.path().string(), schema, bounded);
  // Rows cycle through 4 regions batch by batch: with 2 files open, each
  // batch after the second closes the least recently written.
  for (int b = 0; b < 8; ++b) {
    RecordBatch small = rows_batch(4);
    std::vector<int64_t> one = {b % 4};
    w2->write(take(small, one));
  }
  w2->close();
  EXPECT_EQ(w2->files().size(), 8u);
  EXPECT_EQ(w2->num_rows(), 8);

  TempDir sized("dswrite");
  DatasetWriteOptions by_bytes;
  by_bytes.max_bytes_per_file = 4096;
  by_bytes.write.row_group_rows = 100;
  auto w3 = DatasetWriter::open(sized.path().string(), schema, by_bytes);
  for (int b = 0; b < 20; ++b) w3->write(rows_batch(100));
  w3->close();
  EXPECT_GT(w3->files().size(), 2u);
  EXPECT_LT(w3->files().size(), 20u);
  for (const std::string& f : w3->files()) EXPECT_LT(fs::file_size(f), 3u * 4096) << f;
}

TEST(DatasetWriter, AbandonedWritesLeaveNoFileAndBadPartitionsAreErrors) {
  TempDir dir("dswrite");
  const Schema schema = parse_schema_text(kSchema);
  {
    DatasetWriteOptions options;
    options.partition_by = {"region"};
    auto writer = DatasetWriter::open(dir.path().string(), schema, options);
    writer->write(rows_batch(100));
    // destroyed without close()
  }
  for (auto& e : fs::recursive_directory_iterator(dir.path())) EXPECT_FALSE(e.is_regular_file()) << e.path();
  auto bad = [&](std::vector<std::string> by) {
    DatasetWriteOptions options;
    options.partition_by = std::move(by);
    EXPECT_THROW(DatasetWriter::open(dir.path().string(), schema, options), Error);
  };
  bad({"tags"});                         // a list
  bad({"nope"});                         // no such column
  bad({"region", "region"});             // twice
  bad({"id", "region", "day", "tags"});  // nothing left (and a list)

  DatasetWriteOptions no_files;
  no_files.max_open_files = 0;
  EXPECT_THROW(DatasetWriter::open(dir.path().string(), schema, no_files), Error);
  DatasetWriteOptions negative;
  negative.max_rows_per_file = -1;
  EXPECT_THROW(DatasetWriter::open(dir.path().string(), schema, negative), Error);

  DatasetWriteOptions summary;
  summary.partition_by = {"day"};
  summary.write_summary = true;
  auto writer = DatasetWriter::open(dir.path().string(), schema, summary);
  writer->write(rows_batch(90));
  writer->close();
  EXPECT_TRUE(fs::exists(dir.path() / "_metadata"));
  auto from_summary = Dataset::open({(dir.path() / "_metadata").string()});
  EXPECT_EQ(from_summary->num_rows(), 90);
  EXPECT_EQ(from_summary->partition_columns(), (std::vector<std::string>{"day"}));
}

}  // namespace
}  // namespace parq
