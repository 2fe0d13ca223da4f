// The RLE/bit-packing hybrid: the spec's example, run choice, round trips,
// and malformed streams.
#include "parq/encoding/rle_hybrid.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> encode(const std::vector<uint32_t>& values, int width) {
  RleBitPackedEncoder enc(width);
  enc.put(values.data(), values.size());
  Buffer out;
  enc.flush(out);
  return {out.data(), out.data() + out.size()};
}

std::vector<uint32_t> decode(const std::vector<uint8_t>& bytes, int width, size_t n) {
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), width);
  std::vector<uint32_t> out(n);
  out.resize(dec.decode(out.data(), n));
  return out;
}

TEST(BitPacking, SpecExampleWidth3) {
  // Encodings.md: 0..7 packed with width 3 is 10001000 11000110 11111010.
  uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t packed[3];
  pack_bits(values, 8, 3, packed);
  EXPECT_EQ(packed[0], 0b10001000);
  EXPECT_EQ(packed[1], 0b11000110);
  EXPECT_EQ(packed[2], 0b11111010);
  uint32_t back[8];
  unpack_bits(packed, 8, 3, back);
  EXPECT_EQ(std::vector<uint32_t>(back, back + 8), std::vector<uint32_t>(values, values + 8));
}

TEST(RleHybrid, SpecExampleAsBitPackedRun) {
  // Header (1 group << 1) | 1 = 3, then the three bytes above.
  std::vector<uint8_t> bytes = {0x03, 0b10001000, 0b11000110, 0b11111010};
  EXPECT_EQ(decode(bytes, 3, 8), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(encode({0, 1, 2, 3, 4, 5, 6, 7}, 3), bytes);
}

TEST(RleHybrid, LongRepeatsBecomeRleRuns) {
  std::vector<uint32_t> values(1000, 5);
  auto bytes = encode(values, 3);
  // varint(1000 << 1) = 0xd0 0x0f, then the value in one byte.
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xd0, 0x0f, 0x05}));
  EXPECT_EQ(decode(bytes, 3, 1000), values);
}

TEST(RleHybrid, MixedRunsRoundTrip) {
  std::mt19937 rng(42);
  for (int width : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32}) {
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 5000u}) {
      std::vector<uint32_t> values(n);
      uint64_t max = width == 32 ? UINT32_MAX : (uint64_t{1} << width) - 1;
      for (size_t i = 0; i < n;) {
        uint32_t v = static_cast<uint32_t>(rng() & max);
        size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
        for (size_t k = 0; k < run && i < n; ++k) values[i++] = v;
      }
      auto bytes = encode(values, width);
      EXPECT_EQ(decode(bytes, width, n), values) << "width " << width << " n " << n;
    }
  }
}

TEST(RleHybrid, DecodeInSmallBatchesAndSkip) {
  std::vector<uint32_t> values;
  for (int i = 0; i < 3000; ++i) values.push_back(i % 100 < 50 ? 7 : static_cast<uint32_t>(i % 13));
  auto bytes = encode(values, 4);
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), 4);
  std::vector<uint32_t> got;
  size_t i = 0;
  while (i < values.size()) {
    size_t batch = std::min<size_t>(1 + (i * 7) % 23, values.size() - i);  // padding follows the end
    if (i % 5 == 0) {
      size_t skipped = dec.skip(batch);
      for (size_t k = 0; k < skipped; ++k) got.push_back(values[i + k]);
      i += skipped;
      if (skipped == 0) break;
      continue;
    }
    uint32_t buf[32];
    size_t n = dec.decode(buf, batch);
    got.insert(got.end(), buf, buf + n);
    i += n;
    if (n == 0) break;
  }
  EXPECT_EQ(got, values);
}

TEST(RleHybrid, NarrowOutputs) {
  std::vector<uint32_t> values = {0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1};
  auto bytes = encode(values, 2);
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), 2);
  int16_t levels[13];
  ASSERT_EQ(dec.decode(levels, 13), 13u);
  for (size_t i = 0; i < 13; ++i) EXPECT_EQ(levels[i], static_cast<int16_t>(values[i]));
  RleBitPackedDecoder bools(bytes.data(), bytes.size(), 2);
  uint8_t b[13];
  EXPECT_THROW(bools.decode(b, 13), Error);  // 2 and 3 are not booleans
}

TEST(RleHybrid, MalformedStreams) {
  auto error_of = [](std::vector<uint8_t> bytes, int width) -> std::string {
    try {
      decode(bytes, width, 100);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(error_of({0x80}, 3), HasSubstr("truncated run header"));
  EXPECT_THAT(error_of({0x00}, 3), HasSubstr("RLE run of length 0"));
  EXPECT_THAT(error_of({0x04}, 9), HasSubstr("truncated RLE run value"));
  EXPECT_THAT(error_of({0x04, 0x09}, 3), HasSubstr("wider than the bit width"));
  EXPECT_THAT(error_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 3), HasSubstr("too long"));
  EXPECT_THROW(RleBitPackedDecoder(nullptr, 0, 33), Error);
  // A bit-packed run claiming 2^62 groups over 2 bytes yields what the bytes hold.
  std::vector<uint8_t> huge = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xab, 0xcd};
  EXPECT_EQ(decode(huge, 4, 100).size(), 4u);
}

TEST(RleHybrid, LengthPrefix) {
  std::vector<uint8_t> bytes = {3, 0, 0, 0, 0x03, 0x88, 0xc6, 0xfa, 0xee};
  auto runs = read_length_prefix(bytes);
  EXPECT_EQ(runs.size(), 3u);
  bytes[0] = 9;
  EXPECT_THROW(read_length_prefix(bytes), Error);
  EXPECT_THROW(read_length_prefix(std::span<const uint8_t>(bytes.data(), 3)), Error);
}

}  // namespace
}  // namespace parq::encoding
