// Tests of LeafReader: read_records and skip_records in any mix give the
// records a whole read gives at those positions, for v1 and v2 pages, with
// and without dictionaries, nulls and lists; pages wholly inside a skip are
// passed over without decompression where their header tells their rows
// (and only there), as the counters and a damaged page show; pages longer
// than the level window read alike, holding a window of their levels.
#include "column/leaf_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"

namespace parq {
namespace {

constexpr int64_t kRows = 3000;
constexpr int64_t kPageRows = 97;

// ---- a file in memory ----

void set_validity(Array& a, const std::vector<bool>& valid) {
  a.length = static_cast<int64_t>(valid.size());
  a.null_count = 0;
  for (bool v : valid) a.null_count += !v;
  if (a.null_count == 0) return;
  a.validity.resize((valid.size() + 7) / 8);
  std::fill(a.validity.data(), a.validity.data() + a.validity.size(), 0);
  for (size_t i = 0; i < valid.size(); ++i)
    if (valid[i]) a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
}

Array leaf_of(const Schema& schema, const std::string& path) {
  Array a;
  a.name = path.substr(path.rfind('.') + 1);
  a.type = schema.column(static_cast<size_t>(schema.find_column(path))).type;
  if (a.type.physical == format::Type::BYTE_ARRAY) a.offsets.append_value<int32_t>(0);
  return a;
}

// Slot i is null when null(i); otherwise it holds bytes(i): the bytes of a
// BYTE_ARRAY or fixed-width value, or a BOOLEAN's bit (its first byte).
template <class Null, class Bytes>
Array column(const Schema& schema, const std::string& path, int64_t n, Null null, Bytes bytes) {
  Array a = leaf_of(schema, path);
  std::vector<bool> valid;
  if (a.type.physical == format::Type::BOOLEAN) a.values.resize(static_cast<size_t>((n + 7) / 8));
  for (int64_t i = 0; i < n; ++i) {
    valid.push_back(!null(i));
    const std::string v = null(i) ? std::string() : bytes(i);
    switch (a.type.physical) {
      case format::Type::BYTE_ARRAY:
        a.values.append(v);
        a.offsets.append_value(static_cast<int32_t>(a.values.size()));
        break;
      case format::Type::BOOLEAN: {
        uint8_t& byte = a.values.data()[i / 8];
        if (i % 8 == 0) byte = 0;
        if (!v.empty() && v[0] != 0) byte |= static_cast<uint8_t>(1u << (i % 8));
        break;
      }
      default: {
        std::string padded = v;
        padded.resize(static_cast<size_t>(a.value_width()));
        a.values.append(padded);
      }
    }
  }
  set_validity(a, valid);
  return a;
}

std::string le64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

Schema test_schema() {
  return make_schema({
      Field::int64("id").required(),
      Field::int64("v"),
      Field::string("s"),
      Field::boolean("b"),
      Field::fixed("f", 3),
      Field::list("tags", Field::string("element")),
  });
}

RecordBatch test_batch(const Schema& s, int64_t rows = kRows) {
  RecordBatch b;
  b.num_rows = rows;
  auto never = [](int64_t) { return false; };
  b.columns.push_back(column(s, "id", rows, never, [](int64_t i) { return le64(i); }));
  b.columns.push_back(
      column(s, "v", rows, [](int64_t i) { return i % 7 == 3; }, [](int64_t i) { return le64(i % 50); }));
  b.columns.push_back(column(
      s, "s", rows, [](int64_t i) { return i % 5 == 1; },
      [](int64_t i) { return i % 3 == 0 ? "unique-" + std::to_string(i * 31) : "str" + std::to_string(i % 30); }));
  // Whole pages of nulls as well as scattered ones.
  b.columns.push_back(column(
      s, "b", rows, [](int64_t i) { return i % 9 == 0 || (i >= 600 && i < 900); },
      [](int64_t i) { return std::string(1, static_cast<char>(i % 4 == 1)); }));
  b.columns.push_back(column(
      s, "f", rows, [](int64_t i) { return i % 13 == 4; },
      [](int64_t i) { return std::string{static_cast<char>(i), static_cast<char>(i / 256), 'x'}; }));
  // tags: empty, short and null lists, with a null element now and then.
  Array list;
  list.kind = ArrayKind::kList;
  list.name = "tags";
  std::vector<bool> list_valid;
  std::vector<std::optional<std::string>> elements;
  list.offsets.append_value<int32_t>(0);
  for (int64_t i = 0; i < rows; ++i) {
    const bool valid = i % 11 != 5;
    list_valid.push_back(valid);
    const int64_t size = valid ? (i * 7) % 5 : 0;
    for (int64_t k = 0; k < size; ++k)
      elements.push_back((i + k) % 6 == 2 ? std::nullopt
                                          : std::optional<std::string>("t" + std::to_string((i + k) % 40)));
    list.offsets.append_value(static_cast<int32_t>(elements.size()));
  }
  set_validity(list, list_valid);
  list.children.push_back(column(
      s, "tags.list.element", static_cast<int64_t>(elements.size()),
      [&](int64_t i) { return !elements[static_cast<size_t>(i)]; },
      [&](int64_t i) { return *elements[static_cast<size_t>(i)]; }));
  b.columns.push_back(std::move(list));
  return b;
}

Buffer written(const Schema& s, const RecordBatch& batch, const WriteOptions& o) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), s, o);
  writer->write(batch);
  writer->close();
  return sink->take();
}

Buffer write_file(int page_version, bool dictionary, int64_t rows = kRows, int64_t page_rows = kPageRows) {
  const Schema s = test_schema();
  WriteOptions o;
  o.page_version = page_version;
  o.dictionary = dictionary;
  o.page_rows = page_rows;
  if (page_rows > kPageRows) o.page_bytes = int64_t{1} << 30;
  return written(s, test_batch(s, rows), o);
}

// ---- records as comparable values ----

// An entry: its levels and, when defined, its value's bytes.
struct Entry {
  int16_t def;
  int16_t rep;
  std::string value;
  bool operator==(const Entry&) const = default;
};
using Record = std::vector<Entry>;

size_t value_width(const ColumnDescriptor& c) {
  switch (c.type.physical) {
    case format::Type::BOOLEAN:
      return 1;
    case format::Type::INT64:
      return 8;
    default:
      return static_cast<size_t>(c.type.type_length);
  }
}

std::vector<Record> records_of(const ColumnDescriptor& c, const LeafBatch& batch) {
  std::vector<Record> out;
  size_t value = 0;
  for (int64_t i = 0; i < batch.num_entries; ++i) {
    Entry e;
    e.def = batch.def.empty() ? c.max_definition_level : batch.def_levels()[i];
    e.rep = c.max_repetition_level > 0 ? batch.rep_levels()[i] : 0;
    if (e.def == c.max_definition_level) {
      if (c.type.physical == format::Type::BYTE_ARRAY) {
        e.value = std::string(batch.values.bytes.value(value));
      } else {
        const size_t w = value_width(c);
        e.value.assign(reinterpret_cast<const char*>(batch.values.fixed.data()) + value * w, w);
      }
      ++value;
    }
    if (e.rep == 0) out.emplace_back();
    out.back().push_back(std::move(e));
  }
  EXPECT_EQ(value, static_cast<size_t>(batch.values.count));
  return out;
}

struct TestFile {
  int page_version;
  bool dictionary;
  Buffer bytes;
  std::unique_ptr<FileReader> file;
};

std::vector<TestFile> test_files() {
  std::vector<TestFile> out;
  for (int version : {1, 2})
    for (bool dictionary : {false, true}) {
      TestFile s{version, dictionary, write_file(version, dictionary), nullptr};
      s.file = FileReader::open(io::memory_input(s.bytes.span()));
      out.push_back(std::move(s));
    }
  return out;
}

std::unique_ptr<LeafReader> open_leaf(const FileReader& file, size_t column, const PageReaderOptions& options = {}) {
  return std::make_unique<LeafReader>(file.input(), file.metadata(), 0, file.schema().column(column), options);
}

std::string label(const TestFile& s, const ColumnDescriptor& c) {
  return "v" + std::to_string(s.page_version) + (s.dictionary ? " dictionary " : " plain ") + c.dotted_path();
}

struct WholeRead {
  std::vector<Record> records;
  LeafReadCounters counters;
};

WholeRead read_whole(const FileReader& file, size_t column, int64_t rows = kRows) {
  auto reader = open_leaf(file, column);
  LeafBatch batch;
  EXPECT_EQ(reader->read_records(rows + 1, batch), rows);
  return {records_of(file.schema().column(column), batch), reader->counters()};
}

// Whether the column's pages tell their rows in their headers.
bool pages_tell_rows(const TestFile& s, const ColumnDescriptor& c) {
  return c.max_repetition_level == 0 || s.page_version == 2;
}

TEST(LeafReader, ReadsAndSkipsInAnyMixMatchAWholeRead) {
  std::mt19937 rng(3);
  for (const TestFile& s : test_files())
    for (size_t col = 0; col < s.file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = s.file->schema().column(col);
      const WholeRead whole = read_whole(*s.file, col);
      ASSERT_EQ(whole.records.size(), static_cast<size_t>(kRows)) << label(s, c);
      for (int trial = 0; trial < 6; ++trial) {
        auto reader = open_leaf(*s.file, col);
        int64_t at = 0;
        while (at < kRows) {
          // Steps of a page, steps to a page boundary, and any others.
          const uint32_t pick = rng() % 6;
          const int64_t n = pick == 0 ? kPageRows : pick == 1 ? 2 * kPageRows - at % kPageRows : rng() % 250;
          if (rng() % 4 == 0) {
            // What batch_reader does between batches: stage the next
            // page and run its decompression.
            PageDecompression task;
            if (reader->stage_page(task)) run_decompressions({&task, 1});
          }
          if (rng() % 2 == 0) {
            const int64_t got = reader->skip_records(n);
            ASSERT_EQ(got, std::min(n, kRows - at)) << label(s, c) << " at " << at;
            at += got;
          } else {
            LeafBatch batch;
            const int64_t got = reader->read_records(n, batch);
            ASSERT_EQ(got, std::min(n, kRows - at)) << label(s, c) << " at " << at;
            const std::vector<Record> records = records_of(c, batch);
            ASSERT_EQ(records.size(), static_cast<size_t>(got)) << label(s, c);
            for (int64_t i = 0; i < got; ++i)
              ASSERT_EQ(records[static_cast<size_t>(i)], whole.records[static_cast<size_t>(at + i)])
                  << label(s, c) << " record " << at + i << " trial " << trial;
            at += got;
          }
        }
        EXPECT_EQ(reader->skip_records(5), 0);
        LeafBatch rest;
        EXPECT_EQ(reader->read_records(5, rest), 0);
        const LeafReadCounters& k = reader->counters();
        EXPECT_EQ(k.values_decoded + k.values_skipped, whole.counters.values_decoded) << label(s, c);
        EXPECT_EQ(k.pages_decompressed + k.pages_skipped, whole.counters.pages_decompressed) << label(s, c);
        if (!pages_tell_rows(s, c)) {
          EXPECT_EQ(k.pages_skipped, 0) << label(s, c);
        }
      }
    }
}

// Pages longer than the level window (one page per column; the list
// column's holds about twice as many entries as rows): reads and skips in
// any mix, short and past a window, give the records a whole read gives.
TEST(LeafReader, PagesLongerThanTheLevelWindowReadAndSkipInAnyMix) {
  const int64_t rows = 3 * PageLevels::kWindow + 1234;
  std::mt19937 rng(5);
  for (int version : {1, 2}) {
    const Buffer bytes = write_file(version, false, rows, rows);
    const auto file = FileReader::open(io::memory_input(bytes.span()));
    for (size_t col = 0; col < file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = file->schema().column(col);
      const std::string where = "v" + std::to_string(version) + " " + c.dotted_path();
      const WholeRead whole = read_whole(*file, col, rows);
      ASSERT_EQ(whole.counters.pages_decompressed, 1) << where;
      auto reader = open_leaf(*file, col);
      int64_t at = 0;
      while (at < rows) {
        const int64_t n = rng() % 6 == 0 ? PageLevels::kWindow + static_cast<int64_t>(rng() % 5000)
                                         : 1 + static_cast<int64_t>(rng() % 4000);
        if (rng() % 2 == 0) {
          const int64_t got = reader->skip_records(n);
          ASSERT_EQ(got, std::min(n, rows - at)) << where << " at " << at;
          at += got;
          continue;
        }
        LeafBatch batch;
        const int64_t got = reader->read_records(n, batch);
        ASSERT_EQ(got, std::min(n, rows - at)) << where << " at " << at;
        const std::vector<Record> records = records_of(c, batch);
        ASSERT_EQ(records.size(), static_cast<size_t>(got)) << where;
        for (int64_t i = 0; i < got; ++i)
          ASSERT_EQ(records[static_cast<size_t>(i)], whole.records[static_cast<size_t>(at + i)])
              << where << " record " << at + i;
        at += got;
      }
      EXPECT_EQ(reader->skip_records(5), 0) << where;
    }
  }
}

// A page of two million nulls takes a few bytes of levels: a reader going
// through it a batch at a time holds a window of its levels, where the
// whole page's would take four megabytes.
TEST(LeafReader, AReaderHoldsAWindowOfALongPagesLevels) {
  const int64_t rows = 2'000'000;
  const Schema s = make_schema({Field::int64("n")});
  RecordBatch b;
  b.num_rows = rows;
  b.columns.push_back(column(s, "n", rows, [](int64_t) { return true; }, [](int64_t) { return std::string(); }));
  WriteOptions o;
  o.dictionary = false;
  o.page_rows = rows;
  o.page_bytes = int64_t{1} << 30;
  o.row_group_rows = rows;
  for (int version : {1, 2}) {
    o.page_version = version;
    const Buffer bytes = written(s, b, o);
    const auto file = FileReader::open(io::memory_input(bytes.span()));
    auto reader = open_leaf(*file, 0);
    int64_t at = 0;
    while (at < rows) {
      LeafBatch batch;
      const int64_t got = reader->read_records(65536, batch);
      ASSERT_EQ(got, std::min<int64_t>(65536, rows - at)) << version;
      ASSERT_EQ(batch.values.count, 0) << version;
      ASSERT_EQ(std::count(batch.def_levels(), batch.def_levels() + got, 0), got) << version;
      EXPECT_LE(reader->held_bytes(), 1 << 20) << version << " at " << at;
      at += got;
      if (at == 6 * 65536) at += reader->skip_records(rows / 2);
    }
    EXPECT_EQ(reader->counters().pages_decompressed, 1) << version;
  }
}

// One long skip passes over every page it covers on the header alone where
// the header tells the page's rows; the rest then reads as a whole read.
TEST(LeafReader, ALongSkipPassesOverWholePages) {
  for (const TestFile& s : test_files())
    for (size_t col = 0; col < s.file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = s.file->schema().column(col);
      const WholeRead whole = read_whole(*s.file, col);
      const int64_t pages = whole.counters.pages_decompressed;
      ASSERT_EQ(pages, (kRows + kPageRows - 1) / kPageRows) << label(s, c);
      EXPECT_EQ(whole.counters.pages_skipped, 0);
      EXPECT_EQ(whole.counters.values_skipped, 0);

      auto reader = open_leaf(*s.file, col);
      const int64_t skip = 20 * kPageRows + 10;
      ASSERT_EQ(reader->skip_records(skip), skip) << label(s, c);
      const LeafReadCounters after_skip = reader->counters();
      if (pages_tell_rows(s, c)) {
        EXPECT_EQ(after_skip.pages_skipped, 20) << label(s, c);
        EXPECT_EQ(after_skip.pages_decompressed, 1) << label(s, c);  // the one the skip ends in
      } else {
        EXPECT_EQ(after_skip.pages_skipped, 0) << label(s, c);
        EXPECT_EQ(after_skip.pages_decompressed, 21) << label(s, c);
      }
      EXPECT_EQ(after_skip.values_decoded, 0);
      EXPECT_GT(after_skip.values_skipped, skip - 1);

      LeafBatch batch;
      ASSERT_EQ(reader->read_records(kRows, batch), kRows - skip);
      const std::vector<Record> records = records_of(c, batch);
      for (size_t i = 0; i < records.size(); ++i)
        ASSERT_EQ(records[i], whole.records[static_cast<size_t>(skip) + i]) << label(s, c) << " record " << i;
      EXPECT_EQ(reader->counters().pages_decompressed + reader->counters().pages_skipped, pages);
    }
}

// A skip that ends exactly where a page ends stops there: the page after it
// is still whole, for a later skip to pass over.
TEST(LeafReader, SkipsEndingOnPageBoundariesLeaveTheNextPageUntouched) {
  for (const TestFile& s : test_files())
    for (size_t col = 0; col < s.file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = s.file->schema().column(col);
      if (!pages_tell_rows(s, c)) continue;
      auto reader = open_leaf(*s.file, col);
      for (int i = 0; i < 10; ++i) ASSERT_EQ(reader->skip_records(kPageRows), kPageRows) << label(s, c);
      EXPECT_EQ(reader->counters().pages_skipped, 10) << label(s, c);
      EXPECT_EQ(reader->counters().pages_decompressed, 0) << label(s, c);
      // Into a page, then to its end: the page after it stays whole.
      ASSERT_EQ(reader->skip_records(5), 5);
      ASSERT_EQ(reader->skip_records(kPageRows - 5), kPageRows - 5);
      EXPECT_EQ(reader->counters().pages_decompressed, 1) << label(s, c);
      EXPECT_EQ(reader->skip_records(kRows), kRows - 11 * kPageRows);
      EXPECT_EQ(reader->counters().pages_decompressed, 1) << label(s, c);
      EXPECT_EQ(reader->counters().pages_skipped, (kRows + kPageRows - 1) / kPageRows - 1) << label(s, c);
    }
}

// Optional INT64 "w" with nulls in every other page: pages whose levels are
// one run and pages whose levels are not, in turn.
Buffer nulls_in_odd_pages() {
  const Schema s = make_schema({Field::int64("w")});
  RecordBatch b;
  b.num_rows = kRows;
  b.columns.push_back(column(
      s, "w", kRows, [](int64_t i) { return (i / kPageRows) % 2 == 1 && i % 5 == 0; },
      [](int64_t i) { return le64(i * 3); }));
  WriteOptions o;
  o.dictionary = false;
  o.page_rows = kPageRows;
  return written(s, b, o);
}

// PLAIN fixed-width values of a batch are a view of their decompressed
// page, also those of a batch that goes on into the next page: the page
// reader puts that page's values right behind the batch's (in its value
// stream), writing the page's levels over the batch's last values while it
// reads them and moving the values into place when the levels were not
// the one run it expected ("w"). Every batch stays as a whole read gives
// it, held or not. v1 pages compress; these ids compress too little for
// the writer to compress v2 pages, and a page stored uncompressed in an
// input in memory has no buffer to view: a batch across such pages is
// decoded into room reserved for all its values at once, never grown.
// Column "v" has nulls in every page, whose values cannot be viewed
// where they lie (after levels of an unexpected length): only the rows
// are checked. A stream that holds a few pages only (value_stream_bytes)
// is followed by another, and a batch across the two copies.
TEST(LeafReader, PlainNumbersAreViewsAlsoAcrossPagesOfTheValueStream) {
  struct Case {
    Buffer bytes;
    size_t column;
    enum { kViews, kReserved, kSomeViews, kRowsOnly } expect;
    size_t stream_bytes = PageReaderOptions{}.value_stream_bytes;
  };
  std::vector<Case> cases;
  cases.push_back({write_file(1, false), 0, Case::kViews});      // "id": required INT64
  cases.push_back({write_file(2, false), 0, Case::kReserved});   // the same, stored uncompressed
  cases.push_back({write_file(1, false), 1, Case::kRowsOnly});   // "v": optional INT64
  cases.push_back({nulls_in_odd_pages(), 0, Case::kSomeViews});  // "w"
  cases.push_back({write_file(1, false), 0, Case::kSomeViews, 4 * kPageRows * 8});
  for (const Case& test : cases) {
    auto file = FileReader::open(io::memory_input(test.bytes.span()));
    const ColumnDescriptor& c = file->schema().column(test.column);
    const std::vector<Record> whole = read_whole(*file, test.column).records;
    PageReaderOptions options;
    options.value_stream_bytes = test.stream_bytes;
    auto reader = open_leaf(*file, test.column, options);
    int spanning_copies = 0;
    std::vector<LeafBatch> held;
    std::vector<int64_t> starts;
    int64_t at = 0;
    int spanning_views = 0;
    // Inside the first page; to its end; two pages from a boundary; inside
    // a page from its boundary; from inside a page into the next; across
    // several.
    for (int64_t rows : {int64_t{40}, kPageRows - 40, 2 * kPageRows, int64_t{10}, kPageRows, 5 * kPageRows + 3}) {
      LeafBatch batch;
      ASSERT_EQ(reader->read_records(rows, batch), rows) << c.dotted_path();
      const bool inside = at / kPageRows == (at + rows - 1) / kPageRows;
      const std::string where = c.dotted_path() + ", rows " + std::to_string(at) + "+" + std::to_string(rows);
      if (test.expect == Case::kViews || test.expect == Case::kReserved) {
        EXPECT_EQ(batch.values.fixed.is_view(), test.expect == Case::kViews) << where;
        EXPECT_EQ(batch.values.fixed.size(), static_cast<size_t>(rows) * 8) << where;
      }
      if (test.expect == Case::kReserved && !inside) {
        Buffer reserved;
        reserved.reserve(static_cast<size_t>(rows) * 8);
        EXPECT_EQ(batch.values.fixed.capacity(), reserved.capacity()) << where;
      }
      spanning_views += !inside && batch.values.fixed.is_view();
      spanning_copies += !inside && !batch.values.fixed.is_view();
      const std::vector<Record> records = records_of(c, batch);
      ASSERT_EQ(records.size(), static_cast<size_t>(rows)) << where;
      for (size_t i = 0; i < records.size(); ++i)
        ASSERT_EQ(records[i], whole[static_cast<size_t>(at) + i]) << where << ", row " << i;
      held.push_back(std::move(batch));
      starts.push_back(at);
      at += rows;
    }
    if (test.expect == Case::kSomeViews) {
      EXPECT_GE(spanning_views, 1) << c.dotted_path();
      if (c.max_definition_level == 0) {
        EXPECT_GE(spanning_copies, 1) << c.dotted_path();
      }
    }
    for (size_t k = 0; k < held.size(); ++k) {
      const std::vector<Record> records = records_of(c, held[k]);
      for (size_t i = 0; i < records.size(); ++i)
        ASSERT_EQ(records[i], whole[static_cast<size_t>(starts[k]) + i]) << c.dotted_path() << ", held batch " << k;
    }
  }
}

// The capacity reserve() gives `rows` byte-array entries of `mean` bytes
// (per entry, nulls too).
size_t byte_array_room(double mean, int64_t rows) {
  const double per_value = std::max(mean * 1.0625, std::min(32.0, 2 * mean));
  Buffer reserved;
  reserved.reserve(static_cast<size_t>(per_value * static_cast<double>(rows)));
  return reserved.capacity();
}

// The first batch across pages of a fresh reader of column "s" (optional
// BYTE_ARRAY, PLAIN) in a file with `metadata`: its data buffer's capacity,
// after checking that its records are those of a whole read.
size_t first_batch_room(const FileReader& file, const format::FileMetaData& metadata, int64_t rows) {
  const size_t col = 2;
  const ColumnDescriptor& c = file.schema().column(col);
  EXPECT_EQ(c.type.physical, format::Type::BYTE_ARRAY);
  const std::vector<Record> whole = read_whole(file, col).records;
  LeafReader reader(file.input(), metadata, 0, c, {});
  LeafBatch batch;
  EXPECT_EQ(reader.read_records(rows, batch), rows);
  const std::vector<Record> records = records_of(c, batch);
  EXPECT_EQ(records.size(), static_cast<size_t>(rows));
  for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i], whole[i]) << "row " << i;
  return batch.values.bytes.data_buffer().capacity();
}

TEST(LeafReader, AFirstBatchAcrossPagesReservesByteArraysByTheMetadata) {
  Buffer bytes = write_file(1, false);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  const format::ColumnMetaData& md = *file->metadata().row_groups[0].columns[2].meta_data;
  ASSERT_TRUE(md.size_statistics && md.size_statistics->unencoded_byte_array_data_bytes);
  const double mean =
      static_cast<double>(*md.size_statistics->unencoded_byte_array_data_bytes) / static_cast<double>(md.num_values);
  const int64_t rows = 2 * kPageRows + 5;
  EXPECT_EQ(first_batch_room(*file, file->metadata(), rows), byte_array_room(mean, rows));
}

// Without the writer's count the estimate is the chunk's uncompressed size
// less PLAIN's 4-byte lengths; a size past reason reserves no more than
// the cap of 64 bytes an entry. Either way the batch reads the same rows.
TEST(LeafReader, AFirstBatchWithoutByteCountsReservesByTheChunkSizeCapped) {
  Buffer bytes = write_file(1, false);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  const int64_t rows = 2 * kPageRows + 5;
  format::FileMetaData metadata = file->metadata();
  format::ColumnMetaData& md = *metadata.row_groups[0].columns[2].meta_data;
  md.size_statistics.reset();
  const double mean =
      static_cast<double>(md.total_uncompressed_size - 4 * md.num_values) / static_cast<double>(md.num_values);
  ASSERT_LT(mean, 64);
  EXPECT_EQ(first_batch_room(*file, metadata, rows), byte_array_room(mean, rows));
  md.total_uncompressed_size = int64_t{1} << 60;
  EXPECT_EQ(first_batch_room(*file, metadata, rows), byte_array_room(64, rows));
}

// The file offset and size of the stored payload of data page `index`.
std::pair<size_t, size_t> data_page_payload(const FileReader& file, size_t column, size_t index) {
  PageReader pages(file.input(), file.metadata(), 0, column, "c");
  PageInfo page;
  size_t seen = 0;
  while (pages.next(page)) {
    if (page.header.type == format::PageType::DICTIONARY_PAGE) continue;
    if (seen++ == index) return {static_cast<size_t>(page.header_offset) + page.header_size, page.payload.size()};
  }
  ADD_FAILURE() << "no data page " << index;
  return {0, 0};
}

// A page passed over is never decompressed: damaging its bytes changes
// nothing for a skip over it, while a read of it fails.
TEST(LeafReader, APagePassedOverIsNeverDecompressed) {
  for (int version : {1, 2}) {
    Buffer bytes = write_file(version, false);
    const size_t col = 2;  // "s": optional strings, SNAPPY
    std::vector<Record> whole;
    std::pair<size_t, size_t> payload;
    {
      auto file = FileReader::open(io::memory_input(bytes.span()));
      whole = read_whole(*file, col).records;
      payload = data_page_payload(*file, col, 3);
    }
    ASSERT_GT(payload.second, 16u);
    // Past a v2 page's levels (stored uncompressed): its compressed values.
    std::fill(bytes.data() + payload.first + payload.second / 2, bytes.data() + payload.first + payload.second, 0xff);
    auto file = FileReader::open(io::memory_input(bytes.span()));
    PageReaderOptions no_crc;
    no_crc.verify_crc = false;

    auto skipping = open_leaf(*file, col, no_crc);
    ASSERT_EQ(skipping->skip_records(4 * kPageRows + 3), 4 * kPageRows + 3) << version;
    EXPECT_EQ(skipping->counters().pages_skipped, 4);
    LeafBatch batch;
    ASSERT_EQ(skipping->read_records(100, batch), 100);
    const std::vector<Record> records = records_of(file->schema().column(col), batch);
    for (size_t i = 0; i < records.size(); ++i) ASSERT_EQ(records[i], whole[4 * kPageRows + 3 + i]) << version;

    auto reading = open_leaf(*file, col, no_crc);
    LeafBatch all;
    EXPECT_THROW(reading->read_records(kRows, all), Error) << version;
  }
}

// A page's levels are decoded into buffers sized by its count of values,
// so a header that claims more values than the footer gives both its
// column chunk (values) and its row group (rows) is refused before
// anything is sized by it. (A footer may say less than the pages hold in
// one of the two; WildFiles reads such files.) "id" (values are rows) and
// "tags.list.element" (values beyond rows), on v1 and v2 pages.
TEST(LeafReader, APageClaimingMoreThanItsChunkAndRowGroupIsRefused) {
  for (int version : {1, 2})
    for (size_t column : {size_t{0}, size_t{5}}) {
      Buffer bytes = write_file(version, false);
      auto file = FileReader::open(io::memory_input(bytes.span()));
      const ColumnDescriptor& c = file->schema().column(column);
      const std::string where = c.dotted_path() + ", v" + std::to_string(version);
      PageReader pages(file->input(), file->metadata(), 0, column, c.dotted_path());
      PageInfo first;
      do {
        ASSERT_TRUE(pages.next(first)) << where;
      } while (first.header.type == format::PageType::DICTIONARY_PAGE);
      const int64_t values =
          version == 1 ? first.header.data_page_header->num_values : first.header.data_page_header_v2->num_values;
      // A footer that says a little less than the first page holds.
      format::FileMetaData metadata = file->metadata();
      int64_t& rows = metadata.row_groups[0].num_rows;
      rows = std::min(rows, values - 1);
      metadata.row_groups[0].columns[column].meta_data->num_values = values - 1;
      LeafReader reader(file->input(), metadata, 0, c, {});
      LeafBatch batch;
      try {
        reader.read_records(1, batch);
        ADD_FAILURE() << where << ": read";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kCorrupt) << e.what();
        EXPECT_NE(std::string(e.what()).find("page 0 "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("the page holds " + std::to_string(values) +
                                             " values, more than its column chunk (" + std::to_string(values - 1) +
                                             " values) and row group (" + std::to_string(rows) + " rows) hold"),
                  std::string::npos)
            << e.what();
      }
      // The footer as written reads.
      LeafReader whole(file->input(), file->metadata(), 0, c, {});
      EXPECT_EQ(whole.read_records(1, batch), 1) << where;
    }
}

// A damaged page that a batch's view runs on into (decompressed behind it
// in the value stream, over the batch's last values) fails the read with
// the page's place, and the batches handed out before, views of the same
// stream, stay as they were: "id" (required, no levels) and "w" (levels
// written over the batch's last values while they are read).
TEST(LeafReader, ADamagedPageBehindAViewFailsAndLeavesEarlierBatchesWhole) {
  struct Case {
    Buffer bytes;
    size_t column;
  };
  std::vector<Case> cases;
  cases.push_back({write_file(1, false), 0});
  cases.push_back({nulls_in_odd_pages(), 0});
  for (Case& test : cases) {
    std::vector<Record> whole;
    std::pair<size_t, size_t> payload;
    {
      auto file = FileReader::open(io::memory_input(test.bytes.span()));
      whole = read_whole(*file, test.column).records;
      payload = data_page_payload(*file, test.column, 2);
    }
    ASSERT_GT(payload.second, 16u);
    std::fill(test.bytes.data() + payload.first + payload.second / 2,
              test.bytes.data() + payload.first + payload.second, 0xff);
    auto file = FileReader::open(io::memory_input(test.bytes.span()));
    const ColumnDescriptor& c = file->schema().column(test.column);
    PageReaderOptions no_crc;
    no_crc.verify_crc = false;
    auto reader = open_leaf(*file, test.column, no_crc);
    // Inside the first page, then from there into the second (a view over
    // both), then on from inside the second into the damaged third.
    std::vector<LeafBatch> held(2);
    ASSERT_EQ(reader->read_records(40, held[0]), 40) << c.dotted_path();
    ASSERT_EQ(reader->read_records(kPageRows, held[1]), kPageRows) << c.dotted_path();
    if (c.max_definition_level == 0) {
      EXPECT_TRUE(held[1].values.fixed.is_view()) << c.dotted_path();
    }
    LeafBatch failing;
    try {
      reader->read_records(kPageRows, failing);
      ADD_FAILURE() << c.dotted_path() << ": the damaged page was read";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCorrupt) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.dotted_path()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("page 2 "), std::string::npos) << e.what();
    }
    int64_t at = 0;
    for (size_t k = 0; k < held.size(); ++k) {
      const std::vector<Record> records = records_of(c, held[k]);
      for (size_t i = 0; i < records.size(); ++i)
        ASSERT_EQ(records[i], whole[static_cast<size_t>(at) + i]) << c.dotted_path() << ", held batch " << k;
      at += static_cast<int64_t>(records.size());
    }
  }
}

}  // namespace
}  // namespace parq
