// Tests of LeafReader::read_selected: over files parq writes with every
// (physical type, encoding) pair of the encoding table, required and with
// nulls (scattered and whole pages), v1 and v2 pages, small pages and pages
// longer than a selective read's chunk, dictionary fallbacks and
// PLAIN_DICTIONARY pages, it gives the records read_records followed by
// keep_records gives, at every selectivity and SIMD level, mixed with
// whole reads and skips. Pages inside unkept runs are passed over on their
// headers, never decompressed.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "column/leaf_reader.h"
#include "column/record_selection.h"
#include "fetch/chunk_fetch.h"
#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/file/page_index.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "simd_levels.h"

namespace parq {
namespace {

using format::Encoding;
using format::Type;

constexpr int64_t kRows = 9000;

// ---- the columns ----

struct ColumnSpec {
  std::string name;
  Type type;
  int32_t width;                     // FIXED_LEN_BYTE_ARRAY only
  std::optional<Encoding> encoding;  // none: dictionary first
  bool nullable;
};

std::string encoding_name(const std::optional<Encoding>& e) { return e ? format::to_string(*e) : std::string("DICT"); }

std::vector<ColumnSpec> column_specs() {
  struct Pair {
    Type type;
    int32_t width;
    std::optional<Encoding> encoding;
  };
  const std::vector<Pair> pairs = {
      {Type::BOOLEAN, 0, Encoding::PLAIN},
      {Type::BOOLEAN, 0, Encoding::RLE},
      {Type::INT32, 0, Encoding::PLAIN},
      {Type::INT32, 0, std::nullopt},
      {Type::INT32, 0, Encoding::DELTA_BINARY_PACKED},
      {Type::INT32, 0, Encoding::BYTE_STREAM_SPLIT},
      {Type::INT64, 0, Encoding::PLAIN},
      {Type::INT64, 0, std::nullopt},
      {Type::INT64, 0, Encoding::DELTA_BINARY_PACKED},
      {Type::INT64, 0, Encoding::BYTE_STREAM_SPLIT},
      {Type::INT96, 0, Encoding::PLAIN},
      {Type::INT96, 0, std::nullopt},
      {Type::FLOAT, 0, Encoding::PLAIN},
      {Type::FLOAT, 0, std::nullopt},
      {Type::FLOAT, 0, Encoding::BYTE_STREAM_SPLIT},
      {Type::FLOAT, 0, Encoding::ALP},
      {Type::DOUBLE, 0, Encoding::PLAIN},
      {Type::DOUBLE, 0, std::nullopt},
      {Type::DOUBLE, 0, Encoding::BYTE_STREAM_SPLIT},
      {Type::DOUBLE, 0, Encoding::ALP},
      {Type::BYTE_ARRAY, 0, Encoding::PLAIN},
      {Type::BYTE_ARRAY, 0, std::nullopt},
      {Type::BYTE_ARRAY, 0, Encoding::DELTA_LENGTH_BYTE_ARRAY},
      {Type::BYTE_ARRAY, 0, Encoding::DELTA_BYTE_ARRAY},
      {Type::FIXED_LEN_BYTE_ARRAY, 3, Encoding::PLAIN},
      {Type::FIXED_LEN_BYTE_ARRAY, 16, Encoding::PLAIN},
      {Type::FIXED_LEN_BYTE_ARRAY, 3, std::nullopt},
      {Type::FIXED_LEN_BYTE_ARRAY, 16, std::nullopt},
      {Type::FIXED_LEN_BYTE_ARRAY, 3, Encoding::DELTA_BYTE_ARRAY},
      {Type::FIXED_LEN_BYTE_ARRAY, 3, Encoding::BYTE_STREAM_SPLIT},
  };
  std::vector<ColumnSpec> out;
  for (const Pair& p : pairs)
    for (bool nullable : {false, true}) {
      std::string name = std::string(format::to_string(p.type)) + (p.width ? std::to_string(p.width) : "") + "_" +
                         encoding_name(p.encoding) + (nullable ? "_opt" : "_req");
      out.push_back({name, p.type, p.width, p.encoding, nullable});
    }
  return out;
}

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

bool is_null(const ColumnSpec& c, int64_t i) {
  if (!c.nullable) return false;
  // Whole pages of nulls, and scattered ones elsewhere.
  return (i >= 2000 && i < 2600) || mix(static_cast<uint64_t>(i) + 17) % 5 == 0;
}

// Few distinct values (dictionaries stay), except strings, which overflow
// the small dictionary limit of some files.
std::string value_bytes(const ColumnSpec& c, int64_t i) {
  const uint64_t h = mix(static_cast<uint64_t>(i % (c.type == Type::BYTE_ARRAY ? 700 : 40)) + 1);
  switch (c.type) {
    case Type::BOOLEAN:
      return std::string(1, static_cast<char>(h % 3 == 0));
    case Type::BYTE_ARRAY: {
      // Lengths 0 to 45: the 32-byte fast copies and the longer ones.
      std::string s(h % 46, 'a');
      for (size_t k = 0; k < s.size(); ++k) s[k] = static_cast<char>('a' + (h >> (k % 50)) % 26);
      return s;
    }
    default: {
      const size_t w = static_cast<size_t>(plain_width(c.type, c.width));
      std::string s(w, '\0');
      for (size_t k = 0; k < w; ++k) s[k] = static_cast<char>(h >> (8 * (k % 8)) ^ k);
      if (c.type == Type::FLOAT || c.type == Type::DOUBLE) s[w - 1] = 0x3f;  // no NaNs: they compare unequal
      return s;
    }
  }
}

Field field_of(const ColumnSpec& c) {
  Field f = Field::primitive(c.name, c.type, c.width);
  return c.nullable ? f : f.required();
}

Array array_of(const Schema& schema, const ColumnSpec& c) {
  Array a;
  a.name = c.name;
  a.type = schema.column(static_cast<size_t>(schema.find_column(c.name))).type;
  if (c.type == Type::BYTE_ARRAY) a.offsets.append_value<int32_t>(0);
  if (c.type == Type::BOOLEAN) a.values.resize(static_cast<size_t>((kRows + 7) / 8));
  std::vector<bool> valid;
  for (int64_t i = 0; i < kRows; ++i) {
    const bool null = is_null(c, i);
    valid.push_back(!null);
    const std::string v = null ? std::string() : value_bytes(c, i);
    switch (c.type) {
      case Type::BYTE_ARRAY:
        a.values.append(v);
        a.offsets.append_value(static_cast<int32_t>(a.values.size()));
        break;
      case Type::BOOLEAN: {
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
  a.length = kRows;
  a.null_count = 0;
  for (bool v : valid) a.null_count += !v;
  if (a.null_count > 0) {
    a.validity.resize((valid.size() + 7) / 8);
    std::memset(a.validity.data(), 0, a.validity.size());
    for (size_t i = 0; i < valid.size(); ++i)
      if (valid[i]) a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return a;
}

// tags: list<string>, with empty, null and long lists and null elements.
Array list_array(const Schema& schema) {
  Array list;
  list.kind = ArrayKind::kList;
  list.name = "tags";
  std::vector<bool> list_valid;
  std::vector<std::optional<std::string>> elements;
  list.offsets.append_value<int32_t>(0);
  for (int64_t i = 0; i < kRows; ++i) {
    const bool valid = i % 11 != 5;
    list_valid.push_back(valid);
    const int64_t size = valid ? (i % 97 == 0 ? 40 : (i * 7) % 5) : 0;
    for (int64_t k = 0; k < size; ++k)
      elements.push_back((i + k) % 6 == 2 ? std::nullopt
                                          : std::optional<std::string>("t" + std::to_string((i + k) % 40)));
    list.offsets.append_value(static_cast<int32_t>(elements.size()));
  }
  list.length = kRows;
  list.null_count = 0;
  for (bool v : list_valid) list.null_count += !v;
  list.validity.resize((list_valid.size() + 7) / 8);
  std::memset(list.validity.data(), 0, list.validity.size());
  for (size_t i = 0; i < list_valid.size(); ++i)
    if (list_valid[i]) list.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  Array e;
  e.name = "element";
  e.type = schema.column(static_cast<size_t>(schema.find_column("tags.list.element"))).type;
  e.offsets.append_value<int32_t>(0);
  std::vector<bool> valid;
  for (const auto& s : elements) {
    valid.push_back(s.has_value());
    if (s) e.values.append(*s);
    e.offsets.append_value(static_cast<int32_t>(e.values.size()));
  }
  e.length = static_cast<int64_t>(elements.size());
  e.null_count = 0;
  for (bool v : valid) e.null_count += !v;
  e.validity.resize((valid.size() + 7) / 8);
  std::memset(e.validity.data(), 0, e.validity.size());
  for (size_t i = 0; i < valid.size(); ++i)
    if (valid[i]) e.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  list.children.push_back(std::move(e));
  return list;
}

Schema test_schema() {
  std::vector<Field> fields;
  for (const ColumnSpec& c : column_specs()) fields.push_back(field_of(c));
  fields.push_back(Field::list("tags", Field::string("element")));
  return make_schema(std::move(fields));
}

// ---- the files ----

struct FileVariant {
  std::string label;
  int page_version;
  int64_t page_rows;
  bool small_dictionary;  // strings fall back from the dictionary mid-chunk
  bool plain_dictionary;  // dictionary pages rewritten as PLAIN_DICTIONARY
  bool uncompressed = false;
};

std::vector<FileVariant> variants() {
  return {
      {"v1 small pages", 1, 97, false, false},      {"v2 small pages", 2, 97, true, false},
      {"v1 long pages", 1, 5000, true, false},      {"v2 long pages uncompressed", 2, 5000, false, false, true},
      {"v1 PLAIN_DICTIONARY", 1, 333, false, true},
  };
}

// Marks every dictionary-encoded page PLAIN_DICTIONARY (the v1 name of the
// same layout): the header's encoding fields take one byte either way.
void rewrite_plain_dictionary(Buffer& bytes) {
  auto file = FileReader::open(io::memory_input(bytes.span()));
  for (size_t col = 0; col < file->schema().num_columns(); ++col) {
    PageReader pages(file->input(), file->metadata(), 0, col, "c");
    PageInfo page;
    std::vector<std::pair<size_t, std::string>> patches;
    while (pages.next(page)) {
      format::PageHeader h = page.header;
      bool changed = false;
      if (h.data_page_header && h.data_page_header->encoding == Encoding::RLE_DICTIONARY) {
        h.data_page_header->encoding = Encoding::PLAIN_DICTIONARY;
        changed = true;
      }
      if (h.dictionary_page_header && h.dictionary_page_header->encoding == Encoding::PLAIN) {
        h.dictionary_page_header->encoding = Encoding::PLAIN_DICTIONARY;
        changed = true;
      }
      if (!changed) continue;
      std::string encoded;
      format::encode_thrift(h, encoded);
      ASSERT_EQ(encoded.size(), page.header_size);
      patches.push_back({static_cast<size_t>(page.header_offset), encoded});
    }
    for (const auto& [at, encoded] : patches) std::memcpy(bytes.data() + at, encoded.data(), encoded.size());
  }
}

Buffer write_file(const FileVariant& v) {
  const Schema s = test_schema();
  WriteOptions o;
  o.page_version = v.page_version;
  o.page_rows = v.page_rows;
  if (v.small_dictionary) o.dictionary_limits.max_bytes = 3000;
  if (v.uncompressed) o.codec = compression::parse_codec("uncompressed");
  for (const ColumnSpec& c : column_specs())
    if (c.encoding) o.columns[c.name].encoding = *c.encoding;
  RecordBatch batch;
  batch.num_rows = kRows;
  for (const ColumnSpec& c : column_specs()) batch.columns.push_back(array_of(s, c));
  batch.columns.push_back(list_array(s));
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), s, o);
  writer->write(batch);
  writer->close();
  Buffer bytes = sink->take();
  if (v.plain_dictionary) rewrite_plain_dictionary(bytes);
  return bytes;
}

struct TestFile {
  FileVariant variant;
  Buffer bytes;
  std::unique_ptr<FileReader> file;
};

const std::vector<TestFile>& test_files() {
  static const std::vector<TestFile> files = [] {
    std::vector<TestFile> out;
    for (const FileVariant& v : variants()) {
      TestFile f{v, write_file(v), nullptr};
      f.file = FileReader::open(io::memory_input(f.bytes.span()));
      out.push_back(std::move(f));
    }
    return out;
  }();
  return files;
}

std::unique_ptr<LeafReader> open_leaf(const FileReader& file, size_t column, const PageReaderOptions& options = {}) {
  return std::make_unique<LeafReader>(file.input(), file.metadata(), 0, file.schema().column(column), options);
}

// ---- batches as comparable values ----

// A batch's levels and values with the representation choices taken out
// (levels left out because all are at the maximum, views): what two reads
// that agree must both produce.
struct Flat {
  std::vector<int16_t> def, rep;
  std::string values;            // fixed-width values, or byte arrays' bytes
  std::vector<int32_t> lengths;  // of byte arrays
  int64_t entries = 0;
  int64_t count = 0;
};

void append_flat(const ColumnDescriptor& c, const LeafBatch& b, Flat& out) {
  ASSERT_TRUE(b.def.empty() || b.def.size() == static_cast<size_t>(b.num_entries) * 2);
  if (c.max_definition_level > 0) {
    if (b.def.empty()) {
      out.def.insert(out.def.end(), static_cast<size_t>(b.num_entries), c.max_definition_level);
    } else {
      out.def.insert(out.def.end(), b.def_levels(), b.def_levels() + b.num_entries);
    }
  }
  if (c.max_repetition_level > 0) {
    ASSERT_EQ(b.rep.size(), static_cast<size_t>(b.num_entries) * 2);
    out.rep.insert(out.rep.end(), b.rep_levels(), b.rep_levels() + b.num_entries);
  }
  int64_t defined = 0;
  for (int64_t i = 0; i < b.num_entries; ++i) defined += b.def.empty() || b.def_levels()[i] == c.max_definition_level;
  ASSERT_EQ(defined, b.values.count) << "defined entries and values disagree";
  if (c.type.physical == Type::BYTE_ARRAY) {
    ASSERT_EQ(b.values.bytes.size(), static_cast<size_t>(b.values.count));
    for (size_t i = 0; i < b.values.bytes.size(); ++i) {
      out.lengths.push_back(static_cast<int32_t>(b.values.bytes.value(i).size()));
      out.values.append(b.values.bytes.value(i));
    }
  } else {
    const auto width = static_cast<size_t>(plain_width(c.type.physical, c.type.type_length));
    ASSERT_EQ(b.values.fixed.size(), static_cast<size_t>(b.values.count) * width);
    out.values.append(b.values.fixed.view());
  }
  out.entries += b.num_entries;
  out.count += b.values.count;
}

Flat flat(const ColumnDescriptor& c, const LeafBatch& b) {
  Flat f;
  append_flat(c, b, f);
  return f;
}

// Empty when equal, else where they part.
std::string diff(const Flat& a, const Flat& b) {
  if (a.entries != b.entries) return "entries " + std::to_string(a.entries) + " vs " + std::to_string(b.entries);
  if (a.count != b.count) return "values " + std::to_string(a.count) + " vs " + std::to_string(b.count);
  auto first = [](const auto& x, const auto& y) {
    size_t i = 0;
    while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
    return std::to_string(i);
  };
  if (a.def != b.def) return "definition levels differ at " + first(a.def, b.def);
  if (a.rep != b.rep) return "repetition levels differ at " + first(a.rep, b.rep);
  if (a.lengths != b.lengths) return "value lengths differ at " + first(a.lengths, b.lengths);
  if (a.values != b.values) return "value bytes differ at " + first(a.values, b.values);
  return "";
}

// ---- selections ----

std::vector<uint8_t> random_keep(std::mt19937& rng, int64_t n, double fraction, uint8_t yes = 1) {
  std::vector<uint8_t> keep(static_cast<size_t>(n));
  std::bernoulli_distribution d(fraction);
  for (auto& k : keep) k = d(rng) ? yes : 0;
  return keep;
}

// Alternating runs of unkept and kept rows, of lengths up to `longest`.
std::vector<uint8_t> runs_keep(std::mt19937& rng, int64_t n, int64_t longest) {
  std::vector<uint8_t> keep;
  uint8_t k = rng() % 2;
  while (static_cast<int64_t>(keep.size()) < n) {
    const int64_t len = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(longest));
    keep.insert(keep.end(), static_cast<size_t>(std::min(len, n - static_cast<int64_t>(keep.size()))), k);
    k = !k;
  }
  return keep;
}

struct Selection {
  std::string name;
  std::vector<uint8_t> keep;
};

std::vector<Selection> selections(std::mt19937& rng) {
  std::vector<Selection> out;
  out.push_back({"none", std::vector<uint8_t>(kRows, 0)});
  out.push_back({"all", std::vector<uint8_t>(kRows, 1)});
  out.push_back({"1%", random_keep(rng, kRows, 0.01)});
  out.push_back({"10%", random_keep(rng, kRows, 0.10)});
  out.push_back({"50% (flags 0xff)", random_keep(rng, kRows, 0.5, 0xff)});
  out.push_back({"90%", random_keep(rng, kRows, 0.9)});
  out.push_back({"short runs", runs_keep(rng, kRows, 40)});
  out.push_back({"long runs", runs_keep(rng, kRows, 3000)});
  // Everything kept but a stretch of a few pages, and the reverse.
  std::vector<uint8_t> hole(kRows, 1), island(kRows, 0);
  for (int64_t i = 1500; i < 4700; ++i) hole[i] = 0, island[i] = 1;
  out.push_back({"hole", hole});
  out.push_back({"island", island});
  return out;
}

std::string label(const TestFile& f, const ColumnDescriptor& c, const std::string& selection) {
  return f.variant.label + " " + c.dotted_path() + " " + selection + " at " + to_string(simd_level());
}

// Reads the whole column through `keep` both ways, in batches of random
// sizes; now and then both readers read or skip a stretch the ordinary
// way, stage the next page, or the selective one appends to what it has.
void compare_column(const TestFile& f, size_t col, const Selection& sel, std::mt19937& rng) {
  const ColumnDescriptor& c = f.file->schema().column(col);
  auto selective = open_leaf(*f.file, col);
  auto reference = open_leaf(*f.file, col);
  const std::string what = label(f, c, sel.name);
  int64_t at = 0;
  LeafBatch got;
  Flat want;
  while (at < kRows) {
    const uint32_t pick = rng() % 10;
    const int64_t n = pick < 2 ? 1 + rng() % 50 : pick < 4 ? 4096 + rng() % 3000 : 1 + rng() % 1500;
    const int64_t expected = std::min(n, kRows - at);
    if (rng() % 8 == 0) {
      PageDecompression a, b;
      if (selective->stage_page(a)) run_decompressions({&a, 1});
      if (reference->stage_page(b)) run_decompressions({&b, 1});
    }
    if (pick == 9) {
      // The ordinary way on both: a skip or a whole read.
      if (rng() % 2 == 0) {
        ASSERT_EQ(selective->skip_records(n), expected) << what;
        ASSERT_EQ(reference->skip_records(n), expected) << what;
      } else {
        LeafBatch a, b;
        ASSERT_EQ(selective->read_records(n, a), expected) << what;
        ASSERT_EQ(reference->read_records(n, b), expected) << what;
        ASSERT_EQ(diff(flat(c, a), flat(c, b)), "") << what << " read at " << at;
      }
      at += expected;
      continue;
    }
    // Flags past the chunk's end are set (and there are n, not more): the
    // reader must not act on them.
    std::vector<uint8_t> keep(sel.keep.begin() + at, sel.keep.begin() + at + expected);
    keep.resize(static_cast<size_t>(n), 0x5a);
    LeafBatch b;
    ASSERT_EQ(reference->read_records(n, b), expected) << what;
    keep_records(b, c, keep.data(), expected);
    append_flat(c, b, want);
    ASSERT_EQ(selective->read_selected(n, keep.data(), got), expected) << what << " at " << at;
    at += expected;
    if (rng() % 3 != 0) {
      ASSERT_EQ(diff(flat(c, got), want), "") << what << " batch ending at " << at;
      got.clear();
      want = Flat{};
    }
  }
  ASSERT_EQ(diff(flat(c, got), want), "") << what << " at the end";
  LeafBatch rest;
  const uint8_t one = 1;
  EXPECT_EQ(selective->read_selected(1, &one, rest), 0) << what;
  EXPECT_EQ(rest.num_entries, 0) << what;
}

TEST(LeafReadSelected, MatchesReadThenKeepForEveryTypeEncodingAndSelection) {
  for (SimdLevel level : testing::each_simd_level()) {
    (void)level;
    std::mt19937 rng(11);
    const std::vector<Selection> sels = selections(rng);
    for (const TestFile& f : test_files())
      for (size_t col = 0; col < f.file->schema().num_columns(); ++col)
        for (const Selection& sel : sels) {
          compare_column(f, col, sel, rng);
          if (::testing::Test::HasFatalFailure()) return;
        }
  }
}

// The files hold what the test means them to: every encoding of the table
// in data pages, dictionary fallbacks, PLAIN_DICTIONARY pages.
TEST(LeafReadSelected, TheFilesHoldEveryEncoding) {
  std::set<std::pair<Type, Encoding>> seen;
  for (const TestFile& f : test_files()) {
    bool fallback = false;
    for (size_t col = 0; col < f.file->schema().num_columns(); ++col) {
      PageReader pages(f.file->input(), f.file->metadata(), 0, col, "c");
      PageInfo page;
      bool dictionary = false, other = false;
      while (pages.next(page)) {
        const Type type = f.file->schema().column(col).type.physical;
        std::optional<Encoding> e;
        if (page.header.data_page_header) e = page.header.data_page_header->encoding;
        if (page.header.data_page_header_v2) e = page.header.data_page_header_v2->encoding;
        if (!e) continue;
        seen.insert({type, *e});
        const bool dict = *e == Encoding::RLE_DICTIONARY || *e == Encoding::PLAIN_DICTIONARY;
        dictionary |= dict;
        other |= !dict;
      }
      fallback |= dictionary && other;
    }
    if (f.variant.small_dictionary) {
      EXPECT_TRUE(fallback) << f.variant.label;
    }
  }
  const std::vector<std::pair<Type, Encoding>> every = {
      {Type::BOOLEAN, Encoding::PLAIN},
      {Type::BOOLEAN, Encoding::RLE},
      {Type::INT32, Encoding::PLAIN},
      {Type::INT32, Encoding::PLAIN_DICTIONARY},
      {Type::INT32, Encoding::RLE_DICTIONARY},
      {Type::INT32, Encoding::DELTA_BINARY_PACKED},
      {Type::INT32, Encoding::BYTE_STREAM_SPLIT},
      {Type::INT64, Encoding::PLAIN},
      {Type::INT64, Encoding::PLAIN_DICTIONARY},
      {Type::INT64, Encoding::RLE_DICTIONARY},
      {Type::INT64, Encoding::DELTA_BINARY_PACKED},
      {Type::INT64, Encoding::BYTE_STREAM_SPLIT},
      {Type::INT96, Encoding::PLAIN},
      {Type::INT96, Encoding::PLAIN_DICTIONARY},
      {Type::INT96, Encoding::RLE_DICTIONARY},
      {Type::FLOAT, Encoding::PLAIN},
      {Type::FLOAT, Encoding::PLAIN_DICTIONARY},
      {Type::FLOAT, Encoding::RLE_DICTIONARY},
      {Type::FLOAT, Encoding::BYTE_STREAM_SPLIT},
      {Type::FLOAT, Encoding::ALP},
      {Type::DOUBLE, Encoding::PLAIN},
      {Type::DOUBLE, Encoding::PLAIN_DICTIONARY},
      {Type::DOUBLE, Encoding::RLE_DICTIONARY},
      {Type::DOUBLE, Encoding::BYTE_STREAM_SPLIT},
      {Type::DOUBLE, Encoding::ALP},
      {Type::BYTE_ARRAY, Encoding::PLAIN},
      {Type::BYTE_ARRAY, Encoding::PLAIN_DICTIONARY},
      {Type::BYTE_ARRAY, Encoding::RLE_DICTIONARY},
      {Type::BYTE_ARRAY, Encoding::DELTA_LENGTH_BYTE_ARRAY},
      {Type::BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY},
      {Type::FIXED_LEN_BYTE_ARRAY, Encoding::PLAIN},
      {Type::FIXED_LEN_BYTE_ARRAY, Encoding::PLAIN_DICTIONARY},
      {Type::FIXED_LEN_BYTE_ARRAY, Encoding::RLE_DICTIONARY},
      {Type::FIXED_LEN_BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY},
      {Type::FIXED_LEN_BYTE_ARRAY, Encoding::BYTE_STREAM_SPLIT},
  };
  for (const auto& [type, encoding] : every)
    EXPECT_TRUE(seen.count({type, encoding})) << format::to_string(type) << " " << format::to_string(encoding);
}

// A selection that keeps nothing passes every page over on its header; one
// that keeps a few rows decompresses only the pages they are in.
TEST(LeafReadSelected, PagesInsideUnkeptRunsAreNotDecompressed) {
  for (const TestFile& f : test_files()) {
    if (f.variant.page_rows != 97) continue;
    for (size_t col = 0; col < f.file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = f.file->schema().column(col);
      const bool tells_rows = c.max_repetition_level == 0 || f.variant.page_version == 2;
      if (!tells_rows) continue;
      const std::string what = f.variant.label + " " + c.dotted_path();
      int64_t pages = 0;  // a dictionary fallback cuts a page short: count them
      {
        auto whole = open_leaf(*f.file, col);
        LeafBatch all;
        ASSERT_EQ(whole->read_records(kRows, all), kRows);
        pages = whole->counters().pages_decompressed;
      }
      {
        auto reader = open_leaf(*f.file, col);
        std::vector<uint8_t> none(kRows, 0);
        LeafBatch out;
        ASSERT_EQ(reader->read_selected(kRows, none.data(), out), kRows) << what;
        EXPECT_EQ(out.num_entries, 0) << what;
        EXPECT_EQ(reader->counters().pages_decompressed, 0) << what;
        EXPECT_EQ(reader->counters().pages_skipped, pages) << what;
        EXPECT_EQ(reader->counters().values_decoded, 0) << what;
      }
      {
        // Rows 10 and 5000: the first page and page 51 (of 97 rows each).
        auto reader = open_leaf(*f.file, col);
        std::vector<uint8_t> two(kRows, 0);
        two[10] = two[5000] = 1;
        LeafBatch out;
        ASSERT_EQ(reader->read_selected(kRows, two.data(), out), kRows) << what;
        int64_t records = 0;
        for (int64_t i = 0; i < out.num_entries; ++i)
          records += c.max_repetition_level == 0 || out.rep_levels()[i] == 0;
        EXPECT_EQ(records, 2) << what;
        if (c.max_repetition_level == 0) {
          EXPECT_EQ(reader->counters().pages_decompressed, 2) << what;
          EXPECT_EQ(reader->counters().pages_skipped, pages - 2) << what;
        }
      }
    }
  }
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

// Damaging a page inside an unkept run changes nothing for a selective
// read, which never decompresses it.
TEST(LeafReadSelected, ADamagedPageInsideAnUnkeptRunIsNeverRead) {
  const TestFile& clean = test_files()[0];
  const size_t col = static_cast<size_t>(clean.file->schema().find_column("BYTE_ARRAY_PLAIN_opt"));
  Buffer bytes = clean.bytes;
  const auto [offset, size] = data_page_payload(*clean.file, col, 3);
  ASSERT_GT(size, 16u);
  std::memset(bytes.data() + offset + size / 2, 0xff, size - size / 2);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  PageReaderOptions no_crc;
  no_crc.verify_crc = false;
  std::vector<uint8_t> keep(kRows, 1);
  for (int64_t i = 2 * 97 + 5; i < 5 * 97; ++i) keep[static_cast<size_t>(i)] = 0;
  auto selective = open_leaf(*file, col, no_crc);
  auto reference = open_leaf(*clean.file, col);
  LeafBatch got, want;
  ASSERT_EQ(selective->read_selected(kRows, keep.data(), got), kRows);
  ASSERT_EQ(reference->read_records(kRows, want), kRows);
  keep_records(want, file->schema().column(col), keep.data(), kRows);
  EXPECT_EQ(diff(flat(file->schema().column(col), got), flat(file->schema().column(col), want)), "");
  EXPECT_EQ(selective->counters().pages_skipped, 2);
  auto reading = open_leaf(*file, col, no_crc);
  LeafBatch all;
  EXPECT_THROW(reading->read_records(kRows, all), Error);
}

// Over a partial chunk (the pages the offset index places under some row
// ranges): rows between them are never kept, and read_selected passes over
// them as skip_records does.
TEST(LeafReadSelected, PassesOverRowsWhosePagesWereNotFetched) {
  const std::vector<RowRange> ranges = {{150, 160}, {300, 420}, {5000, 6000}, {8990, 9000}};
  std::mt19937 rng(12);
  for (const TestFile& f : test_files()) {
    if (f.variant.page_rows != 97) continue;
    for (size_t col = 0; col < f.file->schema().num_columns(); ++col) {
      const ColumnDescriptor& c = f.file->schema().column(col);
      const std::string what = f.variant.label + " " + c.dotted_path();
      auto index = read_page_index(*f.file, 0, col);
      ASSERT_TRUE(index && index->offset_index) << what;
      const fetch::ChunkRequest request =
          fetch::chunk_request(f.file->metadata(), 0, col, f.bytes.size(), &*index->offset_index, ranges, kRows);
      ASSERT_TRUE(request.partial) << what;
      std::vector<ChunkBytes> bytes = fetch::fetch_chunks(f.file->input(), {request});
      LeafReader partial(std::move(bytes[0]), "test", f.file->metadata(), 0, c, PageReaderOptions{});
      std::vector<uint8_t> keep(kRows, 0);
      for (const RowRange& r : ranges)
        for (int64_t i = r.begin; i < r.end; ++i) keep[static_cast<size_t>(i)] = rng() % 3 != 0;
      auto whole = open_leaf(*f.file, col);
      LeafBatch got, want;
      int64_t at = 0;
      while (at < kRows) {
        const int64_t n = std::min<int64_t>(kRows - at, 1 + rng() % 2500);
        ASSERT_EQ(partial.read_selected(n, keep.data() + at, got), n) << what << " at " << at;
        at += n;
      }
      ASSERT_EQ(whole->read_records(kRows, want), kRows);
      keep_records(want, c, keep.data(), kRows);
      EXPECT_EQ(diff(flat(c, got), flat(c, want)), "") << what;
    }
  }
}

}  // namespace
}  // namespace parq
