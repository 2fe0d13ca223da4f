// BIT_PACKED (deprecated, MSB first): the spec's example byte for byte, round
// trips at every width, int16 levels, skips, truncated and hostile input.
#include "parq/encoding/bit_packed.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "parq/error.h"

namespace parq::encoding {
namespace {

TEST(BitPacked, SpecExample) {
  // Encodings.md: 0..7 at width 3 is 00000101 00111001 01110111.
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  Buffer out;
  encode_bit_packed(values, 8, 3, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out.data()[0], 0b00000101);
  EXPECT_EQ(out.data()[1], 0b00111001);
  EXPECT_EQ(out.data()[2], 0b01110111);
  BitPackedDecoder dec(out.data(), out.size(), 3);
  uint32_t back[8];
  ASSERT_EQ(dec.decode(back, 8), 8u);
  EXPECT_EQ(std::vector<uint32_t>(back, back + 8), std::vector<uint32_t>(values, values + 8));
}

TEST(BitPacked, RoundTripEveryWidth) {
  std::mt19937_64 rng(1);
  for (int width = 0; width <= 32; ++width) {
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 1u << 20}) {
      const uint64_t mask = (uint64_t{1} << width) - 1;
      std::vector<uint32_t> values(n);
      for (auto& v : values) v = static_cast<uint32_t>(rng() & mask);
      if (n > 0) values[n - 1] = static_cast<uint32_t>(mask);
      Buffer out;
      encode_bit_packed(values.data(), n, width, out);
      ASSERT_EQ(out.size(), (n * width + 7) / 8);
      // Exactly sized copy: ASan reports any read past the end.
      std::unique_ptr<uint8_t[]> exact(new uint8_t[out.size()]);
      std::copy(out.data(), out.data() + out.size(), exact.get());
      BitPackedDecoder dec(exact.get(), out.size(), width);
      std::vector<uint32_t> back(n);
      size_t at = 0;
      while (at < n) {
        size_t got = dec.decode(back.data() + at, std::min<size_t>(n - at, 1 + at % 1000));
        ASSERT_GT(got, 0u);
        at += got;
      }
      ASSERT_EQ(back, values) << "width " << width << " n " << n;
    }
  }
}

TEST(BitPacked, LevelsSkipAndLimits) {
  std::vector<int16_t> levels = {0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 3};
  Buffer out;
  encode_bit_packed(levels.data(), levels.size(), 2, out);
  BitPackedDecoder dec(out.data(), out.size(), 2);
  EXPECT_EQ(dec.skip(3), 3u);
  int16_t got[20];
  // 11 values in 22 bits: 3 bytes hold 12, the last is padding.
  ASSERT_EQ(dec.decode(got, 20), 9u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(got[i], levels[i + 3]);
  EXPECT_EQ(dec.decode(got, 20), 0u);

  std::vector<uint32_t> wide = {40000, 1};
  Buffer w;
  encode_bit_packed(wide.data(), 2, 16, w);
  BitPackedDecoder wdec(w.data(), w.size(), 16);
  EXPECT_THROW(wdec.decode(got, 2), Error);
  EXPECT_THROW(BitPackedDecoder(w.data(), w.size(), 33), Error);
  uint32_t too_wide[] = {8};
  Buffer t;
  EXPECT_THROW(encode_bit_packed(too_wide, 1, 3, t), Error);
  int16_t negative[] = {-1};
  EXPECT_THROW(encode_bit_packed(negative, 1, 16, t), Error);
}

}  // namespace
}  // namespace parq::encoding
