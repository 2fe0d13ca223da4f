// BYTE_STREAM_SPLIT: the spec's example, round trips for every width and
// size, every SIMD kernel against the portable one (odd counts, unaligned
// pointers, strides longer than the count), skipping, and malformed pages.
#include "parq/encoding/byte_stream_split.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

const size_t kSizes[] = {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000003};

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::vector<uint8_t> bytes_of(const Buffer& b) { return {b.data(), b.data() + b.size()}; }

TEST(ByteStreamSplit, SpecExample) {
  const uint8_t values[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const std::vector<uint8_t> expect = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  for (SimdLevel level : testing::each_simd_level()) {
    float f[3];
    std::memcpy(f, values, 12);
    ByteStreamSplitEncoder enc(4);
    enc.put(f, 3);
    Buffer page;
    enc.flush(page);
    EXPECT_EQ(bytes_of(page), expect) << to_string(level);
    ByteStreamSplitDecoder dec(4);
    dec.reset(expect.data(), expect.size(), 3);
    float out[3];
    ASSERT_EQ(dec.decode(out, 3), 3u) << to_string(level);
    EXPECT_EQ(std::memcmp(out, values, 12), 0) << to_string(level);
  }
}

// Reference layout straight from the definition.
std::vector<uint8_t> reference_split(const std::vector<uint8_t>& values, size_t width) {
  size_t n = values.size() / width;
  std::vector<uint8_t> out(values.size());
  for (size_t i = 0; i < n; ++i)
    for (size_t b = 0; b < width; ++b) out[b * n + i] = values[i * width + b];
  return out;
}

TEST(ByteStreamSplit, EveryWidthSizeAndLevelMatchesReference) {
  for (size_t width = 1; width <= 17; ++width) {
    for (size_t n : kSizes) {
      if (n > 1000 && width != 2 && width != 4 && width != 8 && width != 3 && width != 16) continue;
      std::vector<uint8_t> values = random_bytes(n * width, static_cast<uint32_t>(n * 31 + width));
      std::vector<uint8_t> expect = reference_split(values, width);
      for (SimdLevel level : testing::each_simd_level()) {
        ByteStreamSplitEncoder enc(width);
        enc.put(values.data(), n / 2);
        enc.put(values.data() + n / 2 * width, n - n / 2);
        Buffer page;
        enc.flush(page);
        std::vector<uint8_t> exact = bytes_of(page);
        ASSERT_EQ(exact, expect) << "width " << width << " n " << n << " " << to_string(level);

        ByteStreamSplitDecoder dec(width);
        dec.reset(exact.data(), exact.size(), n);
        std::vector<uint8_t> out(n * width);
        size_t got = 0, step = 1;
        while (got < n) {
          size_t k = dec.decode(out.data() + got * width, step);
          ASSERT_GT(k, 0u);
          got += k;
          step = step * 2 + 5;
        }
        ASSERT_EQ(out, values) << "width " << width << " n " << n << " " << to_string(level);
      }
    }
  }
}

TEST(ByteStreamSplit, KernelsWithUnalignedPointersAndLongStrides) {
  testing::SimdLevelGuard guard;
  for (size_t width : {2, 3, 4, 8, 16}) {
    for (size_t n : {5, 33, 97, 200}) {
      size_t stride = n + 13;
      std::vector<uint8_t> values = random_bytes(n * width + 1, static_cast<uint32_t>(n + width));
      std::vector<uint8_t> scalar_streams(stride * width + 1, 0xEE);
      set_simd_level(SimdLevel::kScalar);
      byte_stream_split_encode(values.data() + 1, n, width, scalar_streams.data() + 1, stride);
      for (SimdLevel level : testing::each_simd_level()) {
        std::vector<uint8_t> streams(stride * width + 1, 0xEE);
        byte_stream_split_encode(values.data() + 1, n, width, streams.data() + 1, stride);
        EXPECT_EQ(streams, scalar_streams) << width << " " << n << " " << to_string(level);
        std::vector<uint8_t> back(n * width + 1);
        byte_stream_split_decode(streams.data() + 1, stride, n, width, back.data() + 1);
        EXPECT_TRUE(std::equal(back.begin() + 1, back.end(), values.begin() + 1)) << width << " " << n;
      }
    }
  }
}

template <class T>
void typed_round_trip() {
  std::vector<T> values(1000);
  std::mt19937_64 rng(9);
  for (auto& v : values) {
    uint64_t bits = rng();
    std::memcpy(&v, &bits, sizeof(T));
  }
  if constexpr (std::is_floating_point_v<T>) {
    values[0] = std::numeric_limits<T>::quiet_NaN();
    values[1] = T(-0.0);
    values[2] = -std::numeric_limits<T>::infinity();
  } else {
    values[0] = std::numeric_limits<T>::min();
    values[1] = std::numeric_limits<T>::max();
  }
  ByteStreamSplitEncoder enc(sizeof(T));
  enc.put(values.data(), values.size());
  Buffer page;
  enc.flush(page);
  ByteStreamSplitDecoder dec(sizeof(T));
  dec.reset(page.data(), page.size(), values.size());
  std::vector<T> out(values.size());
  EXPECT_EQ(dec.skip(3), 3u);
  EXPECT_EQ(dec.decode(out.data() + 3, 2000), 997u);
  EXPECT_EQ(std::memcmp(out.data() + 3, values.data() + 3, 997 * sizeof(T)), 0);
}

TEST(ByteStreamSplit, TypedRoundTrips) {
  typed_round_trip<float>();
  typed_round_trip<double>();
  typed_round_trip<int32_t>();
  typed_round_trip<int64_t>();
}

TEST(ByteStreamSplit, Float16AsFlba2) {
  std::vector<uint8_t> halves = {0x00, 0x3C, 0x00, 0xC0, 0xFF, 0x7B};  // 1.0, -2.0, 65504
  ByteStreamSplitEncoder enc(2);
  enc.put(halves.data(), 3);
  Buffer page;
  enc.flush(page);
  EXPECT_EQ(bytes_of(page), (std::vector<uint8_t>{0x00, 0x00, 0xFF, 0x3C, 0xC0, 0x7B}));
}

TEST(ByteStreamSplit, MalformedPagesThrow) {
  std::vector<uint8_t> page(10);
  ByteStreamSplitDecoder dec(4);
  try {
    dec.reset(page.data(), page.size(), 2);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("BYTE_STREAM_SPLIT"));
    EXPECT_THAT(e.what(), HasSubstr("multiple"));
    EXPECT_THAT(e.what(), HasSubstr("byte 8"));
  }
  std::vector<uint8_t> eight(8);
  EXPECT_THROW(dec.reset(eight.data(), eight.size(), 3), Error);
  EXPECT_NO_THROW(dec.reset(eight.data(), eight.size(), 1));
  double d;
  EXPECT_THROW(dec.decode(&d, 1), Error);  // 8-byte values from a 4-byte stream
  EXPECT_THROW(ByteStreamSplitDecoder(0), Error);
  ByteStreamSplitEncoder enc(2);
  float f = 1;
  EXPECT_THROW(enc.put(&f, 1), Error);
}

}  // namespace
}  // namespace parq::encoding
