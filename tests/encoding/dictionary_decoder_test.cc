// DictionaryDecoder: gathers of every value type through RLE and bit-packed
// indices at every SIMD level, byte arrays by each of their paths and into
// batches they fill, skips, and malformed pages (bad width, out-of-range
// indices).
#include "parq/encoding/dictionary_decoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

Buffer page_of(const std::vector<uint32_t>& indices, int width) {
  Buffer page;
  page.append_value(static_cast<uint8_t>(width));
  RleBitPackedEncoder enc(width);
  enc.put(indices.data(), indices.size());
  enc.flush(page);
  return page;
}

std::vector<uint32_t> random_indices(size_t n, size_t entries, std::mt19937& rng) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n;) {
    uint32_t x = static_cast<uint32_t>(rng() % entries);
    size_t run = rng() % 4 == 0 ? 1 + rng() % 100 : 1;
    for (size_t k = 0; k < run && i < n; ++k) v[i++] = x;
  }
  return v;
}

template <class T>
T entry(size_t i) {
  if constexpr (std::is_same_v<T, Int96>) {
    return Int96{{static_cast<uint32_t>(i), static_cast<uint32_t>(i * 7), 42}};
  } else {
    return static_cast<T>(i * 3 + 1);
  }
}

// Dictionary sizes on both sides of each register set that holds small
// dictionaries (AVX2: 4 and 8 entries of 8 bytes, 8, 16 and 32 of 4;
// AVX-512: 8 and 16 of 8 bytes, 16 and 32 of 4) and far beyond them.
template <class T>
void check_type() {
  std::mt19937 rng(1);
  for (size_t entries : {1u, 3u, 4u, 5u, 8u, 9u, 11u, 16u, 17u, 31u, 32u, 33u, 100u, 100000u}) {
    std::vector<T> dict(entries);
    for (size_t i = 0; i < entries; ++i) dict[i] = entry<T>(i);
    const int width = bit_width_for(entries - 1);
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 5000u}) {
      auto idx = random_indices(n, entries, rng);
      auto page = page_of(idx, width);
      for (SimdLevel level : testing::each_simd_level()) {
        DictionaryDecoder dec(page.data(), page.size());
        std::vector<T> out(n);
        size_t at = 0;
        while (at < n) {
          size_t got = dec.decode(std::span<const T>(dict), out.data() + at, std::min<size_t>(n - at, 1 + at % 700));
          ASSERT_GT(got, 0u);
          at += got;
        }
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], dict[idx[i]]) << to_string(level) << " " << i;
      }
    }
  }
}

TEST(DictionaryDecoder, Int32) { check_type<int32_t>(); }
TEST(DictionaryDecoder, Int64) { check_type<int64_t>(); }
TEST(DictionaryDecoder, Float) { check_type<float>(); }
TEST(DictionaryDecoder, Double) { check_type<double>(); }
TEST(DictionaryDecoder, Int96) { check_type<Int96>(); }

TEST(DictionaryDecoder, FixedLenByteArrays) {
  std::mt19937 rng(2);
  const size_t width = 5, entries = 300;
  std::vector<uint8_t> dict(entries * width);
  for (auto& b : dict) b = static_cast<uint8_t>(rng());
  auto idx = random_indices(3001, entries, rng);
  auto page = page_of(idx, 9);
  DictionaryDecoder dec(page.data(), page.size());
  std::vector<uint8_t> out(idx.size() * width);
  ASSERT_EQ(dec.decode(dict.data(), entries, width, out.data(), idx.size()), idx.size());
  for (size_t i = 0; i < idx.size(); ++i)
    ASSERT_TRUE(std::equal(out.begin() + i * width, out.begin() + (i + 1) * width, dict.begin() + idx[i] * width));
}

// Entries up to each copy width (16 and 32 bytes, whole-vector copies) and
// beyond it (exact copies), all empty too; random indices and long runs.
TEST(DictionaryDecoder, ByteArraysAndSkip) {
  for (size_t longest : {0, 8, 16, 17, 32, 33, 100}) {
    std::mt19937 rng(static_cast<uint32_t>(3 + longest));
    ByteArrayBatch dict;
    for (int i = 0; i < 50; ++i) {
      std::string entry(rng() % (longest + 1), 'x');
      for (char& c : entry) c = static_cast<char>('a' + rng() % 26);
      dict.append(entry);
    }
    auto idx = random_indices(4000, 50, rng);
    for (size_t i = 1000; i < 1400; ++i) idx[i] = idx[1000];  // a run
    auto page = page_of(idx, 6);
    DictionaryDecoder dec(page.data(), page.size());
    const ByteArrayDictionaryTable table(dict);
    ByteArrayBatch out;
    std::vector<uint32_t> expected;
    size_t at = 0;
    while (at < idx.size()) {
      size_t s = dec.skip(rng() % 40);
      at += s;
      size_t got = dec.decode(table, out, 1 + rng() % 300);
      for (size_t k = 0; k < got; ++k) expected.push_back(idx[at + k]);
      at += got;
      if (got == 0 && s == 0) break;
    }
    ASSERT_EQ(at, idx.size()) << longest;
    ASSERT_EQ(out.size(), expected.size()) << longest;
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out.value(i), dict.value(expected[i])) << longest << " " << i;
  }
}

// Every path of the byte-array gathers at every SIMD level: slots of 8, 16
// and 32 bytes (entries of mixed lengths up to each), entries past 32
// bytes, a dictionary too large for slots, entries all of one length (flags
// from dictionaries a register holds, 64 entries, and does not, 65; wider
// codes), long runs of one index; appended after a value already in the
// batch, and into a batch whose limit stops the copy part way.
TEST(DictionaryDecoder, ByteArrayGathersEveryPath) {
  struct Shape {
    size_t entries, shortest, longest, slot_bytes;
  };
  const Shape shapes[] = {{3, 1, 7, 8},    {7, 0, 8, 8},    {50, 9, 16, 16},  {50, 1, 16, 16}, {40, 17, 32, 32},
                          {30, 5, 32, 32}, {20, 30, 40, 0}, {40000, 1, 8, 0}, {3, 1, 1, 0},    {64, 1, 1, 0},
                          {65, 1, 1, 0},   {200, 1, 1, 0},  {30, 2, 2, 0},    {30, 7, 7, 0},   {30, 8, 8, 0},
                          {30, 16, 16, 0}, {30, 17, 17, 0}, {30, 3, 3, 0},    {30, 15, 15, 0}};
  for (const Shape& shape : shapes) {
    std::mt19937 rng(static_cast<uint32_t>(shape.entries * 100 + shape.longest));
    ByteArrayBatch dict;
    for (size_t k = 0; k < shape.entries; ++k) {
      const size_t len = k == 0 ? shape.longest : shape.shortest + rng() % (shape.longest - shape.shortest + 1);
      std::string entry(len, 'x');
      for (char& c : entry) c = static_cast<char>(rng());
      dict.append(entry);
    }
    const ByteArrayDictionaryTable table(dict);
    const std::string name = std::to_string(shape.entries) + " entries of " + std::to_string(shape.shortest) + ".." +
                             std::to_string(shape.longest) + " bytes";
    EXPECT_EQ(table.longest(), shape.longest) << name;
    EXPECT_EQ(table.uniform(), shape.shortest == shape.longest) << name;
    EXPECT_EQ(table.slot_bytes(), shape.slot_bytes) << name;
    auto idx = random_indices(5000, shape.entries, rng);
    for (size_t i = 2000; i < 2600; ++i) idx[i] = idx[2000];
    const auto page = page_of(idx, bit_width_for(shape.entries - 1));
    for (SimdLevel level : testing::each_simd_level()) {
      DictionaryDecoder dec(page.data(), page.size());
      ByteArrayBatch out;
      out.append("before");
      size_t at = 0;
      while (at < idx.size()) {
        const size_t got = dec.decode(table, out, std::min<size_t>(idx.size() - at, 1 + rng() % 700));
        ASSERT_GT(got, 0u) << name;
        at += got;
      }
      ASSERT_EQ(out.size(), idx.size() + 1) << name << " " << to_string(level);
      EXPECT_EQ(out.value(0), "before");
      for (size_t i = 0; i < idx.size(); ++i)
        ASSERT_EQ(out.value(i + 1), dict.value(idx[i])) << name << " " << to_string(level) << " value " << i;

      // A limit reached part way: the values that fit, whole, and no more.
      const size_t limit = 3 * shape.longest * 100 + 5;
      DictionaryDecoder limited(page.data(), page.size());
      ByteArrayBatch full;
      full.set_limit(limit);
      const size_t got = limited.decode(table, full, idx.size());
      ASSERT_LT(got, idx.size()) << name;
      EXPECT_TRUE(full.refused()) << name;
      EXPECT_LE(full.data_size(), limit) << name;
      ASSERT_EQ(full.size(), got);
      for (size_t i = 0; i < got; ++i) ASSERT_EQ(full.value(i), dict.value(idx[i])) << name << " value " << i;
    }
  }
  ByteArrayBatch mixed;
  mixed.append("ab");
  mixed.append("c");
  const ByteArrayDictionaryTable mixed_table(mixed);
  EXPECT_FALSE(mixed_table.uniform());
  EXPECT_EQ(mixed_table.longest(), 2u);
  EXPECT_FALSE(ByteArrayDictionaryTable(ByteArrayBatch()).uniform());
}

TEST(DictionaryDecoder, IndicesOutOfRange) {
  auto error_of = [](const std::vector<uint32_t>& idx, int width, size_t entries) -> std::string {
    auto page = page_of(idx, width);
    std::vector<int64_t> dict(entries, 5), out(idx.size());
    try {
      DictionaryDecoder dec(page.data(), page.size());
      dec.decode(std::span<const int64_t>(dict), out.data(), idx.size());
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  // Bit-packed and repeated indices alike.
  EXPECT_THAT(error_of({0, 1, 17, 2, 3, 4, 5, 6, 7}, 5, 10),
              HasSubstr("dictionary index 17 out of range for a dictionary of 10 entries"));
  EXPECT_THAT(error_of(std::vector<uint32_t>(100, 12), 4, 10), HasSubstr("dictionary index 12 out of range"));
  EXPECT_THAT(error_of({0}, 1, 0), HasSubstr("dictionary of 0 entries"));
  EXPECT_EQ(error_of({0, 1, 9}, 4, 10), "no error");
  // Indices of 4 bits cannot pass a dictionary of 16 entries (that check
  // is skipped); of 5 bits they can.
  EXPECT_EQ(error_of({0, 15, 3, 15, 1, 2, 3, 4, 5}, 4, 16), "no error");
  EXPECT_EQ(error_of(std::vector<uint32_t>(100, 15), 4, 16), "no error");
  EXPECT_THAT(error_of({0, 15, 3, 16, 1, 2, 3, 4, 5}, 5, 16), HasSubstr("dictionary index 16 out of range"));
  EXPECT_THAT(error_of(std::vector<uint32_t>(100, 16), 5, 16), HasSubstr("dictionary index 16 out of range"));
  // A dictionary small enough for register permutes, which would read an
  // out-of-range index as a zero-filled lane: the check comes first at
  // every level.
  for (SimdLevel level : testing::each_simd_level()) {
    EXPECT_THAT(error_of({0, 1, 5, 2, 0, 1, 2, 0, 1}, 3, 3),
                HasSubstr("dictionary index 5 out of range for a dictionary of 3 entries"))
        << to_string(level);
  }
  // A bad index anywhere in a block is found by the block's maximum: in a
  // first block of 512 and in a second of 21 (its first 16 and the rest
  // take different steps of the vector loops), at every level.
  std::mt19937 rng(5);
  for (SimdLevel level : testing::each_simd_level()) {
    for (size_t at : {0, 31, 40, 511, 512, 527, 528, 532}) {
      auto idx = random_indices(533, 100, rng);
      idx[at] = 200;
      EXPECT_THAT(error_of(idx, 8, 100), HasSubstr("dictionary index 200 out of range"))
          << to_string(level) << " at " << at;
    }
  }
}

TEST(DictionaryDecoder, MalformedPages) {
  uint8_t wide[] = {33, 0x02, 0x00};
  EXPECT_THROW(DictionaryDecoder(wide, sizeof wide), Error);
  EXPECT_THROW(DictionaryDecoder(wide, 0), Error);
  // A run promising more values than the page holds yields what is there.
  uint8_t short_run[] = {4, 0x0b, 0x21};  // 5 groups of width 4, one byte present
  DictionaryDecoder dec(short_run, sizeof short_run);
  std::vector<int32_t> dict(16, 1), out(40);
  EXPECT_EQ(dec.decode(std::span<const int32_t>(dict), out.data(), 40), 2u);
  // Width 0: every index is 0.
  uint8_t zero[] = {0, 0x10};  // RLE run of 8 zeros, no value bytes
  DictionaryDecoder z(zero, sizeof zero);
  EXPECT_EQ(z.decode(std::span<const int32_t>(dict), out.data(), 40), 8u);
}

}  // namespace
}  // namespace parq::encoding
