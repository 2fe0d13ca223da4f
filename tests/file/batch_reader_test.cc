// The batch reader's options: a projection reads only its column chunks
// (counted through the input), threads give the same rows as one thread,
// and small batches give the same rows as one batch.
#include "parq/file/batch_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "../file_bytes.h"
#include "json_batch.h"
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
  WriteOptions write;
  write.row_group_rows = 500;
  const std::vector<uint8_t> bytes = testing::file_bytes(source_file->schema(), *read_batches(*source_file), write);
  auto file = FileReader::open(io::memory_input(bytes));
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

// A reader promises (offsets_ordered) that no offset of its batches
// decreases, so that an Arrow export may skip checking them: strings, lists
// and maps of a nested file, at one and two threads, bear it out.
bool offsets_never_decrease(const Array& a) {
  if (!a.offsets.empty()) {
    const int32_t* o = a.offsets_data();
    for (int64_t i = 0; i < a.length; ++i)
      if (o[i + 1] < o[i]) return false;
  }
  return std::all_of(a.children.begin(), a.children.end(), offsets_never_decrease);
}

TEST(BatchReader, SaysItsOffsetsAreInOrder) {
  for (const char* name : {"nested_structs.rust.parquet", "nullable.impala.parquet", "map_no_value.parquet"}) {
    auto file = FileReader::open((testing::corpus_dir() / "data" / name).string());
    for (int threads : {1, 2}) {
      ReadOptions options;
      options.threads = threads;
      options.batch_rows = 3;
      auto source = read_batches(*file, options);
      EXPECT_TRUE(source->offsets_ordered());
      RecordBatch batch;
      int64_t with_offsets = 0;
      while (source->next(batch))
        for (const Array& c : batch.columns) {
          EXPECT_TRUE(offsets_never_decrease(c)) << name << ", column " << c.name;
          with_offsets += !c.offsets.empty() || !c.children.empty();
        }
      EXPECT_GT(with_offsets, 0) << name;
    }
  }
}

// Three INT64 columns of random numbers (c optional, every 7th null when
// `nulls`), one page each unless `options` says otherwise.
Buffer three_columns(WriteOptions options, bool nulls = false) {
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
    if (nulls && a.name == "c") {
      a.validity.resize(static_cast<size_t>(batch.num_rows + 7) / 8);
      std::memset(a.validity.data(), 0, a.validity.size());
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        if (i % 7 == 0) {
          ++a.null_count;
        } else {
          a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
        }
      }
    }
    batch.columns.push_back(std::move(a));
  }
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  options.page_crc = false;
  options.min_compression_saving = 0;
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return std::move(sink->buffer());
}

Buffer three_columns(format::CompressionCodec codec) {
  WriteOptions options;
  options.codec = {codec, compression::kDefaultLevel};
  options.page_rows = 50000;
  return three_columns(options);
}

// Reads `file` expecting an error that names the first page of column
// `column` (with one thread) or of one of `columns` (with two, where
// whichever failing task runs first reports), and says `what`.
void expect_page_error(const Buffer& file, const ReadOptions& base, const std::string& column, const std::string& what,
                       const std::vector<std::string>& columns = {}) {
  for (int threads : {1, 2}) {
    ReadOptions options = base;
    options.threads = threads;
    try {
      all_rows(*FileReader::open(io::memory_input(file.span())), options);
      ADD_FAILURE() << "the file was read, threads " << threads;
    } catch (const Error& e) {
      const std::vector<std::string> named = threads == 1 || columns.empty() ? std::vector{column} : columns;
      const std::string message = e.what();
      EXPECT_TRUE(std::any_of(named.begin(), named.end(),
                              [&](const std::string& c) {
                                return message.find("column " + c + ", row group 0, page 0") != std::string::npos;
                              }))
          << threads << " threads: " << message;
      EXPECT_THAT(e.what(), ::testing::HasSubstr(what)) << threads;
    }
  }
}

// The reader decompresses the pages that batches start on two at a time
// (SNAPPY in one interleaved loop, other codecs one after the other): the
// rows are those of the same file uncompressed, and a corrupt page among
// them is named by its own column.
TEST(BatchReader, PagesDecodedInPairs) {
  const Buffer plain = three_columns(format::CompressionCodec::UNCOMPRESSED);
  const std::string expected = all_rows(*FileReader::open(io::memory_input(plain.span())), {});
  for (auto codec : {format::CompressionCodec::SNAPPY, format::CompressionCodec::ZSTD}) {
    const Buffer compressed = three_columns(codec);
    for (int threads : {1, 2}) {
      ReadOptions options;
      options.threads = threads;
      options.batch_rows = 30000;  // the second batch starts inside the pages
      EXPECT_EQ(all_rows(*FileReader::open(io::memory_input(compressed.span())), options), expected)
          << format::to_string(codec) << " " << threads;
    }
    // Column b's first payload byte one lower: the snappy preamble claims
    // one byte fewer than the page header, the zstd magic number is wrong.
    Buffer damaged = compressed;
    {
      auto file = FileReader::open(io::memory_input(compressed.span()));
      PageReader pages(file->input(), file->metadata(), 0, 1, "b");
      PageInfo page;
      ASSERT_TRUE(pages.next(page));
      const size_t payload = page.header_offset + page.header_size;
      ASSERT_GE(damaged.data()[payload] & 0x7F, 1);
      damaged.data()[payload] -= 1;
    }
    expect_page_error(damaged, {}, "b", format::to_string(codec));
  }
}

// A page refused before it is decompressed (larger than the limit), when
// the batch reader stages it with the other columns' pages.
TEST(BatchReader, StagedPageErrorsNameTheirColumn) {
  const Buffer file = three_columns(format::CompressionCodec::SNAPPY);
  ReadOptions options;
  options.pages.max_page_bytes = 1000;
  // Every column's first page is over the limit.
  expect_page_error(file, options, "a", "exceeds the limit", {"a", "b", "c"});
}

// A batch's PLAIN values from decompressed pages are views of them (no
// copy), on a 64-byte boundary where the reader placed the page so, also
// when the batch runs on into the next page (the reader puts that page's
// values behind the batch's); a batch with nulls to spread the values over
// gets values of its own. The rows are those of a file whose pages are
// stored uncompressed, whose batches copy.
TEST(BatchReader, PlainValuesAreViewsOfTheirPage) {
  for (int version : {1, 2}) {
    for (int64_t page_rows : {50000, 25000}) {
      for (bool nulls : {false, true}) {
        const std::string context =
            "v" + std::to_string(version) + " pages of " + std::to_string(page_rows) + (nulls ? " with nulls" : "");
        WriteOptions options;
        options.dictionary = false;
        for (const char* name : {"a", "b", "c"}) options.columns[name].encoding = format::Encoding::PLAIN;
        options.page_version = version;
        options.page_rows = page_rows;
        const Buffer snappy = three_columns(options, nulls);
        options.codec = {format::CompressionCodec::UNCOMPRESSED, compression::kDefaultLevel};
        const Buffer plain = three_columns(options, nulls);
        ReadOptions read;
        read.batch_rows = 20000;  // with pages of 25000 rows, the second batch spans two
        EXPECT_EQ(all_rows(*FileReader::open(io::memory_input(snappy.span())), read),
                  all_rows(*FileReader::open(io::memory_input(plain.span())), read))
            << context;
        auto file = FileReader::open(io::memory_input(snappy.span()));
        auto source = read_batches(*file, read);
        RecordBatch batch;
        for (int index = 0; source->next(batch); ++index) {
          for (const Array& column : batch.columns) {
            const bool spread = column.null_count > 0;
            EXPECT_EQ(column.values.is_view(), !spread) << context << ", batch " << index << ", column " << column.name;
            if (column.values.is_view()) {
              EXPECT_EQ(reinterpret_cast<uintptr_t>(std::as_const(column.values).data()) % 64, 0u)
                  << context << ", batch " << index << ", column " << column.name;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace parq

namespace parq {
namespace {

// Counts the calls that reach the input: a remote one pays a round trip
// for each.
class CallCountingInput final : public io::RandomAccessInput {
 public:
  explicit CallCountingInput(std::unique_ptr<io::RandomAccessInput> inner) : inner_(std::move(inner)) {}
  uint64_t size() const override { return inner_->size(); }
  const std::string& name() const override { return inner_->name(); }
  bool memory_resident() const override { return false; }
  std::vector<io::ByteRange> read_ranges(std::span<const io::FileRange> ranges) override {
    ++calls;
    for (const io::FileRange& r : ranges) bytes += static_cast<int64_t>(r.length);
    return inner_->read_ranges(ranges);
  }
  int calls = 0;
  int64_t bytes = 0;

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override {
    ++calls;
    bytes += static_cast<int64_t>(n);
    inner_->read_at(offset, n, out);
  }

 private:
  std::unique_ptr<io::RandomAccessInput> inner_;
};

TEST(BatchReader, PlanLookupsOfAnInputNotInMemoryAreFetchedTogether) {
  // 12 row groups with a dictionary-encoded string column and its bloom
  // filters: a filter on an absent value consults 12 dictionaries and 12
  // bloom filters.
  auto source_file = FileReader::open((testing::corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string());
  WriteOptions write;
  write.row_group_rows = 600;
  write.columns["string_col"].bloom_filter = BloomFilterOptions{};
  const std::vector<uint8_t> bytes = testing::file_bytes(source_file->schema(), *read_batches(*source_file), write);
  for (const char* where : {"string_col = 'absent'", "string_col IN ('3', 'x') AND id < 5000"}) {
    ReadOptions options;
    options.filter = filter::parse_filter(where);
    options.columns = {"id", "string_col"};
    auto resident = FileReader::open(io::memory_input(bytes));
    const std::string expected = all_rows(*resident, options);
    auto counting = std::make_unique<CallCountingInput>(io::memory_input(bytes));
    CallCountingInput* calls = counting.get();
    auto file = FileReader::open(std::move(counting));
    const int after_open = calls->calls;
    ReadStats stats;
    options.stats = &stats;
    EXPECT_EQ(all_rows(*file, options), expected) << where;
    // Footer aside: one call for every lookup of the plan, then the
    // fetches of the row groups left (ahead, a window at a time).
    EXPECT_LE(calls->calls - after_open, 3) << where;
    EXPECT_GE(stats.row_groups, 12) << where;
  }
}

// 12 row groups of 500 rows: `x` (the filter's column) is 0 or 2 in every
// row, except rows 2500-2599 (row group 5), where it is 1; `id` and `s`
// are read only for the rows the filter keeps.
std::vector<uint8_t> late_columns_file() {
  std::vector<std::string> rows;
  for (int i = 0; i < 6000; ++i) {
    const int x = i >= 2500 && i < 2600 ? 1 : (i % 2) * 2;
    rows.push_back("{\"id\": " + std::to_string(i) + ", \"x\": " + std::to_string(x) + ", \"s\": \"row " +
                   std::to_string(i * 7919 % 6000) + "\"}");
  }
  const char* schema = "message m { required int64 id; required int32 x; required binary s (STRING); }";
  WriteOptions write;
  write.row_group_rows = 500;
  return testing::file_bytes(parse_schema_text(schema), testing::batch_from_json(schema, rows), write);
}

int64_t chunk_bytes(const FileReader& file, size_t row_group, size_t column) {
  return file.metadata().row_groups[row_group].columns[column].meta_data->total_compressed_size;
}

TEST(BatchReader, LateColumnsOfAnInputNotInMemoryAreFetchedAheadWhileRowGroupsKeepRows) {
  const std::vector<uint8_t> bytes = late_columns_file();
  auto resident = FileReader::open(io::memory_input(bytes));
  ASSERT_EQ(resident->metadata().row_groups.size(), 12u);
  ReadOptions options;
  options.filter = filter::parse_filter("x < 2");  // every row group keeps rows; no statistic says which
  options.columns = {"id", "s"};
  options.threads = 1;
  const std::string expected = all_rows(*resident, options);
  auto counting = std::make_unique<CallCountingInput>(io::memory_input(bytes));
  CallCountingInput* calls = counting.get();
  auto file = FileReader::open(std::move(counting));
  const int after_open = calls->calls;
  EXPECT_EQ(all_rows(*file, options), expected);
  // Footer aside: the plan's look-ups (page indexes with them), the
  // filter's column of every row group, then the others of every row
  // group, each in one call; one per row group without fetching ahead.
  EXPECT_LE(calls->calls - after_open, 3);
}

TEST(BatchReader, LateColumnsAreNotFetchedAheadWhereRowGroupsKeepNoRows) {
  const std::vector<uint8_t> bytes = late_columns_file();
  auto resident = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.filter = filter::parse_filter("x = 1");  // only row group 5 keeps rows
  options.pruning.dictionaries = false;            // which its dictionary would tell
  options.pruning.bloom_filters = false;
  options.columns = {"id", "s"};
  options.threads = 1;
  const std::string expected = all_rows(*resident, options);
  auto counting = std::make_unique<CallCountingInput>(io::memory_input(bytes));
  CallCountingInput* calls = counting.get();
  auto file = FileReader::open(std::move(counting));
  const int64_t after_open = calls->bytes;
  ReadStats stats;
  options.stats = &stats;
  EXPECT_EQ(all_rows(*file, options), expected);
  EXPECT_EQ(stats.rows_returned, 100);
  // Every row group's `x`, its page indexes, and `id` and `s` of row group 5
  // alone (with a row group's worth of slack): after five row groups that
  // kept nothing, the sixth's late columns are fetched on their own.
  int64_t early = 0;
  for (size_t g = 0; g < 12; ++g) early += chunk_bytes(*resident, g, 1);
  const int64_t late = chunk_bytes(*resident, 5, 0) + chunk_bytes(*resident, 5, 2);
  const auto& index_end = resident->metadata().row_groups;
  int64_t index = 0;
  for (const auto& g : index_end)
    for (const auto& c : g.columns) index += c.column_index_length.value_or(0) + c.offset_index_length.value_or(0);
  EXPECT_LE(calls->bytes - after_open, early + 2 * late + index);
  EXPECT_GE(calls->bytes - after_open, early + late);
}

}  // namespace
}  // namespace parq
