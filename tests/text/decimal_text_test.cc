// Tests of DECIMAL values as exact decimal strings (append_decimal and
// append_decimal_be in parq/text/value_text.h). Wide values are checked
// against a slow reference that works on decimal digit strings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/text/value_text.h"

namespace parq::text {
namespace {

std::string decimal(int64_t unscaled, int32_t scale) {
  std::string out;
  append_decimal(out, unscaled, scale);
  return out;
}

std::string decimal_be(const std::vector<uint8_t>& bytes, int32_t scale) {
  std::string out;
  append_decimal_be(out, bytes.data(), bytes.size(), scale);
  return out;
}

// --- Reference arithmetic on decimal digit strings (most significant first).

// digits * 256 + byte
std::string times256_plus(const std::string& digits, unsigned byte) {
  std::string result(digits.size() + 3, '0');
  unsigned carry = byte;
  size_t r = result.size();
  for (size_t i = digits.size(); i-- > 0;) {
    const unsigned v = static_cast<unsigned>(digits[i] - '0') * 256 + carry;
    result[--r] = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  while (carry) {
    result[--r] = static_cast<char>('0' + carry % 10);
    carry /= 10;
  }
  const size_t first = result.find_first_not_of('0');
  return first == std::string::npos ? "0" : result.substr(first);
}

// a - b for a >= b
std::string subtract(const std::string& a, const std::string& b) {
  std::string result = a;
  int borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t ai = a.size() - 1 - i;
    int v = (a[ai] - '0') - borrow - (i < b.size() ? b[b.size() - 1 - i] - '0' : 0);
    borrow = v < 0;
    if (v < 0) v += 10;
    result[ai] = static_cast<char>('0' + v);
  }
  const size_t first = result.find_first_not_of('0');
  return first == std::string::npos ? "0" : result.substr(first);
}

// The unscaled value of big-endian two's complement bytes: the unsigned
// value, minus 2^(8n) when the sign bit is set.
std::pair<bool, std::string> reference_unscaled(const std::vector<uint8_t>& bytes) {
  std::string unsigned_value = "0";
  std::string two_to_8n = "1";
  for (const uint8_t b : bytes) {
    unsigned_value = times256_plus(unsigned_value, b);
    two_to_8n = times256_plus(two_to_8n, 0);
  }
  if (bytes[0] & 0x80) return {true, subtract(two_to_8n, unsigned_value)};
  return {false, unsigned_value};
}

std::string reference_decimal(const std::vector<uint8_t>& bytes, int32_t scale) {
  auto [negative, digits] = reference_unscaled(bytes);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return std::string("\"") + (negative ? "-" : "") + digits + "\"";
}

std::string int128_text(__int128 v, int32_t scale) {
  const bool negative = v < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  while (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, "0");
  if (scale > 0) digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  return std::string("\"") + (negative ? "-" : "") + digits + "\"";
}

std::vector<uint8_t> int128_bytes(__int128 v) {
  std::vector<uint8_t> bytes(16);
  for (int i = 15; i >= 0; --i) {
    bytes[i] = static_cast<uint8_t>(static_cast<unsigned __int128>(v) & 0xFF);
    v >>= 8;
  }
  return bytes;
}

// ---------------------------------------------------------------------------
// int64

TEST(DecimalText, FormatExamples) {
  EXPECT_EQ(decimal(-1230, 2), "\"-12.30\"");
  EXPECT_EQ(decimal(5, 2), "\"0.05\"");
  EXPECT_EQ(decimal(7, 0), "\"7\"");
}

TEST(DecimalText, ScaleAgainstDigitCount) {
  EXPECT_EQ(decimal(0, 0), "\"0\"");
  EXPECT_EQ(decimal(0, 2), "\"0.00\"");
  EXPECT_EQ(decimal(100, 2), "\"1.00\"");  // int32_decimal.parquet.jsonl
  EXPECT_EQ(decimal(123, 3), "\"0.123\"");
  EXPECT_EQ(decimal(123, 2), "\"1.23\"");
  EXPECT_EQ(decimal(123, 5), "\"0.00123\"");
  EXPECT_EQ(decimal(-5, 3), "\"-0.005\"");
  EXPECT_EQ(decimal(-123, 3), "\"-0.123\"");
  EXPECT_EQ(decimal(-1, 0), "\"-1\"");
  EXPECT_EQ(decimal(1003858, 3), "\"1003.858\"");  // byte_stream_split_extended golden
}

TEST(DecimalText, Int64Extremes) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(decimal(kMin, 0), "\"-9223372036854775808\"");
  EXPECT_EQ(decimal(kMax, 0), "\"9223372036854775807\"");
  EXPECT_EQ(decimal(kMin, 18), "\"-9.223372036854775808\"");
  EXPECT_EQ(decimal(kMin, 19), "\"-0.9223372036854775808\"");
  EXPECT_EQ(decimal(kMin, 20), "\"-0.09223372036854775808\"");
  EXPECT_EQ(decimal(kMax, 18), "\"9.223372036854775807\"");
}

TEST(DecimalText, NegativeScaleMultiplies) {
  EXPECT_EQ(decimal(12, -2), "\"1200\"");
  EXPECT_EQ(decimal(-12, -1), "\"-120\"");
  EXPECT_EQ(decimal(0, -3), "\"0\"");
}

TEST(DecimalText, ScaleLimit) {
  const std::string at_limit = decimal(1, kMaxDecimalScale);
  EXPECT_EQ(at_limit.size(), static_cast<size_t>(kMaxDecimalScale) + 4);
  EXPECT_EQ(at_limit.substr(0, 4), "\"0.0");
  EXPECT_EQ(at_limit.substr(at_limit.size() - 3), "01\"");
  EXPECT_THROW(decimal(1, kMaxDecimalScale + 1), Error);
  EXPECT_THROW(decimal(1, -kMaxDecimalScale - 1), Error);
  EXPECT_THROW(decimal(1, std::numeric_limits<int32_t>::min()), Error);
  const std::vector<uint8_t> wide(20, 0x11);
  EXPECT_THROW(decimal_be(wide, std::numeric_limits<int32_t>::max()), Error);
  std::string out = "keep";
  EXPECT_THROW(append_decimal(out, 1, kMaxDecimalScale + 1), Error);
  EXPECT_EQ(out, "keep");  // nothing half-written
}

// ---------------------------------------------------------------------------
// Big-endian bytes

TEST(DecimalText, BigEndianShortValues) {
  EXPECT_EQ(decimal_be({0x64}, 2), "\"1.00\"");  // byte_array_decimal.parquet.jsonl
  EXPECT_EQ(decimal_be({0x00, 0x64}, 2), "\"1.00\"");
  EXPECT_EQ(decimal_be({0xFF}, 0), "\"-1\"");
  EXPECT_EQ(decimal_be({0x80}, 0), "\"-128\"");
  EXPECT_EQ(decimal_be({0x7F}, 0), "\"127\"");
  EXPECT_EQ(decimal_be({0xFF, 0x7F}, 0), "\"-129\"");
  EXPECT_EQ(decimal_be({0x00, 0x80}, 0), "\"128\"");
  EXPECT_EQ(decimal_be({0xFB, 0x2E}, 2), "\"-12.34\"");
  EXPECT_EQ(decimal_be({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x64}, 2), "\"1.00\"");  // FLBA(11)
  EXPECT_EQ(decimal_be({0x80, 0, 0, 0, 0, 0, 0, 0}, 0), "\"-9223372036854775808\"");
}

TEST(DecimalText, BigEndianJustBeyondInt64) {
  EXPECT_EQ(decimal_be({0x00, 0x80, 0, 0, 0, 0, 0, 0, 0}, 0), "\"9223372036854775808\"");
  EXPECT_EQ(decimal_be({0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, 0), "\"-9223372036854775809\"");
  EXPECT_EQ(decimal_be({0x01, 0, 0, 0, 0, 0, 0, 0, 0}, 0), "\"18446744073709551616\"");
  EXPECT_EQ(decimal_be({0xFF, 0, 0, 0, 0, 0, 0, 0, 0}, 2), "\"-184467440737095516.16\"");
}

TEST(DecimalText, RedundantSignBytesAreHarmless) {
  std::vector<uint8_t> one(5000, 0x00);
  one.back() = 0x01;
  EXPECT_EQ(decimal_be(one, 0), "\"1\"");
  EXPECT_EQ(decimal_be(std::vector<uint8_t>(5000, 0xFF), 1), "\"-0.1\"");
  EXPECT_EQ(decimal_be(std::vector<uint8_t>(32, 0x00), 3), "\"0.000\"");
}

TEST(DecimalText, SixteenByteValuesMatchInt128) {
  const __int128 kMax = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
  const __int128 kMin = -kMax - 1;
  __int128 ten38 = 1;
  for (int i = 0; i < 38; ++i) ten38 *= 10;
  std::vector<__int128> values = {0,
                                  1,
                                  -1,
                                  kMax,
                                  kMin,
                                  kMax - 1,
                                  kMin + 1,
                                  ten38 - 1,
                                  -(ten38 - 1),
                                  ten38,
                                  static_cast<__int128>(1) << 64,
                                  -(static_cast<__int128>(1) << 64),
                                  (static_cast<__int128>(1) << 64) - 1};
  std::mt19937_64 rng(38);
  for (int i = 0; i < 2000; ++i) {
    const int shift = static_cast<int>(rng() % 64);
    values.push_back(static_cast<__int128>((static_cast<unsigned __int128>(rng()) << 64) | rng()) >> shift);
  }
  for (const __int128 v : values) {
    for (const int32_t scale : {0, 2, 18, 38, 40}) {
      ASSERT_EQ(decimal_be(int128_bytes(v), scale), int128_text(v, scale))
          << "scale " << scale << " value " << int128_text(v, 0);
    }
  }
}

TEST(DecimalText, ThirtyTwoByteValuesMatchReference) {
  std::vector<std::vector<uint8_t>> values;
  std::vector<uint8_t> max(32, 0xFF);
  max[0] = 0x7F;
  values.push_back(max);
  std::vector<uint8_t> min(32, 0x00);
  min[0] = 0x80;
  values.push_back(min);
  values.emplace_back(32, 0xFF);
  std::mt19937_64 rng(32);
  for (int i = 0; i < 500; ++i) {
    std::vector<uint8_t> v(32);
    for (auto& b : v) b = static_cast<uint8_t>(rng());
    values.push_back(v);
  }
  EXPECT_EQ(decimal_be(max, 0), "\"57896044618658097711785492504343953926634992332820282019728792003956564819967\"");
  EXPECT_EQ(decimal_be(min, 0), "\"-57896044618658097711785492504343953926634992332820282019728792003956564819968\"");
  for (const auto& v : values) {
    for (const int32_t scale : {0, 10, 76, 80}) {
      ASSERT_EQ(decimal_be(v, scale), reference_decimal(v, scale)) << "scale " << scale;
    }
  }
}

TEST(DecimalText, OddAndLongLengthsMatchReference) {
  std::mt19937_64 rng(99);
  for (const size_t n : {9u, 10u, 13u, 17u, 31u, 33u, 63u, 64u, 65u, 100u, 257u}) {
    for (int i = 0; i < 20; ++i) {
      std::vector<uint8_t> v(n);
      for (auto& b : v) b = static_cast<uint8_t>(rng());
      ASSERT_EQ(decimal_be(v, 7), reference_decimal(v, 7)) << "length " << n;
    }
  }
}

TEST(DecimalText, LengthLimit) {
  std::vector<uint8_t> longest(kMaxDecimalBytes, 0xA5);
  longest[0] = 0x7F;
  EXPECT_EQ(decimal_be(longest, 3), reference_decimal(longest, 3));
  longest[0] = 0x80;
  EXPECT_EQ(decimal_be(longest, 0), reference_decimal(longest, 0));
  std::vector<uint8_t> too_long(kMaxDecimalBytes + 1, 0xA5);
  too_long[0] = 0x00;  // a sign byte that matters: 0xA5 has its top bit set
  EXPECT_THROW(decimal_be(too_long, 0), Error);
}

// No bytes: zero, as DuckDB, arrow-rs, Polars and hyparquet read it.
TEST(DecimalText, EmptyBytesAreZero) {
  EXPECT_EQ(decimal_be({}, 2), "\"0.00\"");
  EXPECT_EQ(decimal_be({}, 0), "\"0\"");
}

}  // namespace
}  // namespace parq::text
