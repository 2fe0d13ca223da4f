// The decode pipeline: any thread count, batch size and memory limit gives
// the rows one thread gives; a memory limit too small for one batch is an
// error that says so; late columns' chunks are fetched only for row groups
// where the filter keeps a row; errors of tasks on other threads reach the
// caller; a reader dropped half-way stops its tasks.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "../file_bytes.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/field.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

constexpr int64_t kRows = 5000;

void set_bit(Buffer& b, int64_t i) { b.data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }

// id (required), n (nullable int32), s (nullable string), tags (list of
// strings): many row groups of many pages.
std::vector<uint8_t> make_file(const WriteOptions& options) {
  std::mt19937 rng(7);
  Schema schema = make_schema({Field::int64("id").required(), Field::int32("n"), Field::string("s"),
                               Field::list("tags", Field::string("element"))});
  auto type = [&](const char* path) { return schema.column(static_cast<size_t>(schema.find_column(path))).type; };
  RecordBatch batch;
  batch.num_rows = kRows;
  Array id, n, s, tags, element;
  id.name = "id";
  id.type = type("id");
  id.length = kRows;
  n.name = "n";
  n.type = type("n");
  n.length = kRows;
  n.validity.resize((kRows + 7) / 8);
  std::memset(n.validity.data(), 0, n.validity.size());
  s.name = "s";
  s.type = type("s");
  s.length = kRows;
  s.validity.resize((kRows + 7) / 8);
  std::memset(s.validity.data(), 0, s.validity.size());
  s.offsets.append_value<int32_t>(0);
  tags.kind = ArrayKind::kList;
  tags.name = "tags";
  tags.length = kRows;
  tags.offsets.append_value<int32_t>(0);
  element.name = "element";
  element.type = type("tags.list.element");
  element.offsets.append_value<int32_t>(0);
  int32_t elements = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    id.values.append_value<int64_t>(i);
    const bool n_null = rng() % 10 == 0;
    n.values.append_value<int32_t>(n_null ? 0 : static_cast<int32_t>(rng() % 1000));
    if (n_null) {
      ++n.null_count;
    } else {
      set_bit(n.validity, i);
    }
    if (rng() % 8 == 0) {
      ++s.null_count;
    } else {
      set_bit(s.validity, i);
      const std::string v = "value-" + std::to_string(rng() % 300) + std::string(rng() % 20, 'x');
      s.values.append(v.data(), v.size());
    }
    s.offsets.append_value<int32_t>(static_cast<int32_t>(s.values.size()));
    for (uint32_t k = rng() % 4; k > 0; --k, ++elements) {
      const std::string v = "t" + std::to_string(rng() % 50);
      element.values.append(v.data(), v.size());
      element.offsets.append_value<int32_t>(static_cast<int32_t>(element.values.size()));
    }
    tags.offsets.append_value<int32_t>(elements);
  }
  element.length = elements;
  tags.children.push_back(std::move(element));
  batch.columns = {std::move(id), std::move(n), std::move(s), std::move(tags)};
  return testing::file_bytes(schema, batch, options);
}

WriteOptions small_groups() {
  WriteOptions options;
  options.row_group_rows = 900;
  options.page_rows = 64;
  return options;
}

std::string rows_of(const FileReader& file, const ReadOptions& options) {
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) {
    EXPECT_LE(batch.num_rows, options.batch_rows);
    text::append_rows_jsonl(out, batch, 0, batch.num_rows);
  }
  return out;
}

TEST(BatchPipeline, EveryThreadCountAndBatchSizeGivesTheSameRows) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  for (const char* where : {"", "n < 300", "s LIKE 'value-1%' OR n IS NULL", "id >= 4000 AND n > 990"}) {
    ReadOptions options;
    if (*where) options.filter = filter::parse_filter(where);
    options.row_index_column = "row";
    const std::string expected = rows_of(*file, options);
    ASSERT_FALSE(expected.empty()) << where;
    for (int threads : {1, 2, 3, 5})
      for (int64_t batch : {1, 7, 100, 1000, 100000}) {
        if (batch == 1 && threads > 2) continue;  // slow, and covered by two
        ReadOptions o = options;
        o.threads = threads;
        o.batch_rows = batch;
        EXPECT_EQ(rows_of(*file, o), expected) << where << ", " << threads << " threads, batches of " << batch;
      }
  }
}

// Columns of fixed width know a batch's size before it is read, so the
// window fills at once (not one batch until the first is measured): the
// rows stay those of one thread, under a memory limit and with a batch size
// whose estimate passes int64.
TEST(BatchPipeline, FixedWidthColumnsFillTheWindowAtOnce) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.columns = {"id", "n"};
  const std::string expected = rows_of(*file, options);
  ASSERT_FALSE(expected.empty());
  for (int threads : {2, 3})
    for (int64_t batch : {int64_t{7}, int64_t{1000}, INT64_MAX / 2})
      for (int64_t limit : {int64_t{0}, int64_t{64} * 1024}) {
        ReadOptions o = options;
        o.threads = threads;
        o.batch_rows = batch;
        o.memory_limit = limit;
        EXPECT_EQ(rows_of(*file, o), expected)
            << threads << " threads, batches of " << batch << ", memory limit " << limit;
      }
}

// Before a batch has been measured, a file with strings is estimated from
// its chunks' sizes, so that the window holds more than the first batch
// (whose longest lane would leave the other threads idle until it is
// handed out), unless the caller set a memory limit: one row group of two
// batches has both in flight at once, or one at a time.
TEST(BatchPipeline, StringsFillTheWindowBeforeTheFirstBatchUnlessALimitIsSet) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  ASSERT_EQ(file->metadata().row_groups[0].num_rows, 900);
  ReadOptions options;
  options.columns = {"id", "s"};
  options.row_groups = {0};
  options.batch_rows = 450;
  const std::string expected = rows_of(*file, options);
  ASSERT_FALSE(expected.empty());
  for (int64_t limit : {int64_t{0}, int64_t{1} << 20}) {
    ReadStats stats;
    ReadOptions o = options;
    o.threads = 2;
    o.memory_limit = limit;
    o.stats = &stats;
    EXPECT_EQ(rows_of(*file, o), expected) << "memory limit " << limit;
    EXPECT_EQ(stats.peak_batches, limit == 0 ? 2 : 1) << "memory limit " << limit;
  }
  // A huge batch size makes the estimate larger than any budget (it is a
  // batch's rows times the chunks' bytes a row): two row groups of one
  // batch each are read a batch at a time (the first is measured once
  // handed out, and then one is left).
  options.row_groups = {0, 1};
  options.batch_rows = INT64_MAX / 2;
  ReadStats stats;
  ReadOptions o = options;
  o.threads = 2;
  o.stats = &stats;
  EXPECT_EQ(rows_of(*file, o), rows_of(*file, options));
  EXPECT_EQ(stats.peak_batches, 1);
}

TEST(BatchPipeline, OffsetAndLimitWithAFilterOnSeveralThreads) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.filter = filter::parse_filter("n < 500");
  options.row_index_column = "row";
  const std::string all = rows_of(*file, options);
  std::vector<std::string> lines;
  for (size_t at = 0, next; (next = all.find('\n', at)) != std::string::npos; at = next + 1)
    lines.push_back(all.substr(at, next + 1 - at));
  ASSERT_GT(lines.size(), 1000u);
  for (int threads : {1, 2, 4}) {
    ReadOptions o = options;
    o.threads = threads;
    o.batch_rows = 50;
    o.offset = 333;
    o.limit = 701;
    std::string expected;
    for (size_t i = 333; i < 333 + 701; ++i) expected += lines[i];
    EXPECT_EQ(rows_of(*file, o), expected) << threads << " threads";
  }
}

// A conjunction is judged in stages, the conjunct that is cheap and drops
// most rows first, as measured: the long strings are then decoded only
// for the rows the cheap test keeps.
TEST(BatchPipeline, ConjunctsAreJudgedCheapAndSelectiveFirst) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  ReadOptions options;
  options.batch_rows = 100;
  options.columns = {"id"};
  options.row_index_column = "row";
  options.pruning = {false, false, false, false};
  // Not a conjunction at the top: every filter column is read for every row.
  options.filter = filter::parse_filter("(s >= 'value-5' AND id BETWEEN 1000 AND 1299) OR id < 0");
  ReadStats whole;
  options.stats = &whole;
  const std::string expected = rows_of(*file, options);
  ASSERT_FALSE(expected.empty());
  EXPECT_GE(whole.values_decoded, 2 * kRows);  // id and s for every row
  for (int threads : {1, 2}) {
    ReadStats staged;
    ReadOptions o = options;
    o.threads = threads;
    o.stats = &staged;
    o.filter = filter::parse_filter("s >= 'value-5' AND id BETWEEN 1000 AND 1299");
    EXPECT_EQ(rows_of(*file, o), expected);
    // id for every row, s mostly for the rows id keeps.
    EXPECT_LT(staged.values_decoded, kRows + kRows / 2) << threads << " threads";
    EXPECT_EQ(staged.rows_decoded, kRows);
    EXPECT_EQ(staged.rows_filtered + staged.rows_returned, kRows);
  }
}

TEST(BatchPipeline, AMemoryLimitNarrowsTheReadAheadOrSaysItCannotFit) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  // An input without views: the fetched chunks count against the limit.
  auto file = FileReader::open(io::buffer_input(bytes));
  ReadOptions options;
  options.batch_rows = 256;
  const std::string expected = rows_of(*file, options);
  for (int threads : {1, 3}) {
    ReadOptions o = options;
    o.threads = threads;
    o.memory_limit = 128 * 1024;  // a row group's chunks, its readers' pages and a batch or two
    EXPECT_EQ(rows_of(*file, o), expected) << threads << " threads";
    o.memory_limit = 1000;  // less than any batch
    try {
      rows_of(*file, o);
      ADD_FAILURE() << "a read that cannot fit its memory limit succeeded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("memory limit of 1000 bytes"), std::string::npos) << e.what();
    }
  }
  ReadOptions bad;
  bad.memory_limit = -1;
  EXPECT_THROW(read_batches(*file, bad), Error);
}

// The pages a reader keeps decompressed between batches count too: one
// ZSTD page per column shrinks to a fraction of its size, so the fetched chunk
// and a small batch fit a limit that the decompressed pages do not.
TEST(BatchPipeline, DecompressedPagesCountAgainstTheMemoryLimit) {
  WriteOptions w;
  w.codec = {format::CompressionCodec::ZSTD, compression::kDefaultLevel};
  w.dictionary = false;
  w.page_rows = kRows;
  w.page_bytes = int64_t{1} << 30;
  const std::vector<uint8_t> bytes = make_file(w);
  auto file = FileReader::open(io::buffer_input(bytes));
  const auto& id_chunk = file->metadata().row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(id_chunk.has_value());
  ASSERT_GE(id_chunk->total_uncompressed_size, kRows * 8);
  ASSERT_LT(id_chunk->total_compressed_size * 4, id_chunk->total_uncompressed_size);  // sequential ids shrink
  ReadOptions o;
  o.columns = {"id"};
  o.batch_rows = 64;  // 512 bytes of values a batch
  const std::string expected = rows_of(*file, o);
  o.memory_limit = 2 * id_chunk->total_compressed_size + 4096;
  ASSERT_LT(o.memory_limit, kRows * 8);
  try {
    rows_of(*file, o);
    ADD_FAILURE() << "a decompressed page of " << kRows * 8 << " bytes fit a limit of " << o.memory_limit;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kLimit) << e.what();
    EXPECT_NE(std::string(e.what()).find("memory limit"), std::string::npos) << e.what();
  }
  o.memory_limit = 4 * kRows * 8;
  EXPECT_EQ(rows_of(*file, o), expected);
}

// Without a page index every chunk is fetched whole: the columns that wait
// for the filter's verdict are fetched only for the row group that keeps
// a row.
TEST(BatchPipeline, LateColumnsAreFetchedOnlyWhereTheFilterKeepsARow) {
  WriteOptions w = small_groups();
  w.page_index = false;
  const std::vector<uint8_t> bytes = make_file(w);
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& groups = file->metadata().row_groups;
  ASSERT_GT(groups.size(), 4u);
  int64_t id_chunks = 0, group_of_match = 0;
  for (const auto& g : groups) id_chunks += g.columns[0].meta_data->total_compressed_size;
  for (size_t c = 1; c < groups[2].columns.size(); ++c)
    group_of_match += groups[2].columns[c].meta_data->total_compressed_size;
  const int64_t match = groups[0].num_rows + groups[1].num_rows + 5;
  for (int threads : {1, 2}) {
    ReadStats stats;
    ReadOptions options;
    options.threads = threads;
    options.filter = filter::parse_filter("id = " + std::to_string(match));
    options.pruning = {false, false, false, false};  // every row group's id chunk is read
    options.stats = &stats;
    options.row_index_column = "row";
    const std::string rows = rows_of(*file, options);
    EXPECT_NE(rows.find("\"row\":" + std::to_string(match)), std::string::npos) << rows;
    EXPECT_EQ(stats.rows_returned, 1);
    EXPECT_GE(stats.bytes_read, id_chunks + group_of_match);
    EXPECT_LE(stats.bytes_read, id_chunks + group_of_match + static_cast<int64_t>(bytes.size()) / 20)
        << "the file has " << bytes.size() << " bytes";
  }
}

// Without a page index, the statistics in the filter columns' page headers
// prune pages once the chunks are fetched: the other columns skip them.
TEST(BatchPipeline, PageHeaderStatisticsPrunePagesWithoutAPageIndex) {
  WriteOptions w = small_groups();
  w.page_index = false;
  const std::vector<uint8_t> bytes = make_file(w);
  auto file = FileReader::open(io::memory_input(bytes));
  for (const char* where : {"id BETWEEN 1000 AND 1100", "id < 10 OR id >= 4990", "id = 77 AND n >= 0"}) {
    ReadOptions all;
    all.filter = filter::parse_filter(where);
    all.pruning = {false, false, false, false};
    all.row_index_column = "row";
    const std::string expected = rows_of(*file, all);
    ASSERT_FALSE(expected.empty()) << where;
    for (int threads : {1, 2}) {
      ReadStats stats;
      ReadOptions o = all;
      o.threads = threads;
      o.pruning = {};
      o.stats = &stats;
      EXPECT_EQ(rows_of(*file, o), expected) << where;
      EXPECT_GT(stats.header_pages, 0) << where;
      EXPECT_GT(stats.pages_pruned_by_headers, 0) << where;
      EXPECT_GT(stats.rows_pruned_by_pages, 0) << where;
      EXPECT_LT(stats.rows_decoded, 2 * 64 * 4) << where << "\n" << stats.to_string();
      EXPECT_EQ(stats.pages, 0);  // no offset index
    }
  }
}

// A batch whose strings would pass max_batch_bytes is read again in
// smaller batches (from its row group's first incomplete batch), whatever
// stage or thread hit the limit; only a single row over it is an error.
// id, n and s as make_file has them, but s is one of three long strings:
// dictionary-encoded, its chunk is small for the bytes its rows decode to,
// so batch sizes guessed from chunk sizes come out too large.
// `growing`: the strings grow from 20 to 244 bytes along each 900-row group.
std::vector<uint8_t> make_repetitive_file(bool growing = false) {
  Schema schema =
      make_schema({Field::int64("id").required(), Field::int32("n").required(), Field::string("s").required()});
  auto type = [&](const char* path) { return schema.column(static_cast<size_t>(schema.find_column(path))).type; };
  RecordBatch batch;
  batch.num_rows = kRows;
  Array id, n, s;
  id.name = "id";
  id.type = type("id");
  n.name = "n";
  n.type = type("n");
  s.name = "s";
  s.type = type("s");
  id.length = n.length = s.length = kRows;
  s.offsets.append_value<int32_t>(0);
  for (int64_t i = 0; i < kRows; ++i) {
    id.values.append_value<int64_t>(i);
    n.values.append_value<int32_t>(static_cast<int32_t>(i * 7919 % 1000));
    const size_t pad = growing ? static_cast<size_t>(13 + i % 900 / 4) : 200;
    const std::string v = "value-" + std::to_string(i % 3) + std::string(pad, 'x');
    s.values.append(v.data(), v.size());
    s.offsets.append_value<int32_t>(static_cast<int32_t>(s.values.size()));
  }
  batch.columns = {std::move(id), std::move(n), std::move(s)};
  return testing::file_bytes(schema, batch, small_groups());
}

TEST(BatchPipeline, BatchesOverTheByteLimitAreReadAgainSmaller) {
  const std::vector<uint8_t> bytes = make_repetitive_file();
  auto file = FileReader::open(io::memory_input(bytes));
  for (const char* where : {"", "n < 500", "s >= 'value-1' AND n < 900"}) {
    ReadOptions options;
    if (*where) options.filter = filter::parse_filter(where);
    options.row_index_column = "row";
    const std::string expected = rows_of(*file, options);
    for (int threads : {1, 2}) {
      ReadOptions o = options;
      o.threads = threads;
      o.max_batch_bytes = 5000;
      ReadStats stats;
      o.stats = &stats;
      auto source = read_batches(*file, o);
      RecordBatch batch;
      std::string got;
      int64_t batches = 0;
      while (source->next(batch)) {
        ++batches;
        EXPECT_LE(batch.columns[2].values.size(), 5000u);
        text::append_rows_jsonl(got, batch, 0, batch.num_rows);
      }
      EXPECT_EQ(got, expected) << where << ", " << threads << " threads";
      EXPECT_GT(batches, 50) << where;
      EXPECT_GT(stats.batch_restarts, 0) << where;
    }
  }
  // Strings that grow along each row group: with small batches (read a
  // run to a task), a lane in the middle of a run passes the limit; the
  // lanes before it stay read and the group is read again from there.
  const std::vector<uint8_t> growing = make_repetitive_file(true);
  auto growing_file = FileReader::open(io::memory_input(growing));
  for (const char* where : {"", "n < 500"}) {
    ReadOptions options;
    if (*where) options.filter = filter::parse_filter(where);
    options.row_index_column = "row";
    const std::string expected = rows_of(*growing_file, options);
    ReadOptions o = options;
    o.threads = 2;
    o.batch_rows = 40;
    o.max_batch_bytes = 5000;
    ReadStats stats;
    o.stats = &stats;
    EXPECT_EQ(rows_of(*growing_file, o), expected) << where;
    EXPECT_GT(stats.batch_restarts, 0) << where;
  }
  // With a limit the final verdicts have counted the rows of a batch whose
  // late column then overflows: it cannot be read again, and says why.
  ReadOptions counted;
  counted.filter = filter::parse_filter("n < 900");
  counted.limit = 4000;
  counted.max_batch_bytes = 5000;
  try {
    rows_of(*file, counted);
    ADD_FAILURE() << "a counted batch was read again";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("an offset or a limit has counted its rows"), std::string::npos) << e.what();
  }
  ReadOptions negative;
  negative.max_batch_bytes = -1;
  EXPECT_THROW(read_batches(*file, negative), Error);
  ReadOptions tiny;
  tiny.max_batch_bytes = 5;  // less than any string
  try {
    rows_of(*file, tiny);
    ADD_FAILURE() << "a row over the batch byte limit was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("in a single row"), std::string::npos) << e.what();
  }
}

// One row group of `rows` rows: id (required int64) and v (required int32).
std::vector<uint8_t> make_two_int_columns(int64_t rows) {
  Schema schema = make_schema({Field::int64("id").required(), Field::int32("v").required()});
  RecordBatch batch;
  batch.num_rows = rows;
  Array id, v;
  id.name = "id";
  id.type = schema.column(0).type;
  v.name = "v";
  v.type = schema.column(1).type;
  id.length = v.length = rows;
  for (int64_t i = 0; i < rows; ++i) {
    id.values.append_value<int64_t>(i);
    v.values.append_value<int32_t>(static_cast<int32_t>(i % 1000));
  }
  batch.columns = {std::move(id), std::move(v)};
  WriteOptions options;
  options.row_group_rows = rows;
  return testing::file_bytes(schema, batch, options);
}

// Batches much smaller than the default are read a run of them to a task
// (one column over consecutive batches of a row group), not a task a
// batch and column; batches of the default size are not.
TEST(BatchPipeline, SmallBatchesAreReadARunToATask) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  const int64_t groups = static_cast<int64_t>(file->metadata().row_groups.size());
  const int64_t leaves = static_cast<int64_t>(file->schema().num_columns());
  ASSERT_EQ(leaves, 4);
  ReadOptions options;
  options.row_index_column = "row";
  const std::string expected = rows_of(*file, options);
  for (const char* where : {"", "n < 300", "n < 300 AND s LIKE 'value-1%'"}) {
    ReadOptions o = options;
    if (*where) o.filter = filter::parse_filter(where);
    const std::string one_thread = rows_of(*file, o);
    o.threads = 2;
    o.batch_rows = 10;
    ReadStats stats;
    o.stats = &stats;
    EXPECT_EQ(rows_of(*file, o), one_thread) << where;
    // 900-row groups: 90 batches each, 50 in the last.
    const int64_t lanes = ((groups - 1) * 90 + (kRows - (groups - 1) * 900) / 10) * leaves;
    EXPECT_GT(stats.read_tasks, 0) << where;
    EXPECT_LT(stats.read_tasks * 8, lanes) << where << ": " << stats.read_tasks << " tasks for " << lanes << " lanes";
  }
  // Batches of the default size, four to a row group: a task holds at
  // most two lanes (a pair), never a run.
  const std::vector<uint8_t> big = make_two_int_columns(4 * 64 * 1024);
  auto big_file = FileReader::open(io::memory_input(big));
  ReadOptions o;
  o.threads = 2;
  ReadStats stats;
  o.stats = &stats;
  int64_t rows = 0;
  auto source = read_batches(*big_file, o);
  RecordBatch batch;
  while (source->next(batch)) rows += batch.num_rows;
  EXPECT_EQ(rows, 4 * 64 * 1024);
  EXPECT_GE(stats.read_tasks * 2, 4 * 2) << stats.read_tasks << " tasks";
}

TEST(BatchPipeline, AnErrorOnAnotherThreadReachesTheCaller) {
  std::vector<uint8_t> bytes = make_file(small_groups());
  {
    auto file = FileReader::open(io::memory_input(bytes));
    // Garbles the page headers of the string column in the last row group.
    const auto& chunk = file->metadata().row_groups.back().columns[2].meta_data;
    const auto at = static_cast<size_t>(chunk->data_page_offset);
    for (size_t i = 0; i < 16; ++i) bytes[at + i] = 0xff;
  }
  auto file = FileReader::open(io::memory_input(bytes));
  for (int threads : {1, 2, 4}) {
    ReadOptions options;
    options.threads = threads;
    options.batch_rows = 100;
    EXPECT_THROW(rows_of(*file, options), Error) << threads << " threads";
  }
}

TEST(BatchPipeline, AReaderDroppedHalfWayStopsItsTasks) {
  const std::vector<uint8_t> bytes = make_file(small_groups());
  auto file = FileReader::open(io::memory_input(bytes));
  for (int round = 0; round < 20; ++round) {
    ReadOptions options;
    options.threads = 3;
    options.batch_rows = 10 + round;
    if (round % 2) options.filter = filter::parse_filter("n < 700");
    auto source = read_batches(*file, options);
    RecordBatch batch;
    for (int k = 0; k < round % 4 && source->next(batch); ++k) {
    }
  }
}

}  // namespace
}  // namespace parq
