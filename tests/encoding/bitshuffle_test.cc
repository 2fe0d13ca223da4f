// Bitshuffle: every element size 1..16 against a bit-by-bit reference of the
// documented layout, counts 0..100 and large, round trips, every SIMD level.
#include "parq/encoding/bitshuffle.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

std::vector<uint8_t> reference(const std::vector<uint8_t>& in, size_t n, size_t s) {
  std::vector<uint8_t> out(in.size(), 0);
  size_t n8 = n / 8 * 8, row_len = n8 / 8;
  for (size_t i = 0; i < n8; ++i)
    for (size_t b = 0; b < s; ++b)
      for (size_t k = 0; k < 8; ++k)
        if ((in[i * s + b] >> k) & 1) out[(8 * b + k) * row_len + i / 8] |= static_cast<uint8_t>(1 << (i % 8));
  for (size_t i = n8 * s; i < n * s; ++i) out[i] = in[i];
  return out;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng() & rng());  // biased: planes differ
  return v;
}

void check(size_t n, size_t s) {
  std::vector<uint8_t> in = random_bytes(n * s, static_cast<uint32_t>(n * 17 + s));
  std::vector<uint8_t> expect = reference(in, n, s);
  for (SimdLevel level : testing::each_simd_level()) {
    std::vector<uint8_t> shuffled(n * s), back(n * s);
    bitshuffle(in.data(), shuffled.data(), n, s);
    ASSERT_EQ(shuffled, expect) << "n " << n << " s " << s << " " << to_string(level);
    bitunshuffle(shuffled.data(), back.data(), n, s);
    ASSERT_EQ(back, in) << "n " << n << " s " << s << " " << to_string(level);
  }
}

TEST(Bitshuffle, EveryElementSizeSmallCounts) {
  for (size_t s = 1; s <= 16; ++s)
    for (size_t n = 0; n <= 100; ++n) check(n, s);
}

TEST(Bitshuffle, EveryElementSizeLargeCounts) {
  for (size_t s = 1; s <= 16; ++s)
    for (size_t n : {511, 512, 513, 1029, 100003}) check(n, s);
}

TEST(Bitshuffle, KnownBytes) {
  // Eight 1-byte elements 0x01: row 0 is all ones, the others zero.
  std::vector<uint8_t> in(8, 0x01), out(8);
  bitshuffle(in.data(), out.data(), 8, 1);
  EXPECT_EQ(out, (std::vector<uint8_t>{0xFF, 0, 0, 0, 0, 0, 0, 0}));
  // Element 0 = 0x80 only: row 7, bit 0.
  std::vector<uint8_t> in2(8, 0), out2(8);
  in2[0] = 0x80;
  bitshuffle(in2.data(), out2.data(), 8, 1);
  EXPECT_EQ(out2, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0x01}));
}

TEST(Bitshuffle, BadElementSizeThrows) {
  uint8_t buf[32] = {};
  uint8_t out[32];
  EXPECT_THROW(bitshuffle(buf, out, 1, 0), Error);
  EXPECT_THROW(bitshuffle(buf, out, 1, 17), Error);
  EXPECT_THROW(bitunshuffle(buf, out, 1, 17), Error);
}

}  // namespace
}  // namespace parq::encoding
