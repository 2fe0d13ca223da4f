// The RLE/bit-packing hybrid: the spec's example, run choice, round trips,
// and malformed streams.
#include "parq/encoding/rle_hybrid.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

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

// repeats(): true only for an RLE run of that value covering n, and it
// consumes nothing: the values decode in full afterwards.
TEST(RleHybrid, RepeatsPeeksAtTheRunAhead) {
  std::vector<uint32_t> run(1000, 5);
  auto bytes = encode(run, 3);
  {
    RleBitPackedDecoder dec(bytes.data(), bytes.size(), 3);
    EXPECT_TRUE(dec.repeats(5, 1000));
    EXPECT_TRUE(dec.repeats(5, 10));
    EXPECT_FALSE(dec.repeats(5, 1001));
    EXPECT_FALSE(dec.repeats(4, 10));
    std::vector<uint32_t> out(1000);
    EXPECT_EQ(dec.decode(out.data(), 1000), 1000u);
    EXPECT_EQ(out, run);
    EXPECT_FALSE(dec.repeats(5, 1));  // the end
  }
  std::vector<uint32_t> mixed = {1, 2, 3, 4, 5, 6, 7, 0};
  mixed.insert(mixed.end(), 100, 5);
  bytes = encode(mixed, 3);
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), 3);
  EXPECT_FALSE(dec.repeats(1, 1));  // a bit-packed run
  std::vector<uint32_t> out(mixed.size());
  EXPECT_EQ(dec.decode(out.data(), 8), 8u);
  EXPECT_TRUE(dec.repeats(5, 100));
  EXPECT_EQ(dec.decode(out.data() + 8, 100), 100u);
  EXPECT_EQ(out, mixed);
}

// next_repeat and next_packed_bits take runs whole (or up to n), mixed with
// decodes and skips that leave a run part way: the values they account for
// are the values written, counted rather than decoded.
TEST(RleHybrid, RepeatsAndPackedBitsCountWhatADecodeGives) {
  std::mt19937 rng(8);
  std::vector<uint32_t> values;
  while (values.size() < 100000) {
    const size_t run = rng() % 3 == 0 ? 8 + rng() % 3000 : 1 + rng() % 70;
    const bool same = rng() % 2 == 0;
    const uint32_t first = rng() % 2;
    for (size_t i = 0; i < run; ++i) values.push_back(same ? first : rng() % 2);
  }
  const auto bytes = encode(values, 1);
  for (int trial = 0; trial < 20; ++trial) {
    RleBitPackedDecoder dec(bytes.data(), bytes.size(), 1);
    size_t at = 0;
    std::vector<uint32_t> out(4096);
    while (at < values.size()) {
      const size_t n = 1 + rng() % 4000;
      const size_t end = std::min(values.size(), at + n);
      const auto ones_in = [&](size_t from, size_t count) {
        return static_cast<size_t>(std::count(values.begin() + static_cast<std::ptrdiff_t>(from),
                                              values.begin() + static_cast<std::ptrdiff_t>(from + count), 1u));
      };
      switch (rng() % 4) {
        case 0: {
          uint32_t value = 9;
          const size_t got = dec.next_repeat(n, value);
          for (size_t i = 0; i < got; ++i) ASSERT_EQ(values[at + i], value) << "at " << at + i;
          ASSERT_LE(at + got, end);
          at += got;
          break;
        }
        case 1: {
          size_t ones = 0;
          const size_t got = dec.next_packed_bits(n, ones);
          ASSERT_LE(at + got, end);
          ASSERT_EQ(ones, ones_in(at, got)) << "at " << at;
          at += got;
          break;
        }
        case 2:
          ASSERT_EQ(dec.skip(end - at), end - at);
          at = end;
          break;
        default:
          ASSERT_EQ(dec.decode(out.data(), end - at), end - at);
          for (size_t i = 0; i < end - at; ++i) ASSERT_EQ(out[i], values[at + i]) << "at " << at + i;
          at = end;
      }
    }
    size_t ones = 0;
    uint32_t value = 0;
    EXPECT_EQ(dec.next_packed_bits(10, ones), 0u);
    EXPECT_EQ(dec.next_repeat(10, value), 0u);
  }
  // Other widths have no bits to count.
  const auto wide = encode({1, 2, 3, 0, 1, 2, 3, 0}, 2);
  RleBitPackedDecoder dec(wide.data(), wide.size(), 2);
  size_t ones = 0;
  EXPECT_EQ(dec.next_packed_bits(8, ones), 0u);
  EXPECT_EQ(decode(wide, 2, 8), (std::vector<uint32_t>{1, 2, 3, 0, 1, 2, 3, 0}));
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

// The run choice of the original per-value encoder: groups of 8 from the end
// of the last run; a uniform group starts an RLE run that extends while the
// value repeats; anything else is a literal group.
std::vector<uint32_t> reference_runs(const std::vector<uint32_t>& v) {
  // Returns run lengths, negative for literal groups' value counts.
  std::vector<uint32_t> runs;
  size_t i = 0;
  while (i + 8 <= v.size()) {
    bool uniform = std::all_of(v.begin() + i, v.begin() + i + 8, [&](uint32_t x) { return x == v[i]; });
    if (uniform) {
      size_t j = i + 8;
      while (j < v.size() && v[j] == v[i]) ++j;
      runs.push_back(static_cast<uint32_t>(j - i));
      i = j;
    } else {
      runs.push_back(0);  // a literal group
      i += 8;
    }
  }
  return runs;
}

std::vector<uint32_t> adversarial(size_t n, int width, std::mt19937& rng, int kind) {
  const uint64_t max = width == 32 ? UINT32_MAX : (uint64_t{1} << width) - 1;
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0:
        v[i] = static_cast<uint32_t>(rng() & max);
        break;  // random
      case 1:
        v[i] = static_cast<uint32_t>(max);
        break;  // one long run of all ones
      case 2:
        v[i] = static_cast<uint32_t>((i / 7) % 2 ? max : 0);
        break;  // runs of 7: just too short
      case 3:
        v[i] = static_cast<uint32_t>((i / 9) & max);
        break;  // runs of 9 straddling groups
      default:
        v[i] = static_cast<uint32_t>(i % 2 ? max : 0);
        break;  // alternating extremes
    }
  }
  return v;
}

TEST(RleHybrid, EveryWidthSizeAndLevel) {
  std::mt19937 rng(1);
  for (SimdLevel level : testing::each_simd_level()) {
    for (int width = 0; width <= 32; ++width)
      for (size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 4097u})
        for (int kind = 0; kind < 5; ++kind) {
          auto values = adversarial(n, width, rng, kind);
          auto bytes = encode(values, width);
          // The caller knows the count: padding of the last group is not a value.
          ASSERT_EQ(decode(bytes, width, n), values)
              << to_string(level) << " width " << width << " n " << n << " kind " << kind;
        }
  }
}

TEST(RleHybrid, MillionValuesAndBatchBoundaries) {
  std::mt19937 rng(2);
  for (int width : {1, 5, 13, 20, 32}) {
    std::vector<uint32_t> values;
    const uint64_t max = width == 32 ? UINT32_MAX : (uint64_t{1} << width) - 1;
    while (values.size() < (size_t{1} << 20)) {
      uint32_t v = static_cast<uint32_t>(rng() & max);
      size_t run = rng() % 4 == 0 ? 1 + rng() % 3000 : 1;
      values.insert(values.end(), std::min(run, (size_t{1} << 20) - values.size()), v);
    }
    auto bytes = encode(values, width);
    for (SimdLevel level : testing::each_simd_level()) {
      RleBitPackedDecoder dec(bytes.data(), bytes.size(), width);
      std::vector<uint32_t> got(values.size());
      size_t at = 0, step = 0;
      while (at < got.size()) {
        size_t batch = std::min<size_t>(1 + (step++ * 977) % 1500, got.size() - at);  // odd batches straddle runs
        size_t n = dec.decode(got.data() + at, batch);
        ASSERT_EQ(n, batch);
        at += n;
      }
      ASSERT_EQ(got, values) << to_string(level) << " width " << width;
    }
  }
}

TEST(RleHybrid, RunChoiceMatchesTheSpecRule) {
  // Repeats of 8+ from a group boundary are RLE runs, the rest literal groups.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    auto values = adversarial(200 + rng() % 200, 3, rng, trial % 5);
    for (size_t i = 0; i < values.size(); ++i)
      if (rng() % 3 == 0) values[i] = values[i > 0 ? i - 1 : 0];
    auto bytes = encode(values, 3);
    RleBitPackedDecoder dec(bytes.data(), bytes.size(), 3);
    std::vector<uint32_t> runs;
    uint32_t buf[600];
    bool repeated;
    uint32_t value;
    while (size_t n = dec.next_piece(buf, 600, repeated, value)) {
      if (repeated) {
        runs.push_back(static_cast<uint32_t>(n));
      } else {
        for (size_t k = 0; k + 8 <= n; k += 8) runs.push_back(0);
      }
    }
    auto expected = reference_runs(values);
    // A trailing partial group is encoded either way; compare whole groups.
    runs.resize(std::min(runs.size(), expected.size()));
    ASSERT_EQ(runs, expected) << trial;
  }
}

TEST(RleHybrid, NarrowOutputsAllWidths) {
  std::mt19937 rng(4);
  for (int width = 0; width <= 15; ++width) {
    auto values = adversarial(3000, width, rng, rng() % 5);
    auto bytes = encode(values, width);
    for (SimdLevel level : testing::each_simd_level()) {
      RleBitPackedDecoder dec(bytes.data(), bytes.size(), width);
      std::vector<int16_t> got(values.size());
      ASSERT_EQ(dec.decode(got.data(), got.size()), got.size()) << to_string(level) << " width " << width;
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(static_cast<uint32_t>(got[i]), values[i]) << to_string(level) << " width " << width << " at " << i;
    }
  }
  // Bit-packed levels above 32767 in an int16 output.
  std::vector<uint32_t> big(16, 1);
  big[3] = 40000;
  auto bytes = encode(big, 16);
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), 16);
  int16_t out[16];
  EXPECT_THROW(dec.decode(out, 16), Error);
  // Booleans from width 1.
  std::vector<uint32_t> bits = {1, 0, 1, 1, 0, 0, 0, 1, 1};
  auto bbytes = encode(bits, 1);
  RleBitPackedDecoder bdec(bbytes.data(), bbytes.size(), 1);
  uint8_t b[9];
  ASSERT_EQ(bdec.decode(b, 9), 9u);
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(b[i], bits[i]);
}

TEST(RleHybrid, SkipAcrossRuns) {
  std::mt19937 rng(5);
  auto values = adversarial(20000, 9, rng, 3);
  for (size_t i = 5000; i < 12000; ++i) values[i] = static_cast<uint32_t>(rng() & 511);
  auto bytes = encode(values, 9);
  RleBitPackedDecoder dec(bytes.data(), bytes.size(), 9);
  size_t at = 0;
  uint32_t buf[100];
  while (at < values.size()) {
    size_t s = dec.skip(rng() % 150);
    at += s;
    size_t n = dec.decode(buf, std::min<size_t>(1 + rng() % 100, values.size() - at));
    for (size_t k = 0; k < n; ++k) ASSERT_EQ(buf[k], values[at + k]) << at + k;
    at += n;
    if (n == 0) break;
  }
  EXPECT_EQ(dec.skip(10), 0u);
}

TEST(RleHybrid, EncoderRejectsWideValuesAndWritesPrefix) {
  RleBitPackedEncoder enc(3);
  uint32_t bad[] = {1, 2, 9};
  EXPECT_THROW(enc.put(bad, 3), Error);
  int16_t negative[] = {-1};
  RleBitPackedEncoder enc2(3);
  EXPECT_THROW(enc2.put(negative, 1), Error);

  RleBitPackedEncoder enc3(3);
  uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  enc3.put(values, 8);
  Buffer out;
  out.append_value(uint8_t{0xee});
  enc3.flush_with_length_prefix(out);
  EXPECT_EQ(std::vector<uint8_t>(out.data(), out.data() + out.size()),
            (std::vector<uint8_t>{0xee, 4, 0, 0, 0, 0x03, 0b10001000, 0b11000110, 0b11111010}));
  auto runs = read_length_prefix(std::span<const uint8_t>(out.data() + 1, out.size() - 1));
  EXPECT_EQ(runs.size(), 4u);
}

TEST(RleHybrid, MaxEncodedSizeBoundsFlush) {
  std::mt19937 rng(6);
  for (int width : {1, 7, 32}) {
    for (int kind = 0; kind < 5; ++kind) {
      RleBitPackedEncoder enc(width);
      auto values = adversarial(1 + rng() % 3000, width, rng, kind);
      enc.put(values.data(), values.size());
      size_t bound = enc.max_encoded_size();
      Buffer out;
      enc.flush(out);
      EXPECT_LE(out.size(), bound);
    }
  }
}

TEST(RleHybrid, TruncatedStreamsNeverReadPastTheEnd) {
  // Every prefix of a valid stream, in an exactly sized heap block (ASan).
  std::mt19937 rng(7);
  auto values = adversarial(700, 11, rng, 0);
  for (size_t i = 300; i < 400; ++i) values[i] = 5;
  auto bytes = encode(values, 11);
  for (SimdLevel level : testing::each_simd_level()) {
    for (size_t len = 0; len <= bytes.size(); ++len) {
      std::unique_ptr<uint8_t[]> block(new uint8_t[len]);
      std::copy(bytes.begin(), bytes.begin() + len, block.get());
      try {
        RleBitPackedDecoder dec(block.get(), len, 11);
        std::vector<uint32_t> out(800);
        size_t n = dec.decode(out.data(), out.size());
        ASSERT_LE(n, (values.size() + 7) / 8 * 8) << to_string(level);  // the last group's padding decodes too
        for (size_t k = 0; k < std::min(n, values.size()); ++k)
          ASSERT_EQ(out[k], values[k]) << to_string(level) << " length " << len << " at " << k;
      } catch (const Error&) {
      }
    }
  }
}

}  // namespace
}  // namespace parq::encoding
