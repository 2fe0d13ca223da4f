// FileWriter: hand-built batches (nulls, nesting, every physical type) read
// back as written; row group and page limits; the dictionary fallback; the
// metadata the footer records; failures that leave no file behind.
#include "parq/file/file_writer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "parq/arrow/c_export.h"
#include "parq/arrow/c_import.h"
#include "parq/column/page_reader.h"
#include "parq/compression/codec.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/schema/field.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

namespace fs = std::filesystem;
using format::Encoding;

// ---- building arrays ----

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

template <class T>
Array leaf(const Schema& schema, const std::string& path, const std::vector<std::optional<T>>& values) {
  Array a;
  a.name = path.substr(path.rfind('.') + 1);
  a.type = schema.column(static_cast<size_t>(schema.find_column(path))).type;
  std::vector<bool> valid;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    a.values.append_value(v.value_or(T{}));
  }
  set_validity(a, valid);
  return a;
}

Array strings(const Schema& schema, const std::string& path, const std::vector<std::optional<std::string>>& values) {
  Array a;
  a.name = path.substr(path.rfind('.') + 1);
  a.type = schema.column(static_cast<size_t>(schema.find_column(path))).type;
  std::vector<bool> valid;
  a.offsets.append_value<int32_t>(0);
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    if (v) a.values.append(*v);
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  set_validity(a, valid);
  return a;
}

// A list of `child` with `sizes[i]` elements per slot, nullopt for a null list.
Array list_of(const std::string& name, Array child, const std::vector<std::optional<int32_t>>& sizes) {
  Array a;
  a.kind = ArrayKind::kList;
  a.name = name;
  std::vector<bool> valid;
  int32_t at = 0;
  a.offsets.append_value(at);
  for (const auto& s : sizes) {
    valid.push_back(s.has_value());
    at += s.value_or(0);
    a.offsets.append_value(at);
  }
  set_validity(a, valid);
  a.children.push_back(std::move(child));
  return a;
}

Array struct_of(const std::string& name, std::vector<Array> children, const std::vector<bool>& valid) {
  Array a;
  a.kind = ArrayKind::kStruct;
  a.name = name;
  set_validity(a, valid);
  a.children = std::move(children);
  return a;
}

std::string rows_of(const FileReader& file) {
  auto source = read_batches(file);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

std::string rows_of(const RecordBatch& batch) {
  std::string out;
  text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

Buffer write_to_memory(const Schema& schema, const std::vector<RecordBatch>& batches,
                       const WriteOptions& options = {}) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  for (const auto& b : batches) writer->write(b);
  writer->close();
  return sink->take();
}

// The reader keeps a view of the bytes: they must outlive it.
std::unique_ptr<FileReader> open_bytes(const Buffer& bytes) { return FileReader::open(io::memory_input(bytes.span())); }

// ---- a nested schema with nulls at every level ----

Schema nested_schema() {
  return make_schema({
      Field::int64("id").required(),
      Field::string("name"),
      Field::list("tags", Field::string("element")),
      Field::group("point", {Field::float64("x"), Field::float64("y").required()}),
      Field::list("matrix", Field::list("element", Field::int32("element"))),
  });
}

RecordBatch nested_batch(const Schema& s) {
  RecordBatch b;
  b.num_rows = 4;
  b.columns.push_back(leaf<int64_t>(s, "id", {1, 2, 3, 4}));
  b.columns.push_back(strings(s, "name", {"a", std::nullopt, "", "dd"}));
  // tags: ["x","y"], null, [], [null]
  b.columns.push_back(
      list_of("tags", strings(s, "tags.list.element", {"x", "y", std::nullopt}), {2, std::nullopt, 0, 1}));
  // point: {1.5, 2}, null, {null, 3}, {4, 5}
  Array x = leaf<double>(s, "point.x", {1.5, 0, std::nullopt, 4});
  Array y = leaf<double>(s, "point.y", {2, 0, 3, 5});
  b.columns.push_back(struct_of("point", {std::move(x), std::move(y)}, {true, false, true, true}));
  // matrix: [[1,2],[3]], [[]], null, [[null], [], [4]]
  Array cells = leaf<int32_t>(s, "matrix.list.element.list.element", {1, 2, 3, std::nullopt, 4});
  Array inner = list_of("element", std::move(cells), {2, 1, 0, 1, 0, 1});
  b.columns.push_back(list_of("matrix", std::move(inner), {2, 1, std::nullopt, 3}));
  return b;
}

TEST(FileWriter, NestedRowsWithNullsReadBack) {
  Schema s = nested_schema();
  RecordBatch b = nested_batch(s);
  const std::string expected =
      "{\"id\":1,\"name\":\"a\",\"tags\":[\"x\",\"y\"],\"point\":{\"x\":1.5,\"y\":2},\"matrix\":[[1,2],[3]]}\n"
      "{\"id\":2,\"name\":null,\"tags\":null,\"point\":null,\"matrix\":[[]]}\n"
      "{\"id\":3,\"name\":\"\",\"tags\":[],\"point\":{\"x\":null,\"y\":3},\"matrix\":null}\n"
      "{\"id\":4,\"name\":\"dd\",\"tags\":[null],\"point\":{\"x\":4,\"y\":5},\"matrix\":[[null],[],[4]]}\n";
  ASSERT_EQ(rows_of(b), expected);
  for (int version : {1, 2})
    for (bool dictionary : {true, false}) {
      WriteOptions o;
      o.page_version = version;
      o.dictionary = dictionary;
      o.page_rows = 1;  // a page per row: levels cut at every row start
      const Buffer bytes = write_to_memory(s, {b, b}, o);
      auto file = open_bytes(bytes);
      EXPECT_EQ(rows_of(*file), expected + expected) << version << dictionary;
    }
}

TEST(FileWriter, FooterDescribesTheChunks) {
  Schema s = nested_schema();
  WriteOptions o;
  o.key_value_metadata = {{"origin", std::string("test")}};
  auto bytes = write_to_memory(s, {nested_batch(s)}, o);
  auto file = open_bytes(bytes);
  const auto& m = file->metadata();
  EXPECT_EQ(m.num_rows, 4);
  EXPECT_EQ(m.created_by.value_or(""), default_created_by());
  ASSERT_TRUE(m.key_value_metadata);
  EXPECT_EQ(m.key_value_metadata->at(0).key, "origin");
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_TRUE(m.column_orders);
  EXPECT_EQ(m.column_orders->size(), s.num_columns());
  const auto& id = *m.row_groups[0].columns[0].meta_data;
  EXPECT_EQ(id.codec, format::CompressionCodec::SNAPPY);
  EXPECT_EQ(id.num_values, 4);
  ASSERT_TRUE(id.statistics);
  EXPECT_EQ(id.statistics->null_count.value_or(-1), 0);
  ASSERT_TRUE(id.dictionary_page_offset);
  EXPECT_EQ(*id.dictionary_page_offset, 4);  // right after PAR1
  EXPECT_NE(std::find(id.encodings.begin(), id.encodings.end(), Encoding::RLE_DICTIONARY), id.encodings.end());
  const auto& tags = *m.row_groups[0].columns[2].meta_data;
  EXPECT_EQ(tags.num_values, 5);  // x, y | null list | empty list | null element
  EXPECT_EQ(tags.statistics->null_count.value_or(-1), 3);
  ASSERT_TRUE(tags.size_statistics);
  EXPECT_EQ(tags.size_statistics->unencoded_byte_array_data_bytes.value_or(-1), 2);
  EXPECT_EQ(tags.size_statistics->definition_level_histogram->size(), 4u);
  for (const auto& c : m.row_groups[0].columns) {
    EXPECT_TRUE(c.column_index_offset.has_value());
    EXPECT_TRUE(c.offset_index_offset.has_value());
    EXPECT_LT(static_cast<size_t>(*c.offset_index_offset), bytes.size());
  }
}

TEST(FileWriter, RowGroupAndPageLimits) {
  Schema s = make_schema({Field::int64("v").required()});
  RecordBatch b;
  b.num_rows = 10000;
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < 10000; ++i) values.push_back(i);
  b.columns.push_back(leaf<int64_t>(s, "v", values));
  WriteOptions o;
  o.row_group_rows = 3000;
  o.page_rows = 500;
  const Buffer bytes = write_to_memory(s, {b}, o);
  auto file = open_bytes(bytes);
  const auto& m = file->metadata();
  ASSERT_EQ(m.row_groups.size(), 4u);
  EXPECT_EQ(m.row_groups[0].num_rows, 3000);
  EXPECT_EQ(m.row_groups[3].num_rows, 1000);
  PageReader pages(file->input(), m, 0, 0, "v");
  PageInfo page;
  int data_pages = 0;
  while (pages.next(page))
    if (page.header.data_page_header) {
      ++data_pages;
      EXPECT_EQ(page.header.data_page_header->num_values, 500);
    }
  EXPECT_EQ(data_pages, 6);
  EXPECT_EQ(rows_of(*file), rows_of(b));
}

// Pages without nulls store their definition levels as one run, which the
// reader leaves undecoded; batches that span such pages and pages with nulls
// (and start inside them) must still get every level.
TEST(FileWriter, PagesWithAndWithoutNullsInOneBatch) {
  Schema s = make_schema({Field::int64("v"), Field::string("s")});
  RecordBatch b;
  b.num_rows = 1000;
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<std::string>> texts;
  for (int i = 0; i < 1000; ++i) {
    const bool null = (i / 100) % 2 == 1 && i % 3 == 0;
    ints.push_back(null ? std::nullopt : std::optional<int64_t>(i));
    texts.push_back(null ? std::nullopt : std::optional<std::string>("s" + std::to_string(i % 7)));
  }
  b.columns.push_back(leaf<int64_t>(s, "v", ints));
  b.columns.push_back(strings(s, "s", texts));
  const std::string expected = rows_of(b);
  for (int version : {1, 2}) {
    for (bool dictionary : {true, false}) {
      WriteOptions o;
      o.page_rows = 100;
      o.page_version = version;
      o.dictionary = dictionary;
      const Buffer bytes = write_to_memory(s, {b}, o);
      auto file = open_bytes(bytes);
      for (int64_t batch_rows : {1000, 150, 7}) {
        ReadOptions r;
        r.batch_rows = batch_rows;
        auto source = read_batches(*file, r);
        RecordBatch got;
        std::string rows;
        while (source->next(got)) text::RowJsonWriter(got).append_rows(rows, 0, got.num_rows);
        EXPECT_EQ(rows, expected) << "v" << version << " dictionary " << dictionary << " batch " << batch_rows;
      }
    }
  }
}

TEST(FileWriter, MemoryFollowsTheRowGroupNotTheFile) {
  // 120 columns, 20 row groups: what the writer holds peaks at about one row
  // group's compressed pages, however many row groups the file has.
  std::vector<Field> fields;
  for (int c = 0; c < 120; ++c) fields.push_back(Field::int64("c" + std::to_string(c)).required());
  Schema s = make_schema(fields);
  RecordBatch b;
  b.num_rows = 5000;
  for (int c = 0; c < 120; ++c) {
    std::vector<std::optional<int64_t>> v;
    for (int i = 0; i < 5000; ++i) v.push_back(int64_t{i} * 7919 * (c + 1));
    b.columns.push_back(leaf<int64_t>(s, "c" + std::to_string(c), v));
  }
  WriteOptions o;
  o.row_group_rows = 5000;
  o.codec = {format::CompressionCodec::UNCOMPRESSED, compression::kDefaultLevel};
  auto out = std::make_unique<io::BufferOutput>();
  auto writer = FileWriter::open(std::move(out), s, o);
  for (int g = 0; g < 20; ++g) writer->write(b);
  writer->close();
  const auto& m = writer->metadata();
  ASSERT_EQ(m.row_groups.size(), 20u);
  int64_t largest_group = 0, file = 0;
  for (const auto& g : m.row_groups) {
    largest_group = std::max(largest_group, *g.total_compressed_size);
    file += *g.total_compressed_size;
  }
  EXPECT_GT(writer->peak_buffered_bytes(), 0u);
  EXPECT_LT(writer->peak_buffered_bytes(), static_cast<size_t>(largest_group) * 3 / 2);
  EXPECT_LT(writer->peak_buffered_bytes(), static_cast<size_t>(file) / 10);
}

// An output that fails once `limit` bytes are written, as a full disk does.
class FullDisk final : public io::OutputStream {
 public:
  explicit FullDisk(uint64_t limit) : limit_(limit) {}
  void write(const void*, size_t n) override {
    if (position_ + n > limit_) throw Error(ErrorKind::kIo, {.file = name_}, "no space left on device");
    position_ += n;
  }
  uint64_t position() const override { return position_; }
  void commit() override {}
  const std::string& name() const override { return name_; }

 private:
  uint64_t limit_;
  uint64_t position_ = 0;
  std::string name_ = "full-disk";
};

Schema threaded_schema() { return make_schema({Field::int64("id").required(), Field::string("s")}); }

RecordBatch threaded_batch(const Schema& s, int64_t first) {
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> text;
  for (int64_t i = first; i < first + 4000; ++i) {
    ids.push_back(i * 7919 % 100003);
    text.push_back(i % 5 == 0 ? std::nullopt : std::optional<std::string>("row " + std::to_string(i % 977)));
  }
  RecordBatch b;
  b.num_rows = 4000;
  b.columns.push_back(leaf<int64_t>(s, "id", ids));
  b.columns.push_back(strings(s, "s", text));
  return b;
}

TEST(FileWriter, ThreadsWriteTheSameBytes) {
  // Row groups are written out by a worker while the next is encoded; the
  // file must not depend on it, with page indexes and bloom filters placed
  // after the row groups.
  const Schema s = threaded_schema();
  std::vector<std::string> files;
  std::vector<size_t> peaks;
  for (int threads : {1, 2, 3}) {
    WriteOptions o;
    o.threads = threads;
    o.row_group_rows = 3000;  // groups end inside batches
    o.page_rows = 500;
    o.columns["s"].bloom_filter = BloomFilterOptions{};
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* bytes = out.get();
    auto writer = FileWriter::open(std::move(out), s, o);
    for (int b = 0; b < 15; ++b) writer->write(threaded_batch(s, b * 4000));
    writer->close();
    ASSERT_EQ(writer->metadata().row_groups.size(), 20u);
    files.emplace_back(reinterpret_cast<const char*>(bytes->buffer().data()), bytes->buffer().size());
    peaks.push_back(writer->peak_buffered_bytes());
  }
  // Compared whole, not printed: a difference would print megabytes.
  EXPECT_TRUE(files[0] == files[1]) << "two threads wrote other bytes";
  EXPECT_TRUE(files[0] == files[2]) << "three threads wrote other bytes";
  // A row group being written out while the next fills up: at most two.
  EXPECT_LT(peaks[1], peaks[0] * 5 / 2);
  auto read = FileReader::open(
      io::memory_input({reinterpret_cast<const uint8_t*>(files[1].data()), files[1].size()}, "threaded"));
  EXPECT_EQ(read->metadata().num_rows, 60000);
}

TEST(FileWriter, AFailedWriteOutFailsTheWriter) {
  // The disk fills up while a worker writes a row group out: the error
  // reaches the caller (from write() or close()), and the writer refuses
  // to go on.
  const Schema s = threaded_schema();
  for (int threads : {1, 2}) {
    WriteOptions o;
    o.threads = threads;
    o.row_group_rows = 4000;
    auto writer = FileWriter::open(std::make_unique<FullDisk>(50000), s, o);
    std::string error;
    try {
      for (int b = 0; b < 30; ++b) writer->write(threaded_batch(s, b * 4000));
      writer->close();
    } catch (const Error& e) {
      error = e.what();
    }
    EXPECT_NE(error.find("no space left"), std::string::npos) << threads << ": " << error;
    EXPECT_THROW(writer->write(threaded_batch(s, 0)), Error);
  }
}

TEST(FileWriter, DictionaryFallsBackAndKeepsEarlierPages) {
  Schema s = make_schema({Field::string("s"), Field::int64("i")});
  std::vector<std::optional<std::string>> text;
  std::vector<std::optional<int64_t>> ints;
  for (int i = 0; i < 5000; ++i) {
    text.push_back(i % 7 == 0 ? std::nullopt : std::optional<std::string>("value " + std::to_string(i)));
    ints.push_back(i * 1000003LL);
  }
  RecordBatch b;
  b.num_rows = 5000;
  b.columns.push_back(strings(s, "s", text));
  b.columns.push_back(leaf<int64_t>(s, "i", ints));
  for (int version : {1, 2}) {
    WriteOptions o;
    o.page_version = version;
    o.dictionary_limits.max_entries = 1000;
    o.weigh_dictionary = false;  // distinct values: kept in the dictionary until its limit
    o.page_rows = 400;
    const Buffer bytes = write_to_memory(s, {b}, o);
    auto file = open_bytes(bytes);
    EXPECT_EQ(rows_of(*file), rows_of(b));
    for (size_t c = 0; c < 2; ++c) {
      const auto& m = *file->metadata().row_groups[0].columns[c].meta_data;
      std::map<Encoding, int> pages;
      for (const auto& e : *m.encoding_stats)
        if (e.page_type != format::PageType::DICTIONARY_PAGE) pages[e.encoding] += e.count;
      EXPECT_GT(pages[Encoding::RLE_DICTIONARY], 0) << c;
      const Encoding fallback =
          version == 1 ? Encoding::PLAIN : (c == 0 ? Encoding::DELTA_BYTE_ARRAY : Encoding::DELTA_BINARY_PACKED);
      EXPECT_GT(pages[fallback], 0) << c << " v" << version;
      PageReader reader(file->input(), file->metadata(), 0, c, "c");
      PageInfo page;
      ASSERT_TRUE(reader.next(page));
      ASSERT_TRUE(page.header.dictionary_page_header);
      EXPECT_EQ(page.header.dictionary_page_header->num_values, 1000);
    }
  }
}

// Pages by encoding, dictionary pages left out, of row group 0's column c.
std::map<Encoding, int> data_page_encodings(const FileReader& file, size_t c) {
  std::map<Encoding, int> pages;
  for (const auto& e : *file.metadata().row_groups[0].columns[c].meta_data->encoding_stats)
    if (e.page_type != format::PageType::DICTIONARY_PAGE) pages[e.encoding] += e.count;
  return pages;
}

TEST(FileWriter, DictionaryIsWeighedAgainstTheFallbackOnTheSecondPage) {
  // Sorted keys, each 4 times (every page adds a quarter of its values as
  // new entries, which compress better as they are); ids drawn from 600
  // (the first page meets most of them, later pages only repeat them);
  // distinct sentences (a new entry per value).
  Schema s = make_schema({Field::int64("key"), Field::int64("id"), Field::string("text")});
  constexpr int kRows = 20000;
  std::vector<std::optional<int64_t>> keys, ids;
  std::vector<std::optional<std::string>> text;
  std::mt19937_64 rng(7);
  const char* words[] = {"quick", "slow", "ironic", "final", "packages", "deposits", "sleep", "nag"};
  for (int i = 0; i < kRows; ++i) {
    keys.push_back(i / 4 + 1);
    ids.push_back(static_cast<int64_t>(rng() % 600) * 7919);
    std::string t = std::to_string(i);
    for (int w = 0; w < 5; ++w) t += std::string(" ") + words[rng() % 8];
    text.push_back(t);
  }
  RecordBatch b;
  b.num_rows = kRows;
  b.columns.push_back(leaf<int64_t>(s, "key", keys));
  b.columns.push_back(leaf<int64_t>(s, "id", ids));
  b.columns.push_back(strings(s, "text", text));
  for (const char* codec : {"zstd", "snappy", "uncompressed"}) {
    for (int version : {1, 2}) {
      SCOPED_TRACE(std::string(codec) + " v" + std::to_string(version));
      WriteOptions o;
      o.codec = compression::parse_codec(codec);
      o.page_version = version;
      o.page_rows = 1000;
      const Buffer weighed = write_to_memory(s, {b}, o);
      auto file = open_bytes(weighed);
      EXPECT_EQ(rows_of(*file), rows_of(b));
      const Encoding fallback_int = version == 1 ? Encoding::PLAIN : Encoding::DELTA_BINARY_PACKED;
      const Encoding fallback_text = version == 1 ? Encoding::PLAIN : Encoding::DELTA_BYTE_ARRAY;
      if (std::string(codec) != "uncompressed") {
        // Keys: two pages of indices, the other 18 in the fallback.
        EXPECT_EQ(data_page_encodings(*file, 0),
                  (std::map<Encoding, int>{{Encoding::RLE_DICTIONARY, 2}, {fallback_int, 18}}));
      }
      EXPECT_EQ(data_page_encodings(*file, 1), (std::map<Encoding, int>{{Encoding::RLE_DICTIONARY, 20}}));
      EXPECT_EQ(data_page_encodings(*file, 2),
                (std::map<Encoding, int>{{Encoding::RLE_DICTIONARY, 2}, {fallback_text, 18}}));

      // Kept until the limits when asked for, globally or by column.
      o.weigh_dictionary = false;
      const Buffer kept = write_to_memory(s, {b}, o);
      EXPECT_LT(weighed.size(), kept.size());
      auto kept_file = open_bytes(kept);
      EXPECT_EQ(rows_of(*kept_file), rows_of(b));
      for (size_t c = 0; c < 3; ++c)
        EXPECT_EQ(data_page_encodings(*kept_file, c), (std::map<Encoding, int>{{Encoding::RLE_DICTIONARY, 20}})) << c;
      o.weigh_dictionary = true;
      o.columns["key"].encoding = Encoding::RLE_DICTIONARY;
      auto by_name = open_bytes(write_to_memory(s, {b}, o));
      EXPECT_EQ(data_page_encodings(*by_name, 0), (std::map<Encoding, int>{{Encoding::RLE_DICTIONARY, 20}}));
      EXPECT_EQ(data_page_encodings(*by_name, 2), data_page_encodings(*file, 2));
    }
  }
}

TEST(FileWriter, DictionaryPagesHaveTheSameStatisticsAsPlainPages) {
  // Byte-array statistics of dictionary pages come from the entries they
  // use; they must equal those computed value by value.
  Schema s = make_schema({Field::string("s")});
  std::vector<std::optional<std::string>> v;
  for (int i = 0; i < 3000; ++i)
    v.push_back(i % 11 == 0 ? std::nullopt : std::optional<std::string>("k" + std::to_string((i * 7919) % 97)));
  RecordBatch b;
  b.num_rows = 3000;
  b.columns.push_back(strings(s, "s", v));
  auto stats_of = [&](bool dictionary) {
    WriteOptions o;
    o.dictionary = dictionary;
    o.page_rows = 250;
    const Buffer bytes = write_to_memory(s, {b}, o);
    auto file = open_bytes(bytes);
    std::string out;
    PageReader pages(file->input(), file->metadata(), 0, 0, "s");
    PageInfo page;
    while (pages.next(page))
      if (page.header.data_page_header) {
        const auto& st = *page.header.data_page_header->statistics;
        out += st.min_value.value_or("-") + "/" + st.max_value.value_or("-") + ";";
      }
    const auto& chunk = *file->metadata().row_groups[0].columns[0].meta_data->statistics;
    return out + *chunk.min_value + "/" + *chunk.max_value;
  };
  EXPECT_EQ(stats_of(true), stats_of(false));
}

// Random hex strings, as in the comparison benchmark's comments: SNAPPY
// shrinks pages of them by about 5%, less than min_compression_saving's
// eighth. From `compressible_from` on, the same text over and over.
std::vector<std::optional<std::string>> hex_then_text(size_t n, size_t compressible_from) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<std::string>> v;
  for (size_t i = 0; i < n; ++i) {
    std::string s;
    if (i < compressible_from) {
      for (size_t k = 10 + rng() % 34; k > 0; --k) s += "0123456789abcdef"[rng() % 16];
    } else {
      s = "the same words over and over";
    }
    v.push_back(std::move(s));
  }
  return v;
}

// Per data page of column 0 in each row group: whether it went uncompressed
// (stored as literals, or marked so in a v2 header).
std::vector<std::vector<bool>> stored_pages(const FileReader& file) {
  std::vector<std::vector<bool>> out;
  for (size_t rg = 0; rg < file.metadata().row_groups.size(); ++rg) {
    out.emplace_back();
    PageReader pages(file.input(), file.metadata(), rg, 0, "h");
    PageInfo page;
    while (pages.next(page)) {
      const auto& h = page.header;
      if (h.data_page_header_v2) {
        out.back().push_back(h.data_page_header_v2->is_compressed == false);
      } else if (h.data_page_header) {
        out.back().push_back(h.compressed_page_size >= h.uncompressed_page_size);
      }
    }
  }
  return out;
}

// Pages that compression barely shrinks stop being compressed; every 16th
// is compressed again, and a column whose data turns compressible is
// compressed from the next such probe on. Each row group starts with a probe.
TEST(FileWriter, BarelyCompressiblePagesAreStored) {
  Schema s = make_schema({Field::string("h").required()});
  constexpr size_t kPageRows = 2000, kPages = 40;
  RecordBatch b;
  b.num_rows = kPageRows * kPages;
  b.columns.push_back(strings(s, "h", hex_then_text(kPageRows * kPages, kPageRows * 20)));
  for (int version : {1, 2}) {
    for (auto codec : {format::CompressionCodec::SNAPPY, format::CompressionCodec::LZ4_RAW}) {
      WriteOptions o;
      o.codec.id = codec;
      o.page_version = version;
      o.dictionary = false;
      o.page_rows = kPageRows;
      o.row_group_rows = kPageRows * 36;
      const Buffer bytes = write_to_memory(s, {b}, o);
      auto file = open_bytes(bytes);
      EXPECT_EQ(rows_of(*file), rows_of(b));
      const auto stored = stored_pages(*file);
      ASSERT_EQ(stored.size(), 2u);
      ASSERT_EQ(stored[0].size(), 36u);
      ASSERT_EQ(stored[1].size(), 4u);
      const std::string where = "v" + std::to_string(version) + " " + format::to_string(codec);
      // Hex pages 0-19: 0 and 16 are probes. Page 16 is hex, so 17-31 are
      // stored though 20 on compress; page 32 finds them compressible.
      for (size_t i = 0; i < 36; ++i) EXPECT_EQ(stored[0][i], i != 0 && i != 16 && i < 32) << where << " page " << i;
      for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(stored[1][i]) << where << " row group 1 page " << i;

      o.min_compression_saving = 0;
      const Buffer every_bytes = write_to_memory(s, {b}, o);
      auto every = open_bytes(every_bytes);
      for (const auto& group : stored_pages(*every))
        for (bool page : group) EXPECT_FALSE(page) << where << " with min_compression_saving 0";
      EXPECT_EQ(rows_of(*every), rows_of(b));
    }
  }
  // Without a literal form (ZSTD), v1 pages are compressed all the same.
  WriteOptions o;
  o.codec.id = format::CompressionCodec::ZSTD;
  o.dictionary = false;
  o.page_rows = kPageRows;
  o.min_compression_saving = 0.9;  // hex shrinks about 2x under ZSTD: not enough
  const Buffer zstd_bytes = write_to_memory(s, {b}, o);
  auto zstd = open_bytes(zstd_bytes);
  const auto zstd_stored = stored_pages(*zstd);
  ASSERT_EQ(zstd_stored.size(), 1u);
  EXPECT_EQ(zstd_stored[0].size(), kPages);
  for (bool page : zstd_stored[0]) EXPECT_FALSE(page);
  EXPECT_EQ(rows_of(*zstd), rows_of(b));

  o.min_compression_saving = 1.5;
  EXPECT_THROW(write_to_memory(s, {b}, o), Error);
}

// A v2 page of nulls only has no value bytes; its checksum covers the
// levels alone (an empty payload once reset the CRC to 0).
TEST(FileWriter, ChecksumOfAPageWithoutValueBytes) {
  Schema s = make_schema({Field::int64("v")});
  RecordBatch b;
  b.num_rows = 3;
  b.columns.push_back(leaf<int64_t>(s, "v", {std::nullopt, std::nullopt, std::nullopt}));
  for (auto codec : {format::CompressionCodec::UNCOMPRESSED, format::CompressionCodec::SNAPPY}) {
    WriteOptions o;
    o.page_version = 2;
    o.codec.id = codec;
    o.columns["v"].encoding = Encoding::PLAIN;
    o.min_compression_saving = 1;  // SNAPPY: the second page is stored, empty
    o.page_rows = 2;
    const Buffer bytes = write_to_memory(s, {b}, o);
    auto file = open_bytes(bytes);
    PageReader pages(file->input(), file->metadata(), 0, 0, "v");
    PageInfo page;
    int checked = 0;
    while (pages.next(page)) {
      EXPECT_EQ(page.crc, CrcStatus::kValid) << format::to_string(codec) << " page " << page.index;
      ++checked;
    }
    EXPECT_EQ(checked, 2);
    EXPECT_EQ(rows_of(*file), rows_of(b));
  }
}

TEST(FileWriter, ConfiguredEncodingsAndCodecsPerColumn) {
  Schema s = make_schema({Field::float64("d"), Field::int32("i"), Field::string("s"), Field::fixed("f", 3)});
  RecordBatch b;
  b.num_rows = 300;
  std::vector<std::optional<double>> d;
  std::vector<std::optional<int32_t>> i;
  std::vector<std::optional<std::string>> str;
  Array f;
  f.name = "f";
  f.type = s.column(3).type;
  for (int k = 0; k < 300; ++k) {
    d.push_back(k % 5 == 0 ? std::nullopt : std::optional<double>(k * 0.25));
    i.push_back(k - 150);
    str.push_back("prefix-" + std::to_string(k));
    f.values.append(std::string{static_cast<char>(k), 'x', static_cast<char>(k / 3)});
  }
  f.length = 300;
  b.columns.push_back(leaf<double>(s, "d", d));
  b.columns.push_back(leaf<int32_t>(s, "i", i));
  b.columns.push_back(strings(s, "s", str));
  b.columns.push_back(std::move(f));
  WriteOptions o;
  o.columns["d"].encoding = Encoding::BYTE_STREAM_SPLIT;
  o.columns["i"].encoding = Encoding::DELTA_BINARY_PACKED;
  o.columns["s"].encoding = Encoding::DELTA_LENGTH_BYTE_ARRAY;
  o.columns["s"].codec = compression::CodecChoice{format::CompressionCodec::BROTLI, 5};
  o.columns["f"].encoding = Encoding::DELTA_BYTE_ARRAY;
  const Buffer bytes = write_to_memory(s, {b}, o);
  auto file = open_bytes(bytes);
  EXPECT_EQ(rows_of(*file), rows_of(b));
  const auto& cols = file->metadata().row_groups[0].columns;
  auto has = [](const format::ColumnMetaData& m, Encoding e) {
    return std::find(m.encodings.begin(), m.encodings.end(), e) != m.encodings.end();
  };
  EXPECT_TRUE(has(*cols[0].meta_data, Encoding::BYTE_STREAM_SPLIT));
  EXPECT_TRUE(has(*cols[1].meta_data, Encoding::DELTA_BINARY_PACKED));
  EXPECT_TRUE(has(*cols[2].meta_data, Encoding::DELTA_LENGTH_BYTE_ARRAY));
  EXPECT_EQ(cols[2].meta_data->codec, format::CompressionCodec::BROTLI);
  EXPECT_TRUE(has(*cols[3].meta_data, Encoding::DELTA_BYTE_ARRAY));
  EXPECT_FALSE(has(*cols[0].meta_data, Encoding::RLE_DICTIONARY));
}

TEST(FileWriter, RejectsBatchesThatDoNotMatchTheSchema) {
  Schema s = make_schema({Field::int64("id").required(), Field::string("name")});
  auto open = [&] { return FileWriter::open(std::make_unique<io::BufferOutput>(), s); };
  RecordBatch wrong_count;
  wrong_count.num_rows = 1;
  wrong_count.columns.push_back(leaf<int64_t>(s, "id", {1}));
  EXPECT_THROW(open()->write(wrong_count), Error);

  RecordBatch null_in_required;
  null_in_required.num_rows = 2;
  null_in_required.columns.push_back(leaf<int64_t>(s, "id", {1, std::nullopt}));
  null_in_required.columns.push_back(strings(s, "name", {"a", "b"}));
  try {
    open()->write(null_in_required);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("column id: is REQUIRED but has nulls"), std::string::npos) << e.what();
  }

  RecordBatch bad_offsets;
  bad_offsets.num_rows = 2;
  bad_offsets.columns.push_back(leaf<int64_t>(s, "id", {1, 2}));
  bad_offsets.columns.push_back(strings(s, "name", {"a", "b"}));
  bad_offsets.columns[1].offsets.data_as<int32_t>()[2] = 1000;
  EXPECT_THROW(open()->write(bad_offsets), Error);

  RecordBatch wrong_type;
  wrong_type.num_rows = 1;
  wrong_type.columns.push_back(strings(s, "name", {"a"}));
  wrong_type.columns.push_back(strings(s, "name", {"a"}));
  EXPECT_THROW(open()->write(wrong_type), Error);

  auto message_of = [&](const RecordBatch& b) {
    try {
      open()->write(b);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  RecordBatch wrong_kind;
  wrong_kind.num_rows = 1;
  wrong_kind.columns.push_back(leaf<int64_t>(s, "id", {1}));
  wrong_kind.columns.push_back(list_of("name", strings(s, "name", {"a"}), {1}));
  EXPECT_NE(message_of(wrong_kind).find("column name: is a list but the schema has a leaf"), std::string::npos)
      << message_of(wrong_kind);
  RecordBatch short_column;
  short_column.num_rows = 2;
  short_column.columns.push_back(leaf<int64_t>(s, "id", {1, 2}));
  short_column.columns.push_back(strings(s, "name", {"a"}));
  EXPECT_NE(message_of(short_column).find("column name: has 1 slots where 2 are expected"), std::string::npos)
      << message_of(short_column);

  auto closed = open();
  closed->close();
  EXPECT_THROW(closed->write(wrong_count), Error);
  EXPECT_THROW(closed->close(), Error);

  WriteOptions unknown;
  unknown.columns["nope"].dictionary = false;
  EXPECT_THROW(FileWriter::open(std::make_unique<io::BufferOutput>(), s, unknown), Error);
}

TEST(FileWriter, WritesAnArrowStream) {
  // Arrow C stream in (here one that parq exports), Parquet out: the same rows.
  auto source_file = FileReader::open(PARQ_SOURCE_DIR "/../shared/parquet-testing/data/nested_structs.rust.parquet");
  ArrowArrayStream stream;
  export_stream(read_batches(*source_file), &stream);
  ArrowSchema arrow_schema;
  ASSERT_EQ(stream.get_schema(&stream, &arrow_schema), 0);
  const Schema schema = import_schema(&arrow_schema);
  arrow_schema.release(&arrow_schema);
  auto batches = import_stream(&stream);
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema);
  writer->write_all(*batches);
  writer->close();
  auto back = FileReader::open(io::memory_input(sink->buffer().span()));
  EXPECT_EQ(rows_of(*back), rows_of(*source_file));
}

// ---- files on disk ----

class FileWriterOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parq-writer-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {})); }
  fs::path dir_;
};

RecordBatch ids(const Schema& s, int64_t n) {
  RecordBatch b;
  b.num_rows = n;
  std::vector<std::optional<int64_t>> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(i);
  b.columns.push_back(leaf<int64_t>(s, "id", v));
  return b;
}

TEST_F(FileWriterOnDisk, FileAppearsOnlyOnClose) {
  Schema s = make_schema({Field::int64("id").required()});
  const auto target = dir_ / "out.parquet";
  auto writer = FileWriter::open(target.string(), s);
  writer->write(ids(s, 100));
  EXPECT_FALSE(fs::exists(target));
  writer->close();
  EXPECT_TRUE(fs::exists(target));
  EXPECT_EQ(entries(), 1u);  // the temporary is gone
  EXPECT_EQ(FileReader::open(target.string())->metadata().num_rows, 100);
}

TEST_F(FileWriterOnDisk, AbandonedOrFailedWriteLeavesTheOldFile) {
  Schema s = make_schema({Field::int64("id").required()});
  const auto target = dir_ / "out.parquet";
  {
    std::ofstream old(target);
    old << "precious";
  }
  {
    auto writer = FileWriter::open(target.string(), s);
    writer->write(ids(s, 10));
  }  // destroyed without close
  {
    auto writer = FileWriter::open(target.string(), s);
    RecordBatch bad = ids(s, 10);
    bad.columns[0].values.resize(8);  // too few bytes
    EXPECT_THROW(writer->write(bad), Error);
    EXPECT_THROW(writer->close(), Error);  // unusable after a failure
  }
  std::ifstream in(target);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "precious");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(FileWriterOnDisk, KilledWriterLeavesTheTargetUntouched) {
  Schema s = make_schema({Field::int64("id").required()});
  const auto target = dir_ / "out.parquet";
  {
    std::ofstream old(target);
    old << "precious";
  }
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    WriteOptions o;
    o.row_group_rows = 1000;  // row groups reach the file while the child runs
    auto writer = FileWriter::open(target.string(), s, o);
    for (int i = 0;; ++i) {
      writer->write(ids(s, 10000));
      if (i == 3) (void)!::write(ready[1], "x", 1);
    }
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  std::ifstream in(target);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "precious");
  // The killed writer's temporary stays (nothing ran to remove it), hidden
  // and never under the target's name.
  for (const auto& e : fs::directory_iterator(dir_))
    if (e.path() != target) {
      EXPECT_EQ(e.path().filename().string().rfind(".out.parquet.parq-", 0), 0u);
    }
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_F(FileWriterOnDisk, UnwritableFolderIsAClearError) {
  Schema s = make_schema({Field::int64("id").required()});
  try {
    FileWriter::open((dir_ / "missing" / "out.parquet").string(), s);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parq
