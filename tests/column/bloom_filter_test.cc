// Tests of the split block bloom filter: hashes of known inputs, the bit
// layout BloomFilter.md fixes, no false negatives and a false-positive rate
// near the one asked for, sizing, the on-disk form (ours and parquet-mr's),
// and malformed headers.
#include "parq/column/bloom_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/format/metadata_codec.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"
#include "test_paths.h"

namespace parq {
namespace {

using format::Type;

std::string header_bytes(int32_t num_bytes, bool block = true, bool xxhash = true, bool uncompressed = true) {
  format::BloomFilterHeader h;
  h.num_bytes = num_bytes;
  if (block) h.algorithm.BLOCK.emplace();
  if (xxhash) h.hash.XXHASH.emplace();
  if (uncompressed) h.compression.UNCOMPRESSED.emplace();
  std::string out;
  format::encode_thrift(h, out);
  return out;
}

std::span<const uint8_t> span_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// ---- hashing ----

TEST(BloomFilterTest, HashesOfKnownInputs) {
  // XXH64 with seed 0, from the xxHash specification's examples.
  EXPECT_EQ(BloomFilter::hash(std::string_view("")), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(BloomFilter::hash(std::string_view("a")), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(BloomFilter::hash(std::string_view("abc")), 0x44BC2CF5AD770999ULL);
  // Values hash as their PLAIN bytes (little-endian numbers); these were
  // computed by an independent implementation of the specification.
  EXPECT_EQ(BloomFilter::hash(int32_t{42}), 0xD756D7B62FC50BF1ULL);
  EXPECT_EQ(BloomFilter::hash(int64_t{42}), 0xB556806FB6D14353ULL);
  EXPECT_EQ(BloomFilter::hash(1.5f), 0x4F2D82595C483A0DULL);
  EXPECT_EQ(BloomFilter::hash(1.5), 0x49F7B96B6B5CCAF9ULL);
  EXPECT_EQ(BloomFilter::hash(encoding::Int96{{1, 2, 3}}), 0xB5148CB100A911FCULL);
  std::string forty(40, '\0');
  for (int i = 0; i < 40; ++i) forty[i] = static_cast<char>(i);
  EXPECT_EQ(BloomFilter::hash(std::string_view(forty)), 0xF5DA40F1B11741E9ULL);  // the 32-byte stripe path
}

TEST(BloomFilterTest, BatchHashesMatchSingleHashes) {
  std::mt19937_64 rng(1);
  const size_t n = 37;
  std::vector<int32_t> i32(n);
  std::vector<int64_t> i64(n);
  std::vector<float> f32(n);
  std::vector<double> f64(n);
  std::vector<encoding::Int96> i96(n);
  std::string fixed(n * 5, '\0');
  for (size_t i = 0; i < n; ++i) {
    i32[i] = static_cast<int32_t>(rng());
    i64[i] = static_cast<int64_t>(rng());
    f32[i] = static_cast<float>(rng() % 1000) / 7;
    f64[i] = static_cast<double>(rng() % 1000) / 7;
    i96[i] = {{static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())}};
  }
  for (auto& c : fixed) c = static_cast<char>(rng());
  std::vector<uint64_t> out(n);
  BloomFilter::hash_values(Type::INT32, 0, i32.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(i32[i]));
  BloomFilter::hash_values(Type::INT64, 0, i64.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(i64[i]));
  BloomFilter::hash_values(Type::FLOAT, 0, f32.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(f32[i]));
  BloomFilter::hash_values(Type::DOUBLE, 0, f64.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(f64[i]));
  BloomFilter::hash_values(Type::INT96, 0, i96.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(i96[i]));
  BloomFilter::hash_values(Type::FIXED_LEN_BYTE_ARRAY, 5, fixed.data(), n, out.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], BloomFilter::hash(std::string_view(fixed).substr(i * 5, 5)));

  const std::vector<std::string> strings = {"", "x", "hello", std::string(100, 'z')};
  std::vector<int32_t> offsets{0};
  std::string data;
  for (const auto& s : strings) {
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  BloomFilter::hash_byte_arrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), strings.size(),
                                out.data());
  for (size_t i = 0; i < strings.size(); ++i) EXPECT_EQ(out[i], BloomFilter::hash(std::string_view(strings[i])));
}

TEST(BloomFilterTest, TypesWithoutFiltersAreRejected) {
  uint64_t out[1];
  const uint8_t value = 1;
  EXPECT_THROW(BloomFilter::hash_values(Type::BOOLEAN, 0, &value, 1, out), Error);
  EXPECT_THROW(BloomFilter::hash_values(Type::BYTE_ARRAY, 0, &value, 1, out), Error);
  EXPECT_THROW(BloomFilter::hash_values(Type::FIXED_LEN_BYTE_ARRAY, 0, &value, 1, out), Error);
}

// ---- layout ----

// The bits BloomFilter.md sets for a key: in word i, bit (key * salt[i]) >> 27.
std::vector<uint32_t> expected_block(uint32_t key) {
  constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                 0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
  std::vector<uint32_t> words(8);
  for (int i = 0; i < 8; ++i) words[i] = uint32_t{1} << ((key * kSalt[i]) >> 27);
  return words;
}

TEST(BloomFilterTest, SetsTheSpecifiedBitsInTheSelectedBlock) {
  for (SimdLevel level : testing::each_simd_level()) {
    // Four blocks: the top 32 bits scaled by 4 pick block 3 for 0xC0000000.
    BloomFilter filter(128);
    const uint32_t key = 0x12345678;
    filter.insert((uint64_t{0xC0000000} << 32) | key);
    std::vector<uint32_t> words(32);
    std::memcpy(words.data(), filter.bitset().data(), 128);
    const std::vector<uint32_t> expect = expected_block(key);
    for (int b = 0; b < 4; ++b) {
      for (int i = 0; i < 8; ++i)
        EXPECT_EQ(words[b * 8 + i], b == 3 ? expect[i] : 0u)
            << "block " << b << " word " << i << " " << to_string(level);
    }
    // Little-endian words on disk: word 0's bits are bytes 96..99.
    const uint8_t* block3 = filter.bitset().data() + 96;
    EXPECT_EQ(uint32_t{block3[0]} | uint32_t{block3[1]} << 8 | uint32_t{block3[2]} << 16 | uint32_t{block3[3]} << 24,
              expect[0]);
    EXPECT_TRUE(filter.might_contain((uint64_t{0xC0000000} << 32) | key));
    // Same key in another block: absent.
    EXPECT_FALSE(filter.might_contain(key));
  }
}

TEST(BloomFilterTest, BlockSelectionCoversEveryBlock) {
  BloomFilter filter(64);  // two blocks
  filter.insert(uint64_t{0x7FFFFFFF} << 32);
  filter.insert(uint64_t{0x80000000} << 32);
  std::vector<uint32_t> words(16);
  std::memcpy(words.data(), filter.bitset().data(), 64);
  EXPECT_EQ(words[0], expected_block(0)[0]);
  EXPECT_EQ(words[8], expected_block(0)[0]);
}

// ---- behaviour ----

template <class T, class Make>
void check_membership(Make make_value, const char* name) {
  SCOPED_TRACE(name);
  constexpr size_t kInserted = 100000;
  constexpr double kFpp = 0.01;
  std::vector<T> values;
  for (size_t i = 0; i < kInserted; ++i) values.push_back(make_value(i));
  for (SimdLevel level : testing::each_simd_level()) {
    BloomFilter filter(BloomFilter::optimal_num_bytes(kInserted, kFpp));
    for (const T& v : values) filter.insert(BloomFilter::hash(v));
    for (const T& v : values) ASSERT_TRUE(filter.might_contain(BloomFilter::hash(v)));
    // Values never inserted (indices past the inserted range).
    size_t false_positives = 0;
    constexpr size_t kProbes = 100000;
    for (size_t i = 0; i < kProbes; ++i)
      false_positives += filter.might_contain(BloomFilter::hash(make_value(kInserted + i)));
    const double rate = static_cast<double>(false_positives) / kProbes;
    // Rounding the size up to a power of two only lowers the rate.
    EXPECT_LT(rate, kFpp * 1.5) << to_string(level);
    EXPECT_GT(rate, 0.0);
  }
}

TEST(BloomFilterTest, NoFalseNegativesAndFewFalsePositives) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> randoms(200000);
  for (auto& r : randoms) r = rng();
  check_membership<int32_t>([](size_t i) { return static_cast<int32_t>(i * 7919); }, "INT32");
  check_membership<int64_t>([&](size_t i) { return static_cast<int64_t>(randoms[i]); }, "INT64");
  check_membership<float>([](size_t i) { return static_cast<float>(i) * 0.5f; }, "FLOAT");
  check_membership<double>([&](size_t i) { return static_cast<double>(randoms[i]) / 3; }, "DOUBLE");
  check_membership<encoding::Int96>(
      [](size_t i) {
        return encoding::Int96{{static_cast<uint32_t>(i), 0, static_cast<uint32_t>(i >> 3)}};
      },
      "INT96");
  check_membership<std::string>([](size_t i) { return "value-" + std::to_string(i); }, "BYTE_ARRAY");
}

TEST(BloomFilterTest, EmptyFilterContainsNothing) {
  BloomFilter filter(BloomFilter::kMinBytes);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(filter.might_contain(rng()));
}

TEST(BloomFilterTest, ScalarAndAvx2AgreeOnTheBits) {
  if (detected_simd_level() < SimdLevel::kAvx2) GTEST_SKIP() << "no AVX2";
  std::mt19937_64 rng(5);
  std::vector<uint64_t> hashes(5000);
  for (auto& h : hashes) h = rng();
  std::vector<std::vector<uint8_t>> bitsets;
  for (SimdLevel level : testing::each_simd_level()) {
    BloomFilter filter(4096);
    for (uint64_t h : hashes) filter.insert(h);
    bitsets.emplace_back(filter.bitset().begin(), filter.bitset().end());
    EXPECT_EQ(bitsets.back(), bitsets.front()) << to_string(level);
  }
}

// ---- sizing ----

TEST(BloomFilterTest, OptimalNumBytes) {
  // -8 * 1e6 / ln(1 - 0.01^(1/8)) = 9.68e6 bits = 1.21e6 bytes -> 2 MiB.
  EXPECT_EQ(BloomFilter::optimal_num_bytes(1000000, 0.01), size_t{2} << 20);
  // 1024 values at 1%: 1239 bytes -> 2048.
  EXPECT_EQ(BloomFilter::optimal_num_bytes(1024, 0.01), 2048u);
  EXPECT_EQ(BloomFilter::optimal_num_bytes(0, 0.01), BloomFilter::kMinBytes);
  EXPECT_EQ(BloomFilter::optimal_num_bytes(1, 0.5), BloomFilter::kMinBytes);
  EXPECT_EQ(BloomFilter::optimal_num_bytes(uint64_t{1} << 40, 0.01), BloomFilter::kMaxBytes);
  EXPECT_EQ(BloomFilter::optimal_num_bytes(~uint64_t{0}, 1e-9), BloomFilter::kMaxBytes);
  // Lower rates never take fewer bytes.
  size_t previous = 0;
  for (double fpp : {0.5, 0.1, 0.01, 0.001, 0.0001}) {
    const size_t n = BloomFilter::optimal_num_bytes(100000, fpp);
    EXPECT_GE(n, previous);
    EXPECT_EQ(n & (n - 1), 0u);
    previous = n;
  }
  EXPECT_THROW(BloomFilter::optimal_num_bytes(10, 0), Error);
  EXPECT_THROW(BloomFilter::optimal_num_bytes(10, 1), Error);
  EXPECT_THROW(BloomFilter::optimal_num_bytes(10, std::nan("")), Error);
}

TEST(BloomFilterTest, ConstructorChecksTheSize) {
  EXPECT_NO_THROW(BloomFilter(32));
  EXPECT_NO_THROW(BloomFilter(1024));
  EXPECT_THROW(BloomFilter(0), Error);
  EXPECT_THROW(BloomFilter(16), Error);
  EXPECT_THROW(BloomFilter(96), Error);
  EXPECT_THROW(BloomFilter(BloomFilter::kMaxBytes * 2), Error);
  BloomFilter f(64);
  EXPECT_EQ(f.num_bytes(), 64u);
  for (uint8_t b : f.bitset()) EXPECT_EQ(b, 0);
}

// ---- on disk ----

TEST(BloomFilterTest, WriteReadRoundTrip) {
  BloomFilter filter(BloomFilter::optimal_num_bytes(1000, 0.01));
  for (int64_t i = 0; i < 1000; ++i) filter.insert(BloomFilter::hash(i));
  Buffer out;
  out.append("prefix", 6);  // write() appends
  filter.write(out);
  const std::string header = header_bytes(static_cast<int32_t>(filter.num_bytes()));
  ASSERT_EQ(out.size(), 6 + header.size() + filter.num_bytes());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()) + 6, header.size()), header);

  std::span<const uint8_t> stored(out.data() + 6, out.size() - 6);
  const BloomFilter back = BloomFilter::read(stored, 1234);
  EXPECT_EQ(back.num_bytes(), filter.num_bytes());
  EXPECT_TRUE(std::equal(back.bitset().begin(), back.bitset().end(), filter.bitset().begin()));
  for (int64_t i = 0; i < 1000; ++i) EXPECT_TRUE(back.might_contain(BloomFilter::hash(i)));

  // Bytes after the bitset (the next structure in the file) are ignored.
  std::vector<uint8_t> longer(stored.begin(), stored.end());
  longer.resize(longer.size() + 100, 0xAB);
  EXPECT_EQ(BloomFilter::read(longer).num_bytes(), filter.num_bytes());
}

TEST(BloomFilterTest, ReadRejectsMalformedFilters) {
  const std::string bitset(64, '\0');
  auto expect_error = [](const std::string& bytes, const char* what) {
    try {
      BloomFilter::read(span_of(bytes), 777);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  EXPECT_NO_THROW(BloomFilter::read(span_of(header_bytes(64) + bitset)));
  expect_error(header_bytes(64, false) + bitset, "split block");
  expect_error(header_bytes(64, true, false) + bitset, "xxHash");
  expect_error(header_bytes(64, true, true, false) + bitset, "compressed");
  expect_error(header_bytes(48) + bitset, "power of two");
  expect_error(header_bytes(16) + bitset, "power of two");
  expect_error(header_bytes(0) + bitset, "power of two");
  expect_error(header_bytes(-64) + bitset, "power of two");
  expect_error(header_bytes(1 << 30) + bitset, "power of two");
  expect_error(header_bytes(128) + bitset, "runs past");
  expect_error(header_bytes(64) + bitset.substr(0, 63), "runs past");
  // A header that is not thrift, or cut short.
  const std::string header = header_bytes(64);
  EXPECT_THROW(BloomFilter::read(span_of(header.substr(0, header.size() - 2))), Error);
  EXPECT_THROW(BloomFilter::read(span_of(std::string("\xff\xff\xff\xff", 4))), Error);
  EXPECT_THROW(BloomFilter::read({}), Error);
  // The offset is in the message.
  try {
    BloomFilter::read(span_of(header_bytes(128) + bitset), 777);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("777"), std::string::npos) << e.what();
  }
}

TEST(BloomFilterTest, ReadsArrowCompatibilityFilter) {
  // parquet-testing's bloom_filter.xxhash.bin: a filter Arrow C++ checks
  // for these four strings.
  const std::vector<uint8_t> bytes = testing::read_file_bytes(testing::corpus_dir() / "data/bloom_filter.xxhash.bin");
  const BloomFilter filter = BloomFilter::read(bytes);
  EXPECT_EQ(filter.num_bytes(), 1024u);
  for (const char* s : {"hello", "parquet", "bloom", "filter"})
    EXPECT_TRUE(filter.might_contain(BloomFilter::hash(std::string_view(s)))) << s;
}

TEST(BloomFilterTest, ReadsParquetMrFilterFromAFile) {
  const auto path = testing::corpus_dir() / "data/data_index_bloom_encoding_stats.parquet";
  const std::vector<uint8_t> bytes = testing::read_file_bytes(path);
  auto file = FileReader::open(path.string());
  const auto& meta = file->metadata().row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(meta && meta->bloom_filter_offset);
  const auto offset = static_cast<size_t>(*meta->bloom_filter_offset);
  ASSERT_LT(offset, bytes.size());
  const BloomFilter filter =
      BloomFilter::read(std::span<const uint8_t>(bytes).subspan(offset), static_cast<uint64_t>(offset));
  for (const char* s : {"Hello", "This is", "a", "test", "How", "are you", "doing ", "today", "the quick", "brown fox",
                        "jumps", "over", "the lazy", "dog"})
    EXPECT_TRUE(filter.might_contain(BloomFilter::hash(std::string_view(s)))) << s;
  size_t absent_hits = 0;
  for (int i = 0; i < 1000; ++i) absent_hits += filter.might_contain(BloomFilter::hash("absent " + std::to_string(i)));
  EXPECT_LT(absent_hits, 100u);
}

}  // namespace
}  // namespace parq
