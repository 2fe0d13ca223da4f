// Bit packing kernels: every SIMD level the CPU has against a bit-by-bit
// reference, for every width, odd counts, unaligned starts, and buffers sized
// exactly (so ASan sees any read or write past packed_size).
#include "parq/encoding/bit_packing.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

class LevelGuard {
 public:
  explicit LevelGuard(SimdLevel l) : saved_(simd_level()) { set_simd_level(l); }
  ~LevelGuard() { set_simd_level(saved_); }

 private:
  SimdLevel saved_;
};

template <class T>
std::vector<T> random_values(size_t n, int width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng() & mask);
  // Adversarial: all ones and alternating extremes at the ends.
  for (size_t i = 0; i < n && i < 9; ++i) v[i] = static_cast<T>(mask);
  if (n > 20) v[n - 1] = static_cast<T>(mask), v[n - 2] = 0;
  return v;
}

template <class T>
std::vector<uint8_t> reference_pack(const std::vector<T>& v, int width) {
  std::vector<uint8_t> out(packed_size(v.size(), width), 0);
  for (size_t i = 0; i < v.size(); ++i)
    for (int b = 0; b < width; ++b)
      if ((static_cast<uint64_t>(v[i]) >> b) & 1) {
        size_t bit = i * width + b;
        out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
  return out;
}

template <class T>
void check_width(int width, size_t n, size_t misalign) {
  const auto values = random_values<T>(n, width, width * 1000003u + n);
  const auto expected = reference_pack(values, width);
  for (SimdLevel level : testing::simd_levels()) {
    LevelGuard guard(level);
    SCOPED_TRACE(::testing::Message() << to_string(level) << " width " << width << " n " << n << " misalign "
                                    << misalign);
    // Exactly sized heap blocks: one byte too far is an ASan report.
    const size_t bytes = expected.size();
    std::unique_ptr<uint8_t[]> packed(new uint8_t[bytes + misalign]);
    pack_bits(values.data(), n, width, packed.get() + misalign);
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), packed.get() + misalign));

    std::unique_ptr<T[]> out(new T[n + 1]);
    out[n] = static_cast<T>(0x5a5a5a5a);
    unpack_bits(packed.get() + misalign, n, width, out.get());
    ASSERT_TRUE(std::equal(values.begin(), values.end(), out.get()));
    ASSERT_EQ(out[n], static_cast<T>(0x5a5a5a5a));
  }
}

TEST(BitPacking, EveryWidthEveryLevel32) {
  for (int width = 0; width <= 32; ++width)
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 127u, 128u, 129u, 1000u})
      for (size_t misalign : {0u, 3u}) check_width<uint32_t>(width, n, misalign);
}

TEST(BitPacking, EveryWidthEveryLevel64) {
  for (int width = 0; width <= 64; ++width)
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 1000u})
      for (size_t misalign : {0u, 5u}) check_width<uint64_t>(width, n, misalign);
}

TEST(BitPacking, LargeCounts) {
  for (int width : {1, 3, 8, 13, 17, 32}) check_width<uint32_t>(width, size_t{1} << 20, 1);
  for (int width : {7, 33, 64}) check_width<uint64_t>(width, size_t{1} << 20, 1);
}

TEST(BitPacking, SpecExample) {
  // Encodings.md, RLE/bit-packing hybrid: 0..7 at width 3 is 10001000 11000110 11111010.
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  for (SimdLevel level : testing::simd_levels()) {
    LevelGuard guard(level);
    uint8_t packed[3];
    pack_bits(values, 8, 3, packed);
    EXPECT_EQ(packed[0], 0b10001000);
    EXPECT_EQ(packed[1], 0b11000110);
    EXPECT_EQ(packed[2], 0b11111010);
    uint64_t back[8];
    unpack_bits(packed, 8, 3, back);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(back[i], values[i]);
  }
}

TEST(BitPacking, ReadableOverloadUsesOnlyTheGivenBytes) {
  // A run in the middle of a page: the kernels may read up to `readable`.
  const auto values = random_values<uint32_t>(1001, 11, 7);
  auto packed = reference_pack(values, 11);
  for (SimdLevel level : testing::simd_levels()) {
    LevelGuard guard(level);
    for (size_t extra : {0u, 1u, 15u, 64u, 200u}) {
      std::unique_ptr<uint8_t[]> buf(new uint8_t[packed.size() + extra]);
      std::copy(packed.begin(), packed.end(), buf.get());
      std::vector<uint32_t> out(values.size());
      unpack_bits(buf.get(), packed.size() + extra, values.size(), 11, out.data());
      ASSERT_EQ(out, values) << to_string(level) << " extra " << extra;
    }
  }
}

TEST(BitPacking, KernelsAgreeWithScalar) {
  // The per-level kernels directly, on unaligned input with slack, against
  // the portable ones; they must report a multiple of 8.
  std::mt19937 rng(5);
  std::vector<uint8_t> bytes(5000);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  for (int width = 1; width <= 32; ++width) {
    std::vector<uint32_t> expected(1000), got(1000);
    size_t n_ref = detail::unpack32_scalar(bytes.data() + 1, bytes.size() - 1, 999, width, expected.data());
    for (SimdLevel level : testing::simd_levels()) {
      size_t n = detail::unpack32_kernel(level)(bytes.data() + 1, bytes.size() - 1, 999, width, got.data());
      ASSERT_EQ(n % 8, 0u);
      ASSERT_GE(n, 960u);  // only the last few values are left to the tail
      const size_t common = std::min(n, n_ref);
      ASSERT_TRUE(std::equal(got.begin(), got.begin() + common, expected.begin())) << width << to_string(level);
    }
  }
}

}  // namespace
}  // namespace parq::encoding
