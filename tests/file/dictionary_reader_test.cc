// Dictionaries read back: which chunks are dictionary-encoded throughout
// (from encoding stats, else the encodings list, answering false when
// unsure); the dictionary page decoded into a leaf of the column's type for
// written files and corpus files; crafted dictionary pages whose counts
// exceed their bytes, or that use another encoding, are errors naming the
// column.
#include "parq/file/dictionary_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "parq/error.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

using format::Encoding;
using format::PageType;
using ::testing::HasSubstr;

format::ColumnMetaData with_stats(std::vector<format::PageEncodingStats> stats) {
  format::ColumnMetaData md;
  md.type = format::Type::INT32;
  md.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
  md.encoding_stats = std::move(stats);
  return md;
}

format::ColumnMetaData with_encodings(format::Type type, std::vector<Encoding> encodings) {
  format::ColumnMetaData md;
  md.type = type;
  md.encodings = std::move(encodings);
  return md;
}

TEST(DictionaryEncoded, FromEncodingStats) {
  const format::PageEncodingStats dict_page{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1};
  EXPECT_TRUE(all_pages_dictionary_encoded(with_stats({dict_page,
                                                       {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 5},
                                                       {PageType::DATA_PAGE_V2, Encoding::PLAIN_DICTIONARY, 1}})));
  EXPECT_FALSE(all_pages_dictionary_encoded(with_stats(
      {dict_page, {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 5}, {PageType::DATA_PAGE, Encoding::PLAIN, 1}})));
  EXPECT_FALSE(all_pages_dictionary_encoded(
      with_stats({dict_page, {PageType::DATA_PAGE_V2, Encoding::DELTA_BINARY_PACKED, 1}})));
  // An entry for no pages does not count; a negative count is not trusted.
  EXPECT_TRUE(all_pages_dictionary_encoded(with_stats(
      {dict_page, {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 2}, {PageType::DATA_PAGE, Encoding::PLAIN, 0}})));
  EXPECT_FALSE(all_pages_dictionary_encoded(with_stats(
      {dict_page, {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 2}, {PageType::DATA_PAGE, Encoding::PLAIN, -1}})));
  // No data pages at all: nothing says the dictionary covers them.
  EXPECT_FALSE(all_pages_dictionary_encoded(with_stats({dict_page})));
  EXPECT_FALSE(all_pages_dictionary_encoded(with_stats({})));
}

TEST(DictionaryEncoded, FromEncodingsOnlyWhenNothingElseIsListed) {
  using format::Type;
  EXPECT_TRUE(all_pages_dictionary_encoded(
      with_encodings(Type::INT32, {Encoding::PLAIN_DICTIONARY, Encoding::RLE, Encoding::BIT_PACKED})));
  EXPECT_TRUE(
      all_pages_dictionary_encoded(with_encodings(Type::BYTE_ARRAY, {Encoding::RLE_DICTIONARY, Encoding::RLE})));
  // PLAIN may be the dictionary page's or a fallback's: unsure.
  EXPECT_FALSE(all_pages_dictionary_encoded(
      with_encodings(Type::BYTE_ARRAY, {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY})));
  EXPECT_FALSE(all_pages_dictionary_encoded(
      with_encodings(Type::INT32, {Encoding::PLAIN_DICTIONARY, Encoding::DELTA_BINARY_PACKED})));
  EXPECT_FALSE(all_pages_dictionary_encoded(with_encodings(Type::INT32, {Encoding::PLAIN, Encoding::RLE})));
  EXPECT_FALSE(all_pages_dictionary_encoded(with_encodings(Type::INT32, {})));
  // RLE encodes boolean values too.
  EXPECT_FALSE(all_pages_dictionary_encoded(with_encodings(Type::BOOLEAN, {Encoding::RLE_DICTIONARY, Encoding::RLE})));
}

// ---- written files ----

Schema test_schema() {
  return make_schema({Field::string("s").required(), Field::int32("i").required(), Field::float64("d").required(),
                      Field::uuid("u").required(), Field::boolean("b").required()});
}

// 40 rows: s cycles over four words, i over {7, -1, 300}, d over {0.5, 2.5},
// u over two UUIDs, b alternates.
Buffer write_file(const WriteOptions& options) {
  Schema schema = test_schema();
  const char* words[] = {"pear", "apple", "fig", "apple"};
  const int32_t ints[] = {7, -1, 300};
  const double doubles[] = {0.5, 2.5};
  RecordBatch batch;
  batch.num_rows = 40;
  for (size_t c = 0; c < 5; ++c) {
    Array a;
    a.name = schema.column(c).path.back();
    a.type = schema.column(c).type;
    a.length = 40;
    batch.columns.push_back(std::move(a));
  }
  batch.columns[0].offsets.append_value<int32_t>(0);
  batch.columns[4].values.resize(5);
  std::memset(batch.columns[4].values.data(), 0, 5);
  for (int r = 0; r < 40; ++r) {
    batch.columns[0].values.append(words[r % 4]);
    batch.columns[0].offsets.append_value(static_cast<int32_t>(batch.columns[0].values.size()));
    batch.columns[1].values.append_value(ints[r % 3]);
    batch.columns[2].values.append_value(doubles[r % 2]);
    uint8_t uuid[16];
    std::memset(uuid, r % 2 ? 0xab : 0x01, sizeof uuid);
    batch.columns[3].values.append(uuid, sizeof uuid);
    if (r % 2) batch.columns[4].values.data()[r / 8] |= static_cast<uint8_t>(1u << (r % 8));
  }
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return sink->take();
}

std::vector<std::string> strings_of(const Array& a) {
  std::vector<std::string> out;
  const int32_t* o = a.offsets_data();
  for (int64_t i = 0; i < a.length; ++i)
    out.emplace_back(reinterpret_cast<const char*>(a.values.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i]));
  return out;
}

template <class T>
std::set<T> values_of(const Array& a) {
  std::set<T> out;
  for (int64_t i = 0; i < a.length; ++i) out.insert(a.values.data_as<T>()[i]);
  return out;
}

TEST(DictionaryReader, WrittenDictionariesHoldTheDistinctValues) {
  Buffer bytes = write_file({});
  auto file = FileReader::open(io::memory_input(bytes.span()));
  auto s = read_dictionary(*file, 0, 0);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->kind, ArrayKind::kLeaf);
  EXPECT_EQ(s->name, "s");
  EXPECT_EQ(s->type, file->schema().column(0).type);
  auto words = strings_of(*s);
  std::sort(words.begin(), words.end());
  EXPECT_EQ(words, (std::vector<std::string>{"apple", "fig", "pear"}));

  auto i = read_dictionary(*file, 0, 1);
  ASSERT_TRUE(i.has_value());
  EXPECT_EQ(values_of<int32_t>(*i), (std::set<int32_t>{-1, 7, 300}));
  auto d = read_dictionary(*file, 0, 2);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(values_of<double>(*d), (std::set<double>{0.5, 2.5}));
  auto u = read_dictionary(*file, 0, 3);
  ASSERT_TRUE(u.has_value());
  ASSERT_EQ(u->length, 2);
  ASSERT_EQ(u->values.size(), 32u);
  std::set<uint8_t> first_bytes = {u->values.data()[0], u->values.data()[16]};
  EXPECT_EQ(first_bytes, (std::set<uint8_t>{0x01, 0xab}));

  for (size_t c = 0; c < 4; ++c)
    EXPECT_TRUE(all_pages_dictionary_encoded(*file->metadata().row_groups[0].columns[c].meta_data)) << c;
  EXPECT_THROW(read_dictionary(*file, 1, 0), Error);
}

TEST(DictionaryReader, NoDictionaryPageIsNullopt) {
  WriteOptions options;
  options.dictionary = false;
  Buffer bytes = write_file(options);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  for (size_t c = 0; c < 5; ++c) {
    EXPECT_FALSE(read_dictionary(*file, 0, c).has_value()) << c;
    EXPECT_FALSE(all_pages_dictionary_encoded(*file->metadata().row_groups[0].columns[c].meta_data)) << c;
  }
}

TEST(DictionaryReader, FallbackKeepsTheDictionaryButNotAllPages) {
  WriteOptions options;
  options.dictionary_limits.max_entries = 2;
  options.page_rows = 4;
  Buffer bytes = write_file(options);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  auto s = read_dictionary(*file, 0, 0);
  ASSERT_TRUE(s.has_value());
  EXPECT_LE(s->length, 2);
  EXPECT_FALSE(all_pages_dictionary_encoded(*file->metadata().row_groups[0].columns[0].meta_data));
}

TEST(DictionaryReader, CorpusDictionaries) {
  auto file = FileReader::open((testing::corpus_dir() / "data/alltypes_plain.parquet").string());
  const int c = file->schema().find_column("string_col");
  ASSERT_GE(c, 0);
  auto dict = read_dictionary(*file, 0, static_cast<size_t>(c));
  ASSERT_TRUE(dict.has_value());
  auto words = strings_of(*dict);
  std::sort(words.begin(), words.end());
  EXPECT_EQ(words, (std::vector<std::string>{"0", "1"}));
  const int id = file->schema().find_column("id");
  auto ids = read_dictionary(*file, 0, static_cast<size_t>(id));
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(values_of<int32_t>(*ids), (std::set<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));

  auto rs = FileReader::open((testing::corpus_dir() / "data/data_index_bloom_encoding_with_length.parquet").string());
  auto strings = read_dictionary(*rs, 0, 0);
  ASSERT_TRUE(strings.has_value());
  EXPECT_EQ(strings->length, 14);
  EXPECT_THAT(strings_of(*strings), ::testing::Contains("the lazy"));
  // No encoding stats, and PLAIN listed beside RLE_DICTIONARY (the
  // dictionary page's, but it could be a fallback's): unsure, so no.
  EXPECT_FALSE(all_pages_dictionary_encoded(*rs->metadata().row_groups[0].columns[0].meta_data));
}

// ---- crafted dictionary pages ----

struct Crafted {
  std::vector<uint8_t> bytes;
  format::FileMetaData md;
};

// "PAR1", then one page of `type` holding `payload`, as the only page of a
// chunk of column 0 in row group 0.
Crafted craft(format::Type physical, PageType type, int32_t num_values, Encoding encoding, std::string payload) {
  format::PageHeader h;
  h.type = type;
  h.uncompressed_page_size = h.compressed_page_size = static_cast<int32_t>(payload.size());
  if (type == PageType::DICTIONARY_PAGE) {
    h.dictionary_page_header.emplace();
    h.dictionary_page_header->num_values = num_values;
    h.dictionary_page_header->encoding = encoding;
  } else {
    h.data_page_header.emplace();
    h.data_page_header->num_values = num_values;
    h.data_page_header->encoding = encoding;
  }
  std::string page;
  format::encode_thrift(h, page);
  page += payload;
  Crafted c;
  c.bytes.resize(4 + page.size());
  std::memcpy(c.bytes.data(), "PAR1", 4);
  std::memcpy(c.bytes.data() + 4, page.data(), page.size());
  c.md.row_groups.resize(1);
  c.md.row_groups[0].num_rows = 1;
  c.md.row_groups[0].columns.resize(1);
  auto& m = c.md.row_groups[0].columns[0].meta_data.emplace();
  m.type = physical;
  m.path_in_schema = {"v"};
  m.num_values = 1;
  m.data_page_offset = 4;
  m.total_compressed_size = static_cast<int64_t>(page.size());
  m.total_uncompressed_size = m.total_compressed_size;
  return c;
}

std::string read_error(const Crafted& c, const Schema& schema) {
  auto input = io::memory_input(c.bytes, "dict.parquet");
  try {
    read_dictionary(*input, c.md, schema.column(0), 0);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string plain_int32s(std::initializer_list<int32_t> values) {
  std::string out;
  for (int32_t v : values) out.append(reinterpret_cast<const char*>(&v), 4);
  return out;
}

TEST(DictionaryReader, CraftedPageDecodes) {
  Schema schema = make_schema({Field::int32("v").required()});
  Crafted c = craft(format::Type::INT32, PageType::DICTIONARY_PAGE, 3, Encoding::PLAIN, plain_int32s({5, 6, 7}));
  auto input = io::memory_input(c.bytes, "dict.parquet");
  auto dict = read_dictionary(*input, c.md, schema.column(0), 0);
  ASSERT_TRUE(dict.has_value());
  ASSERT_EQ(dict->length, 3);
  EXPECT_EQ(dict->values.data_as<int32_t>()[2], 7);
  // A chunk that starts with a data page has no dictionary.
  Crafted data = craft(format::Type::INT32, PageType::DATA_PAGE, 1, Encoding::PLAIN, plain_int32s({5}));
  auto data_input = io::memory_input(data.bytes, "dict.parquet");
  EXPECT_FALSE(read_dictionary(*data_input, data.md, schema.column(0), 0).has_value());
}

TEST(DictionaryReader, CountsBeyondTheBytesAreErrorsBeforeAllocating) {
  Schema ints = make_schema({Field::int32("v").required()});
  std::string e = read_error(
      craft(format::Type::INT32, PageType::DICTIONARY_PAGE, INT32_MAX, Encoding::PLAIN, plain_int32s({1, 2})), ints);
  EXPECT_THAT(e, HasSubstr("dict.parquet: column v, row group 0, page 0"));
  EXPECT_THAT(e, HasSubstr("2147483647 values cannot fit in 8 bytes"));

  Schema strings = make_schema({Field::string("v").required()});
  e = read_error(craft(format::Type::BYTE_ARRAY, PageType::DICTIONARY_PAGE, INT32_MAX, Encoding::PLAIN, "abcdefgh"),
                 strings);
  EXPECT_THAT(e, HasSubstr("values cannot fit in 8 bytes"));
  // A length that runs past the page.
  std::string payload = plain_int32s({100}) + "abc";
  e = read_error(craft(format::Type::BYTE_ARRAY, PageType::DICTIONARY_PAGE, 1, Encoding::PLAIN, payload), strings);
  EXPECT_THAT(e, HasSubstr("dict.parquet: column v, row group 0, page 0"));

  Schema booleans = make_schema({Field::boolean("v").required()});
  e = read_error(craft(format::Type::BOOLEAN, PageType::DICTIONARY_PAGE, 17, Encoding::PLAIN, "ab"), booleans);
  EXPECT_THAT(e, HasSubstr("17 values cannot fit in 2 bytes"));

  e = read_error(craft(format::Type::INT32, PageType::DICTIONARY_PAGE, -1, Encoding::PLAIN, ""), ints);
  EXPECT_THAT(e, HasSubstr("negative size"));
}

TEST(DictionaryReader, OnlyPlainDictionaries) {
  Schema ints = make_schema({Field::int32("v").required()});
  std::string e = read_error(
      craft(format::Type::INT32, PageType::DICTIONARY_PAGE, 1, Encoding::RLE_DICTIONARY, plain_int32s({1})), ints);
  EXPECT_THAT(e, HasSubstr("column v, row group 0, page 0"));
  EXPECT_THAT(e, HasSubstr("encoding RLE_DICTIONARY"));
  // The chunk's type must be the schema's.
  Schema longs = make_schema({Field::int64("v").required()});
  e = read_error(craft(format::Type::INT32, PageType::DICTIONARY_PAGE, 1, Encoding::PLAIN, plain_int32s({1})), longs);
  EXPECT_THAT(e, HasSubstr("the chunk's type INT32 is not the schema's INT64"));
}

}  // namespace
}  // namespace parq
