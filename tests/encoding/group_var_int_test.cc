// Group varint: the lead-byte layout byte for byte, padding of the last
// group, round trips for both widths, batched and skipping reads, and
// truncated input.
#include "parq/encoding/group_var_int.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "parq/error.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

template <class T>
std::vector<uint8_t> encode(const std::vector<T>& values) {
  Buffer out;
  group_var_int_encode(values.data(), values.size(), out);
  return {out.data(), out.data() + out.size()};
}

TEST(GroupVarInt, LeadByteOfOneThreeFourTwoBytes) {
  std::vector<uint8_t> bytes = encode<uint32_t>({0x05, 0x030201, 0x04030201, 0x0201});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0b00101101, 0x05, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x04, 0x01, 0x02}));
  EXPECT_EQ(bytes.size(), 11u);
  uint32_t out[4];
  EXPECT_EQ(group_var_int_decode(bytes.data(), bytes.size(), 4, out), 11u);
  EXPECT_EQ(out[1], 0x030201u);
  EXPECT_EQ(out[2], 0x04030201u);
}

TEST(GroupVarInt, IncompleteGroupIsPaddedWithZeros) {
  std::vector<uint8_t> bytes = encode<uint32_t>({1, 2, 3, 4, 5});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0, 1, 2, 3, 4, 0, 5, 0, 0, 0}));
  uint32_t out[5];
  EXPECT_EQ(group_var_int_decode(bytes.data(), bytes.size(), 5, out), 10u);
  EXPECT_EQ(out[4], 5u);
}

TEST(GroupVarInt, Uint64LeadLayout) {
  // Lengths 1, 8, 2, 1, 3: fields 0, 7, 1, 0, 2 -> 0 000 111 001 000 010.
  std::vector<uint64_t> values = {7, 0x0807060504030201ULL, 0x0201, 0, 0x030201};
  std::vector<uint8_t> bytes = encode(values);
  uint16_t lead = static_cast<uint16_t>((0u << 12) | (7u << 9) | (1u << 6) | (0u << 3) | 2u);
  ASSERT_EQ(bytes.size(), 2u + 1 + 8 + 2 + 1 + 3);
  EXPECT_EQ(bytes[0], lead >> 8);
  EXPECT_EQ(bytes[1], lead & 0xFF);
  EXPECT_EQ(bytes[2], 7);
  EXPECT_EQ(bytes[3], 1);
  EXPECT_EQ(bytes[10], 8);
  uint64_t out[5];
  EXPECT_EQ(group_var_int_decode(bytes.data(), bytes.size(), 5, out), bytes.size());
  EXPECT_EQ(std::vector<uint64_t>(out, out + 5), values);
}

template <class T>
std::vector<T> make_values(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng() >> (rng() % (sizeof(T) * 8)));
  if (n > 0) v[0] = std::numeric_limits<T>::max();
  if (n > 1) v[1] = 0;
  return v;
}

template <class T>
class GroupVarIntTyped : public ::testing::Test {};
using Widths = ::testing::Types<uint32_t, uint64_t>;
TYPED_TEST_SUITE(GroupVarIntTyped, Widths);

TYPED_TEST(GroupVarIntTyped, RoundTripAllSizes) {
  using T = TypeParam;
  for (size_t n : {0, 1, 4, 5, 7, 8, 9, 127, 128, 129, 1000003}) {
    auto values = make_values<T>(n, static_cast<uint32_t>(n));
    std::vector<uint8_t> bytes = encode(values);
    EXPECT_LE(bytes.size(), group_var_int_max_size(n, sizeof(T)));
    std::vector<T> out(n);
    EXPECT_EQ(group_var_int_decode(bytes.data(), bytes.size(), n, out.data()), bytes.size());
    ASSERT_EQ(out, values) << n;

    // The batch API, with batches that straddle groups and skips.
    GroupVarIntEncoder<T> enc;
    size_t put = 0, step = 1;
    while (put < n) {
      size_t k = std::min(step, n - put);
      enc.put(values.data() + put, k);
      put += k;
      step = step * 2 + 1;
    }
    Buffer page;
    enc.flush(page);
    ASSERT_EQ(std::vector<uint8_t>(page.data(), page.data() + page.size()), bytes);
    GroupVarIntDecoder<T> dec;
    dec.reset(bytes.data(), bytes.size(), n);
    std::vector<T> got(n);
    size_t at = 0;
    step = 1;
    while (at < n) {
      size_t k = dec.decode(got.data() + at, step);
      ASSERT_GT(k, 0u);
      for (size_t i = at; i < at + k; ++i) ASSERT_EQ(got[i], values[i]) << n << " " << i;
      at += k;
      at += dec.skip(step % 7);
      step = step * 2 + 3;
    }
    EXPECT_EQ(dec.decode(got.data(), 1), 0u);
  }
}

TYPED_TEST(GroupVarIntTyped, EveryTruncationThrows) {
  using T = TypeParam;
  auto values = make_values<T>(23, 3);
  std::vector<uint8_t> bytes = encode(values);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    std::vector<uint8_t> part(bytes.begin(), bytes.begin() + cut);
    std::vector<T> out(values.size());
    try {
      group_var_int_decode(part.data(), part.size(), values.size(), out.data());
      ADD_FAILURE() << cut;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("group varint"));
      EXPECT_THAT(e.what(), HasSubstr("at byte"));
    }
    GroupVarIntDecoder<T> dec;
    EXPECT_THROW(
        {
          dec.reset(part.data(), part.size(), values.size());
          while (dec.decode(out.data(), 6) != 0) {
          }
        },
        Error)
        << cut;
    EXPECT_THROW(
        {
          dec.reset(part.data(), part.size(), values.size());
          dec.skip(values.size());
        },
        Error)
        << cut;
  }
}

TEST(GroupVarInt, Uint64UnusedLeadBitMustBeZero) {
  std::vector<uint8_t> bytes = encode<uint64_t>({1, 2, 3, 4, 5});
  bytes[0] |= 0x80;
  uint64_t out[5];
  EXPECT_THROW(group_var_int_decode(bytes.data(), bytes.size(), 5, out), Error);
  bytes.resize(64, 0);  // long enough for the fast path too
  EXPECT_THROW(group_var_int_decode(bytes.data(), bytes.size(), 5, out), Error);
}

}  // namespace
}  // namespace parq::encoding
