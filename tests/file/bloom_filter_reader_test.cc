// Bloom filters read back: a written filter answers for every value it was
// built from, with and without bloom_filter_length; the corpus filters (one
// without a length, one with) hold their files' strings; filters outside the
// file, too large or not decodable are errors naming the column.
#include "parq/file/bloom_filter_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "parq/error.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

using ::testing::HasSubstr;

std::string word(int i) { return "word-" + std::to_string(i); }

// id: 0..199; name: word(0)..word(199), with a filter on name only.
Buffer write_file() {
  Schema schema = make_schema({Field::int64("id").required(), Field::string("name").required()});
  RecordBatch batch;
  batch.num_rows = 200;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  Array name;
  name.name = "name";
  name.type = schema.column(1).type;
  name.offsets.append_value<int32_t>(0);
  for (int i = 0; i < 200; ++i) {
    id.values.append_value<int64_t>(i);
    name.values.append(word(i));
    name.offsets.append_value(static_cast<int32_t>(name.values.size()));
  }
  id.length = name.length = 200;
  batch.columns = {std::move(id), std::move(name)};
  WriteOptions options;
  options.columns["name"].bloom_filter = BloomFilterOptions{};
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return sink->take();
}

int count_present(const BloomFilter& filter, int from, int to) {
  int n = 0;
  for (int i = from; i < to; ++i) n += filter.might_contain(BloomFilter::hash(word(i)));
  return n;
}

TEST(BloomFilterReader, WrittenFilterHoldsEveryValue) {
  Buffer bytes = write_file();
  auto file = FileReader::open(io::memory_input(bytes.span()));
  EXPECT_FALSE(read_bloom_filter(*file, 0, 0).has_value());  // id has none
  auto filter = read_bloom_filter(*file, 0, 1);
  ASSERT_TRUE(filter.has_value());
  EXPECT_EQ(count_present(*filter, 0, 200), 200);
  // A 1% false-positive rate: a few of a thousand absent values at most.
  EXPECT_LT(count_present(*filter, 1000, 2000), 50);
}

TEST(BloomFilterReader, WithoutLengthTheHeaderGivesTheSize) {
  Buffer bytes = write_file();
  auto file = FileReader::open(io::memory_input(bytes.span()));
  format::FileMetaData md = file->metadata();
  ASSERT_TRUE(md.row_groups[0].columns[1].meta_data->bloom_filter_length.has_value());
  md.row_groups[0].columns[1].meta_data->bloom_filter_length.reset();
  auto without = read_bloom_filter(file->input(), md, 0, 1);
  auto with = read_bloom_filter(*file, 0, 1);
  ASSERT_TRUE(without && with);
  EXPECT_TRUE(
      std::equal(without->bitset().begin(), without->bitset().end(), with->bitset().begin(), with->bitset().end()));
}

TEST(BloomFilterReader, CorpusFiltersHoldTheirStrings) {
  const std::vector<std::string> present = {"Hello", "This is",   "a",         "test",  "How",  "are you",  "doing ",
                                            "today", "the quick", "brown fox", "jumps", "over", "the lazy", "dog"};
  for (const char* name :
       {"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"}) {
    auto file = FileReader::open((testing::corpus_dir() / "data" / name).string());
    auto filter = read_bloom_filter(*file, 0, 0);
    ASSERT_TRUE(filter.has_value()) << name;
    for (const auto& v : present) EXPECT_TRUE(filter->might_contain(BloomFilter::hash(v))) << name << ": " << v;
    int false_positives = 0;
    for (int i = 0; i < 100; ++i) false_positives += filter->might_contain(BloomFilter::hash(word(i)));
    EXPECT_LT(false_positives, 10) << name;
  }
}

// A metadata of one INT32 column whose filter is at offset 0 of `bytes`.
format::FileMetaData bare_filter_metadata(std::optional<int32_t> length) {
  format::FileMetaData md;
  md.row_groups.resize(1);
  md.row_groups[0].columns.resize(1);
  auto& m = md.row_groups[0].columns[0].meta_data.emplace();
  m.type = format::Type::BYTE_ARRAY;
  m.path_in_schema = {"words"};
  m.bloom_filter_offset = 0;
  m.bloom_filter_length = length;
  return md;
}

std::string read_error(const std::vector<uint8_t>& bytes, const format::FileMetaData& md) {
  auto input = io::memory_input(bytes, "filter.bin");
  try {
    read_bloom_filter(*input, md, 0, 0);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(BloomFilterReader, BareCorpusFilters) {
  auto xxhash = testing::read_file_bytes(testing::corpus_dir() / "data/bloom_filter.xxhash.bin");
  auto input = io::memory_input(xxhash, "filter.bin");
  auto filter = read_bloom_filter(*input, bare_filter_metadata(std::nullopt), 0, 0);
  ASSERT_TRUE(filter.has_value());
  for (const char* v : {"hello", "parquet", "bloom", "filter"})
    EXPECT_TRUE(filter->might_contain(BloomFilter::hash(std::string_view(v)))) << v;
  EXPECT_EQ(read_bloom_filter(*input, bare_filter_metadata(static_cast<int32_t>(xxhash.size())), 0, 0)->num_bytes(),
            filter->num_bytes());
  // The old Murmur3 format is not a Thrift header.
  auto murmur = testing::read_file_bytes(testing::corpus_dir() / "data/bloom_filter.bin");
  EXPECT_THAT(read_error(murmur, bare_filter_metadata(std::nullopt)),
              HasSubstr("filter.bin: column words, row group 0"));
}

TEST(BloomFilterReader, BadLocationsAndSizesAreErrorsNamingTheColumn) {
  auto good = testing::read_file_bytes(testing::corpus_dir() / "data/bloom_filter.xxhash.bin");
  auto md = bare_filter_metadata(std::nullopt);
  md.row_groups[0].columns[0].meta_data->bloom_filter_offset = static_cast<int64_t>(good.size());
  EXPECT_THAT(read_error(good, md), HasSubstr("filter.bin: column words, row group 0: bloom filter: offset"));
  md.row_groups[0].columns[0].meta_data->bloom_filter_offset = -1;
  EXPECT_THAT(read_error(good, md), HasSubstr("is outside the file"));

  md = bare_filter_metadata(static_cast<int32_t>(good.size() + 1));
  EXPECT_THAT(read_error(good, md), HasSubstr("does not fit the file"));
  md = bare_filter_metadata(0);
  EXPECT_THAT(read_error(good, md), HasSubstr("length 0"));
  // A length that cuts the bitset short.
  md = bare_filter_metadata(static_cast<int32_t>(good.size() - 1));
  EXPECT_THAT(read_error(good, md), HasSubstr("runs past"));

  // Without a length, the header's size is all there is: one larger than
  // the file, or than any filter, is refused before anything is read.
  for (int32_t num_bytes : {2048, int32_t{1} << 30, -32}) {
    format::BloomFilterHeader header;
    header.num_bytes = num_bytes;
    header.algorithm.BLOCK.emplace();
    header.hash.XXHASH.emplace();
    header.compression.UNCOMPRESSED.emplace();
    std::string encoded;
    format::encode_thrift(header, encoded);
    std::vector<uint8_t> bytes(encoded.begin(), encoded.end());
    bytes.resize(bytes.size() + 1024, 0);
    EXPECT_THAT(read_error(bytes, bare_filter_metadata(std::nullopt)),
                HasSubstr("column words, row group 0: bloom filter"))
        << num_bytes;
  }
  // Flipped bytes anywhere in the header: an error or a filter, never a crash.
  for (size_t i = 0; i < 16; ++i) {
    auto bytes = good;
    bytes[i] ^= 0x5a;
    const std::string e = read_error(bytes, bare_filter_metadata(std::nullopt));
    if (e != "no error") {
      EXPECT_THAT(e, HasSubstr("filter.bin: column words, row group 0")) << i;
    }
  }
  EXPECT_THROW(read_bloom_filter(*io::memory_input(good), bare_filter_metadata(std::nullopt), 1, 0), Error);
}

}  // namespace
}  // namespace parq
