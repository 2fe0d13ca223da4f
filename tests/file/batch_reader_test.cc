// The batch reader's options: a projection reads only its column chunks
// (counted through the input), threads give the same rows as one thread,
// and small batches give the same rows as one batch.
#include "parq/file/batch_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "parq/column/page_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "test_paths.h"

namespace parq {
namespace {

std::string all_rows(const FileReader& file, const ReadOptions& options) {
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

TEST(BatchReader, ProjectionReadsOnlyItsColumnChunks) {
  auto path = testing::corpus_dir() / "data" / "alltypes_tiny_pages.parquet";
  auto bytes = testing::read_file_bytes(path);
  auto file = FileReader::open(io::memory_input(bytes, path.string()));
  const uint64_t after_footer = file->input().bytes_read();
  ReadOptions options;
  options.columns = {"id"};
  std::string rows = all_rows(*file, options);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 7300);
  int id = file->schema().find_column("id");
  ASSERT_GE(id, 0);
  ChunkRange range = chunk_range(file->metadata(), 0, static_cast<size_t>(id), bytes.size());
  EXPECT_EQ(file->input().bytes_read() - after_footer, range.length);
  EXPECT_LT(file->input().bytes_read(), bytes.size() / 4);
}

TEST(BatchReader, ThreadsAndBatchSizesGiveTheSameRows) {
  for (const char* name : {"nullable.impala.parquet", "alltypes_tiny_pages.parquet", "nested_structs.rust.parquet",
                           "floating_orders_nan_count.parquet"}) {  // the last has 5 row groups
    auto file = FileReader::open((testing::corpus_dir() / "data" / name).string());
    ReadOptions one;
    std::string expected = all_rows(*file, one);
    ReadOptions threads;
    threads.threads = 3;
    EXPECT_EQ(all_rows(*file, threads), expected) << name;
    ReadOptions small;
    small.batch_rows = 3;
    EXPECT_EQ(all_rows(*file, small), expected) << name;
  }
}

TEST(BatchReader, ManyRowGroupsDecodeSideBySideInOrder) {
  // 15 row groups: enough per thread that whole row groups go to threads.
  auto source_file = FileReader::open((testing::corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string());
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  WriteOptions write;
  write.row_group_rows = 500;
  auto writer = FileWriter::open(std::move(out), source_file->schema(), write);
  auto source = read_batches(*source_file);
  writer->write_all(*source);
  writer->close();
  auto file = FileReader::open(io::memory_input(sink->buffer().span()));
  ASSERT_EQ(file->metadata().row_groups.size(), 15u);
  const std::string expected = all_rows(*source_file, {});
  for (int threads : {1, 2, 3}) {
    ReadOptions options;
    options.threads = threads;
    options.batch_rows = 128;
    EXPECT_EQ(all_rows(*file, options), expected) << threads;
  }
}

TEST(BatchReader, PrototypeHasTheProjectedShape) {
  auto file = FileReader::open((testing::corpus_dir() / "data" / "nullable.impala.parquet").string());
  ReadOptions options;
  options.columns = {"nested_struct.C", "id"};
  auto source = read_batches(*file, options);
  RecordBatch proto = source->prototype();
  ASSERT_EQ(proto.columns.size(), 2u);
  EXPECT_EQ(proto.columns[0].name, "id");
  EXPECT_EQ(proto.columns[1].name, "nested_struct");
  ASSERT_EQ(proto.columns[1].children.size(), 1u);
  EXPECT_EQ(proto.columns[1].children[0].name, "C");
  EXPECT_EQ(proto.num_rows, 0);
}

// Three INT64 columns of random numbers, one page each, written with `codec`.
Buffer three_columns(compression::CodecChoice codec) {
  const Schema schema = parse_schema_text("message m { required int64 a; required int64 b; optional int64 c; }");
  RecordBatch batch;
  batch.num_rows = 50000;
  std::mt19937_64 rng(5);
  for (const char* name : {"a", "b", "c"}) {
    Array a;
    a.name = name;
    a.type = schema.column(static_cast<size_t>(schema.find_column(name))).type;
    a.length = batch.num_rows;
    for (int64_t i = 0; i < batch.num_rows; ++i) a.values.append_value(static_cast<int64_t>(rng() % 1'000'000));
    batch.columns.push_back(std::move(a));
  }
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  WriteOptions options;
  options.codec = codec;
  options.page_rows = batch.num_rows;
  options.page_crc = false;
  options.min_compression_saving = 0;
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return std::move(sink->buffer());
}

// The reader decompresses the SNAPPY pages that batches start on two at a
// time, in one loop: the rows are those of the same file uncompressed, and
// a corrupt page among them is named by its own column.
TEST(BatchReader, SnappyPagesDecodedInPairs) {
  const Buffer snappy = three_columns({format::CompressionCodec::SNAPPY, compression::kDefaultLevel});
  const Buffer plain = three_columns({format::CompressionCodec::UNCOMPRESSED, compression::kDefaultLevel});
  const std::string expected = all_rows(*FileReader::open(io::memory_input(plain.span())), {});
  for (int threads : {1, 2}) {
    ReadOptions options;
    options.threads = threads;
    options.batch_rows = 30000;  // the second batch starts inside the pages
    EXPECT_EQ(all_rows(*FileReader::open(io::memory_input(snappy.span())), options), expected) << threads;
  }
  // Column b's snappy preamble claims one byte fewer than its page header.
  Buffer damaged = snappy;
  {
    auto file = FileReader::open(io::memory_input(snappy.span()));
    PageReader pages(file->input(), file->metadata(), 0, 1, "b");
    PageInfo page;
    ASSERT_TRUE(pages.next(page));
    const size_t payload = page.header_offset + page.header_size;
    ASSERT_GE(damaged.data()[payload] & 0x7F, 1);
    damaged.data()[payload] -= 1;
  }
  for (int threads : {1, 2}) {
    ReadOptions options;
    options.threads = threads;
    try {
      all_rows(*FileReader::open(io::memory_input(damaged.span())), options);
      ADD_FAILURE() << "the damaged page was read, threads " << threads;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("column b, row group 0, page 0")) << threads;
      EXPECT_THAT(e.what(), ::testing::HasSubstr("SNAPPY")) << threads;
    }
  }
}

}  // namespace
}  // namespace parq
