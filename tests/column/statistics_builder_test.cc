// Tests of StatisticsBuilder: bounds in every physical type and sort order,
// NaN and signed-zero rules, truncation of long byte arrays, decimals,
// merging pages into a chunk, the thrift form, and every SIMD level against
// a plain reference.
#include "column/statistics_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "schema/schema_elements.h"
#include "simd_levels.h"

namespace parq {
namespace {

using namespace format;
using testing::kRequired;
using testing::leaf;
using testing::root;

constexpr size_t kNoLimit = 0;

SchemaElement plain(Type type, int32_t length = 0) {
  SchemaElement e = leaf("v", kRequired, type);
  if (length > 0) e.type_length = length;
  return e;
}

SchemaElement annotated(Type type, LogicalType logical, int32_t length = 0) {
  SchemaElement e = plain(type, length);
  e.logical_type = std::move(logical);
  return e;
}

SchemaElement decimal(Type type, int32_t precision, int32_t length = 0) {
  SchemaElement e = annotated(type, LogicalType{.DECIMAL = DecimalType{0, precision}}, length);
  e.converted_type = ConvertedType::DECIMAL;
  e.precision = precision;
  e.scale = 0;
  return e;
}

// The builder of a one-column schema (the builder keeps nothing of it).
std::unique_ptr<StatisticsBuilder> builder(const SchemaElement& column, size_t max_bound_bytes = 64) {
  const Schema schema = Schema::from_elements({root(1), column});
  return StatisticsBuilder::make(schema.column(0), max_bound_bytes);
}

SortOrder order_of(const SchemaElement& column) {
  return Schema::from_elements({root(1), column}).column(0).sort_order;
}

template <class T>
std::string bytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class T>
void add(StatisticsBuilder& s, const std::vector<T>& values) {
  s.add_values(values.data(), values.size());
}

void add_strings(StatisticsBuilder& s, const std::vector<std::string>& values) {
  std::vector<int32_t> offsets{0};
  std::string data;
  for (const std::string& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  s.add_byte_arrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), values.size());
}

void add_fixed(StatisticsBuilder& s, const std::vector<std::string>& values) {
  std::string data;
  for (const std::string& v : values) data += v;
  s.add_values(data.data(), values.size());
}

void expect_bounds(const StatisticsBuilder& s, const std::string& min, const std::string& max) {
  ASSERT_TRUE(s.has_bounds());
  EXPECT_EQ(s.min_bytes(), min);
  EXPECT_EQ(s.max_bytes(), max);
}

// ---- integers ----

TEST(StatisticsBuilderTest, Int32Signed) {
  auto s = builder(plain(Type::INT32));
  add<int32_t>(*s, {5, -3, 7, 0});
  add<int32_t>(*s, {});
  s->add_nulls(2);
  expect_bounds(*s, bytes<int32_t>(-3), bytes<int32_t>(7));
  EXPECT_TRUE(s->min_exact());
  EXPECT_TRUE(s->max_exact());
  const Statistics t = s->to_thrift();
  EXPECT_EQ(t.null_count, 2);
  EXPECT_EQ(t.min_value, bytes<int32_t>(-3));
  EXPECT_EQ(t.max_value, bytes<int32_t>(7));
  EXPECT_EQ(t.is_min_value_exact, true);
  EXPECT_EQ(t.is_max_value_exact, true);
  // The deprecated fields order signed numbers as the column does.
  EXPECT_EQ(t.min, t.min_value);
  EXPECT_EQ(t.max, t.max_value);
  EXPECT_FALSE(t.nan_count);
  EXPECT_FALSE(t.distinct_count);
}

TEST(StatisticsBuilderTest, Int32UnsignedComparesUnsigned) {
  for (const SchemaElement& column : {annotated(Type::INT32, LogicalType{.INTEGER = IntType{32, false}}), [] {
                                        SchemaElement e = plain(Type::INT32);
                                        e.converted_type = ConvertedType::UINT_32;
                                        return e;
                                      }()}) {
    ASSERT_EQ(order_of(column), SortOrder::kUnsigned);
    auto s = builder(column);
    add<uint32_t>(*s, {1, 0xFFFFFFFFu, 7});
    expect_bounds(*s, bytes<uint32_t>(1), bytes<uint32_t>(0xFFFFFFFFu));
    const Statistics t = s->to_thrift();
    // Signed readers of the deprecated fields would see -1 as the max.
    EXPECT_FALSE(t.min);
    EXPECT_FALSE(t.max);
    EXPECT_GT(s->compare(bytes<uint32_t>(0xFFFFFFFFu), bytes<uint32_t>(1)), 0);
  }
}

TEST(StatisticsBuilderTest, Int64SignedAndUnsigned) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  auto s = builder(plain(Type::INT64));
  add<int64_t>(*s, {5, kMin, -1, 9});
  expect_bounds(*s, bytes<int64_t>(kMin), bytes<int64_t>(9));
  EXPECT_LT(s->compare(bytes<int64_t>(-1), bytes<int64_t>(1)), 0);

  auto u = builder(annotated(Type::INT64, LogicalType{.INTEGER = IntType{64, false}}));
  add<uint64_t>(*u, {uint64_t{1} << 63, 5, ~uint64_t{0}, 6});
  expect_bounds(*u, bytes<uint64_t>(5), bytes<uint64_t>(~uint64_t{0}));
  EXPECT_GT(u->compare(bytes<int64_t>(-1), bytes<int64_t>(1)), 0);
  EXPECT_FALSE(u->to_thrift().min);
}

TEST(StatisticsBuilderTest, SignedLogicalTypesKeepTheDeprecatedFields) {
  for (const SchemaElement& column :
       {annotated(Type::INT32, LogicalType{.DATE = DateType{}}), decimal(Type::INT32, 9), decimal(Type::INT64, 18),
        annotated(Type::INT32, LogicalType{.INTEGER = IntType{8, true}})}) {
    auto s = builder(column);
    if (column.type == Type::INT32) {
      add<int32_t>(*s, {-4, 4});
    } else {
      add<int64_t>(*s, {-4, 4});
    }
    const Statistics t = s->to_thrift();
    ASSERT_TRUE(t.min_value);
    EXPECT_EQ(t.min, t.min_value);
    EXPECT_EQ(t.max, t.max_value);
  }
}

TEST(StatisticsBuilderTest, IntegersMatchAReferenceAtEverySimdLevel) {
  std::mt19937_64 rng(7);
  for (size_t n : {1, 2, 3, 15, 16, 17, 31, 33, 64, 100, 1000, 4099}) {
    std::vector<int64_t> v64(n);
    std::vector<int32_t> v32(n);
    for (size_t i = 0; i < n; ++i) {
      v64[i] = static_cast<int64_t>(rng());
      v32[i] = static_cast<int32_t>(rng());
    }
    std::vector<uint64_t> u64(v64.begin(), v64.end());
    std::vector<uint32_t> u32(v32.begin(), v32.end());
    for (SimdLevel level : testing::each_simd_level()) {
      SCOPED_TRACE(std::string(to_string(level)) + " n=" + std::to_string(n));
      auto s64 = builder(plain(Type::INT64));
      add(*s64, v64);
      expect_bounds(*s64, bytes(*std::min_element(v64.begin(), v64.end())),
                    bytes(*std::max_element(v64.begin(), v64.end())));
      auto su64 = builder(annotated(Type::INT64, LogicalType{.INTEGER = IntType{64, false}}));
      add(*su64, u64);
      expect_bounds(*su64, bytes(*std::min_element(u64.begin(), u64.end())),
                    bytes(*std::max_element(u64.begin(), u64.end())));
      auto s32 = builder(plain(Type::INT32));
      add(*s32, v32);
      expect_bounds(*s32, bytes(*std::min_element(v32.begin(), v32.end())),
                    bytes(*std::max_element(v32.begin(), v32.end())));
      auto su32 = builder(annotated(Type::INT32, LogicalType{.INTEGER = IntType{32, false}}));
      add(*su32, u32);
      expect_bounds(*su32, bytes(*std::min_element(u32.begin(), u32.end())),
                    bytes(*std::max_element(u32.begin(), u32.end())));
    }
  }
}

TEST(StatisticsBuilderTest, UnalignedValues) {
  // The writer's dense buffers are aligned, but nothing in the interface
  // says so.
  std::vector<uint8_t> raw(1 + 5 * 8);
  const int64_t values[5] = {3, -8, 12, 0, 5};
  std::memcpy(raw.data() + 1, values, sizeof values);
  auto s = builder(plain(Type::INT64));
  s->add_values(raw.data() + 1, 5);
  expect_bounds(*s, bytes<int64_t>(-8), bytes<int64_t>(12));
}

// ---- booleans ----

TEST(StatisticsBuilderTest, BooleanFalseBeforeTrue) {
  auto s = builder(plain(Type::BOOLEAN));
  add<uint8_t>(*s, {1, 1, 1});
  expect_bounds(*s, std::string(1, '\1'), std::string(1, '\1'));
  add<uint8_t>(*s, {0});
  expect_bounds(*s, std::string(1, '\0'), std::string(1, '\1'));
  EXPECT_LT(s->compare(std::string(1, '\0'), std::string(1, '\1')), 0);
  const Statistics t = s->to_thrift();
  EXPECT_EQ(t.min, t.min_value);
  EXPECT_EQ(t.max, t.max_value);
  EXPECT_FALSE(t.nan_count);
}

// ---- floating point ----

template <class T>
void check_float_rules() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  const Type type = sizeof(T) == 4 ? Type::FLOAT : Type::DOUBLE;
  {
    auto s = builder(plain(type));
    add<T>(*s, {nan, T(1.5), T(-2), nan});
    EXPECT_EQ(s->nan_count(), 2);
    expect_bounds(*s, bytes<T>(-2), bytes<T>(1.5));
    const Statistics t = s->to_thrift();
    EXPECT_EQ(t.nan_count, 2);
    EXPECT_EQ(t.min, t.min_value);
  }
  {
    // Only NaNs: no bounds, but the count says why.
    auto s = builder(plain(type));
    add<T>(*s, {nan, -nan, nan});
    EXPECT_FALSE(s->has_bounds());
    EXPECT_EQ(s->min_bytes(), "");
    const Statistics t = s->to_thrift();
    EXPECT_EQ(t.nan_count, 3);
    EXPECT_FALSE(t.min_value);
    EXPECT_FALSE(t.max_value);
    EXPECT_FALSE(t.min);
    EXPECT_EQ(t.null_count, 0);
  }
  {
    // A zero min is written -0, a zero max +0, whatever the values' signs.
    auto s = builder(plain(type));
    add<T>(*s, {T(0), T(1)});
    expect_bounds(*s, bytes<T>(-T(0)), bytes<T>(1));
    auto n = builder(plain(type));
    add<T>(*n, {T(-1), -T(0)});
    expect_bounds(*n, bytes<T>(-1), bytes<T>(T(0)));
    auto z = builder(plain(type));
    add<T>(*z, {-T(0), T(0), -T(0)});
    expect_bounds(*z, bytes<T>(-T(0)), bytes<T>(T(0)));
    EXPECT_EQ(z->compare(bytes<T>(-T(0)), bytes<T>(T(0))), 0);
  }
  {
    auto s = builder(plain(type));
    add<T>(*s, {inf, nan});
    expect_bounds(*s, bytes<T>(inf), bytes<T>(inf));
    add<T>(*s, {-inf});
    expect_bounds(*s, bytes<T>(-inf), bytes<T>(inf));
    EXPECT_LT(s->compare(bytes<T>(-inf), bytes<T>(-1)), 0);
  }
  {
    // No NaNs still reports a count of zero, as the spec asks.
    auto s = builder(plain(type));
    add<T>(*s, {T(3)});
    EXPECT_EQ(s->to_thrift().nan_count, 0);
    auto empty = builder(plain(type));
    EXPECT_EQ(empty->to_thrift().nan_count, 0);
  }
}

TEST(StatisticsBuilderTest, FloatNanAndZeroRules) { check_float_rules<float>(); }
TEST(StatisticsBuilderTest, DoubleNanAndZeroRules) { check_float_rules<double>(); }

template <class T>
void check_floats_against_reference() {
  std::mt19937_64 rng(11);
  std::normal_distribution<T> dist(0, 1000);
  const Type type = sizeof(T) == 4 ? Type::FLOAT : Type::DOUBLE;
  for (size_t n : {1, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000, 4097}) {
    for (int nan_every : {0, 3, 1}) {
      std::vector<T> v(n);
      for (size_t i = 0; i < n; ++i) {
        v[i] = dist(rng);
        if (nan_every != 0 && i % static_cast<size_t>(nan_every) == 0) v[i] = std::numeric_limits<T>::quiet_NaN();
      }
      std::vector<T> real;
      for (T x : v)
        if (!std::isnan(x)) real.push_back(x);
      for (SimdLevel level : testing::each_simd_level()) {
        SCOPED_TRACE(std::string(to_string(level)) + " n=" + std::to_string(n));
        auto s = builder(plain(type));
        add(*s, v);
        EXPECT_EQ(s->nan_count(), static_cast<int64_t>(n - real.size()));
        if (real.empty()) {
          EXPECT_FALSE(s->has_bounds());
        } else {
          expect_bounds(*s, bytes(*std::min_element(real.begin(), real.end())),
                        bytes(*std::max_element(real.begin(), real.end())));
        }
      }
    }
  }
}

TEST(StatisticsBuilderTest, FloatsMatchAReferenceAtEverySimdLevel) { check_floats_against_reference<float>(); }
TEST(StatisticsBuilderTest, DoublesMatchAReferenceAtEverySimdLevel) { check_floats_against_reference<double>(); }

TEST(StatisticsBuilderTest, Float16ComparesAsNumbers) {
  const SchemaElement column = annotated(Type::FIXED_LEN_BYTE_ARRAY, LogicalType{.FLOAT16 = Float16Type{}}, 2);
  ASSERT_EQ(order_of(column), SortOrder::kSigned);
  constexpr uint16_t kOne = 0x3C00, kMinusTwo = 0xC000, kNan = 0x7E00, kMinusNan = 0xFE00, kInf = 0x7C00,
                     kMinusInf = 0xFC00, kZero = 0x0000, kMinusZero = 0x8000, kHalf = 0x3800, kTiny = 0x0001;
  auto s = builder(column);
  add<uint16_t>(*s, {kOne, kNan, kMinusTwo, kHalf, kMinusNan, kTiny});
  EXPECT_EQ(s->nan_count(), 2);
  expect_bounds(*s, bytes(kMinusTwo), bytes(kOne));
  const Statistics t = s->to_thrift();
  EXPECT_EQ(t.nan_count, 2);
  EXPECT_FALSE(t.min);  // FIXED_LEN_BYTE_ARRAY: the deprecated order is bytes

  auto inf = builder(column);
  add<uint16_t>(*inf, {kInf, kMinusInf});
  expect_bounds(*inf, bytes(kMinusInf), bytes(kInf));

  auto zeros = builder(column);
  add<uint16_t>(*zeros, {kZero, kOne});
  expect_bounds(*zeros, bytes(kMinusZero), bytes(kOne));
  auto negative_zero_max = builder(column);
  add<uint16_t>(*negative_zero_max, {kMinusTwo, kMinusZero});
  expect_bounds(*negative_zero_max, bytes(kMinusTwo), bytes(kZero));

  auto nans = builder(column);
  add<uint16_t>(*nans, {kNan, kNan});
  EXPECT_FALSE(nans->has_bounds());
  EXPECT_EQ(nans->to_thrift().nan_count, 2);

  EXPECT_LT(s->compare(bytes(kMinusTwo), bytes(kTiny)), 0);
  EXPECT_GT(s->compare(bytes(kOne), bytes(kHalf)), 0);
  EXPECT_EQ(s->compare(bytes(kMinusZero), bytes(kZero)), 0);
  EXPECT_LT(s->compare(bytes(kMinusInf), bytes(kMinusTwo)), 0);
}

// ---- byte arrays ----

TEST(StatisticsBuilderTest, ByteArraysUnsignedLexicographic) {
  auto s = builder(plain(Type::BYTE_ARRAY));
  add_strings(*s, {"b", "abc", "ab", "\x7f"});
  expect_bounds(*s, "ab", "\x7f");
  add_strings(*s, {"\xff", ""});
  expect_bounds(*s, "", "\xff");
  EXPECT_LT(s->compare("ab", "abc"), 0);
  EXPECT_GT(s->compare("\x80", "\x7f"), 0);  // unsigned bytes
  const Statistics t = s->to_thrift();
  EXPECT_FALSE(t.min);  // a signed byte comparison would get "\xff" wrong
  EXPECT_FALSE(t.nan_count);
}

TEST(StatisticsBuilderTest, ByteArraysMatchAReference) {
  // Short strings over a few bytes, many of them sharing their first 8
  // bytes, so that ties of the prefix keys, zero bytes and proper
  // prefixes all occur.
  std::mt19937 rng(3);
  const char alphabet[] = {'\0', '\1', 'a', '\x7f', '\x80', '\xff'};
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> values(1 + rng() % 300);
    for (auto& v : values) {
      v = rng() % 2 == 0 ? "prefix__" : "";
      const size_t len = rng() % 20;
      for (size_t i = 0; i < len; ++i) v += alphabet[rng() % sizeof alphabet];
    }
    auto s = builder(plain(Type::BYTE_ARRAY), kNoLimit);
    add_strings(*s, values);
    auto by_bytes = [](const std::string& a, const std::string& b) {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                          [](char x, char y) { return uint8_t(x) < uint8_t(y); });
    };
    expect_bounds(*s, *std::min_element(values.begin(), values.end(), by_bytes),
                  *std::max_element(values.begin(), values.end(), by_bytes));
  }
}

TEST(StatisticsBuilderTest, FixedLenByteArrayUnsigned) {
  auto s = builder(plain(Type::FIXED_LEN_BYTE_ARRAY, 3));
  add_fixed(*s, {"abc", std::string("\xff\0\1", 3), std::string("ab\0", 3), std::string("\0zz", 3)});
  expect_bounds(*s, std::string("\0zz", 3), std::string("\xff\0\1", 3));
  EXPECT_FALSE(s->to_thrift().min);
}

TEST(StatisticsBuilderTest, TruncatesLongBoundsOfByteArrays) {
  auto s = builder(plain(Type::BYTE_ARRAY), 4);
  add_strings(*s, {"abcdefgh", "abcdzzzz"});
  EXPECT_EQ(s->min_bytes(), "abcd");
  EXPECT_EQ(s->max_bytes(), "abce");
  EXPECT_FALSE(s->min_exact());
  EXPECT_FALSE(s->max_exact());
  const Statistics t = s->to_thrift();
  EXPECT_EQ(t.is_min_value_exact, false);
  EXPECT_EQ(t.is_max_value_exact, false);
  EXPECT_EQ(t.min_value, "abcd");
  EXPECT_EQ(t.max_value, "abce");

  // Bounds at the limit stay whole and exact.
  auto fits = builder(plain(Type::BYTE_ARRAY), 4);
  add_strings(*fits, {"abcd", "ab"});
  expect_bounds(*fits, "ab", "abcd");
  EXPECT_TRUE(fits->min_exact());
  EXPECT_TRUE(fits->max_exact());
}

TEST(StatisticsBuilderTest, TruncatedMaxCarriesPastFfBytes) {
  auto s = builder(plain(Type::BYTE_ARRAY), 4);
  add_strings(*s, {"ab\xff\xff\xff"});
  EXPECT_EQ(s->max_bytes(), "ac");
  EXPECT_FALSE(s->max_exact());
  EXPECT_EQ(s->min_bytes(), "ab\xff\xff");

  auto carry = builder(plain(Type::BYTE_ARRAY), 3);
  add_strings(*carry, {"a\xfe\xff\x01"});
  EXPECT_EQ(carry->max_bytes(), "a\xff");

  // No prefix of all-0xFF bytes bounds it from above: the max stays whole.
  auto all_ff = builder(plain(Type::BYTE_ARRAY), 4);
  add_strings(*all_ff, {"\xff\xff\xff\xff\xff\xff", "\x01"});
  EXPECT_EQ(all_ff->max_bytes(), "\xff\xff\xff\xff\xff\xff");
  EXPECT_TRUE(all_ff->max_exact());
  EXPECT_EQ(all_ff->min_bytes(), "\x01");
  EXPECT_TRUE(all_ff->min_exact());
  const Statistics t = all_ff->to_thrift();
  EXPECT_EQ(t.is_max_value_exact, true);
}

bool valid_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<uint8_t>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<uint8_t>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

TEST(StatisticsBuilderTest, TruncatesStringsAtCharacterBoundaries) {
  const SchemaElement column = annotated(Type::BYTE_ARRAY, LogicalType{.STRING = StringType{}});
  struct Case {
    std::string value;
    size_t limit;
    std::string min, max;
  };
  const Case cases[] = {
      // é (2 bytes) would be split at 4: cut before it.
      {"abc\xc3\xa9xyz", 4, "abc", "abd"},
      // é incremented to ê.
      {"ab\xc3\xa9xyz", 4, "ab\xc3\xa9", "ab\xc3\xaa"},
      // U+10FFFF has no successor: the character before it is incremented.
      {"ab\xf4\x8f\xbf\xbfz", 6, "ab\xf4\x8f\xbf\xbf", "ac"},
      // U+007F's successor takes two bytes, past the limit.
      {"a\x7fzzzz", 2, "a\x7f", "b"},
      // U+D7FF's successor skips the surrogates to U+E000.
      {"\xed\x9f\xbfxy", 3, "\xed\x9f\xbf", "\xee\x80\x80"},
      // A 4-byte character cut at every position.
      {"\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 7, "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x81"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    auto s = builder(column, c.limit);
    add_strings(*s, {c.value});
    EXPECT_EQ(s->min_bytes(), c.min);
    EXPECT_EQ(s->max_bytes(), c.max);
    EXPECT_FALSE(s->min_exact());
    EXPECT_FALSE(s->max_exact());
    EXPECT_TRUE(valid_utf8(s->min_bytes()));
    EXPECT_TRUE(valid_utf8(s->max_bytes()));
    EXPECT_LE(s->max_bytes().size(), c.limit);
    EXPECT_GT(s->compare(s->max_bytes(), c.value), 0);
    EXPECT_LT(s->compare(s->min_bytes(), c.value), 0);
  }
  // Only U+10FFFF: nothing shorter bounds it.
  auto top = builder(column, 4);
  add_strings(*top, {"\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf"});
  EXPECT_EQ(top->max_bytes(), "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf");
  EXPECT_TRUE(top->max_exact());
  // Malformed text is truncated as bytes.
  auto bad = builder(column, 2);
  add_strings(*bad, {"a\x80\x80\x80\x80"});
  EXPECT_EQ(bad->max_bytes(), "a\x81");
}

TEST(StatisticsBuilderTest, RandomTruncatedBoundsStillBound) {
  std::mt19937 rng(5);
  for (const SchemaElement& column :
       {plain(Type::BYTE_ARRAY), annotated(Type::BYTE_ARRAY, LogicalType{.STRING = StringType{}})}) {
    const bool text = column.logical_type.has_value();
    for (int round = 0; round < 200; ++round) {
      std::vector<std::string> values(1 + rng() % 8);
      for (auto& v : values) {
        const size_t len = rng() % 12;
        while (v.size() < len) {
          if (text) {
            const char* chars[] = {"a", "\x7f", "\xc3\xa9", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xf0\x9f\x98\x80"};
            v += chars[rng() % 6];
          } else {
            v += static_cast<char>(rng() % 3 == 0 ? 0xff : rng());
          }
        }
      }
      const size_t limit = 1 + rng() % 6;
      auto s = builder(column, limit);
      add_strings(*s, values);
      for (const std::string& v : values) {
        EXPECT_LE(s->compare(s->min_bytes(), v), 0);
        EXPECT_GE(s->compare(s->max_bytes(), v), 0);
      }
      if (s->min_exact()) {
        EXPECT_LE(s->min_bytes().size(), limit);
      }
      if (!s->max_exact()) {
        EXPECT_LE(s->max_bytes().size(), limit);
      }
      if (text) {
        EXPECT_TRUE(valid_utf8(s->min_bytes()));
        EXPECT_TRUE(valid_utf8(s->max_bytes()));
      }
    }
  }
}

TEST(StatisticsBuilderTest, FixedLenByteArraysAreNeverTruncated) {
  auto s = builder(plain(Type::FIXED_LEN_BYTE_ARRAY, 8), 4);
  add_fixed(*s, {"abcdefgh", "zzzzzzzz"});
  expect_bounds(*s, "abcdefgh", "zzzzzzzz");
  EXPECT_TRUE(s->min_exact());
  EXPECT_TRUE(s->max_exact());
}

TEST(StatisticsBuilderTest, NoLimitKeepsEverything) {
  auto s = builder(plain(Type::BYTE_ARRAY), kNoLimit);
  const std::string long_value(1000, 'x');
  add_strings(*s, {long_value});
  expect_bounds(*s, long_value, long_value);
  EXPECT_TRUE(s->max_exact());
}

// ---- decimals ----

TEST(StatisticsBuilderTest, DecimalFixedLenByteArrayIsSigned) {
  const SchemaElement column = decimal(Type::FIXED_LEN_BYTE_ARRAY, 9, 4);
  ASSERT_EQ(order_of(column), SortOrder::kSigned);
  auto s = builder(column, 2);
  const std::string minus_one("\xff\xff\xff\xff", 4), one("\0\0\0\1", 4), minus_256("\xff\xff\xff\0", 4),
      plus_255("\0\0\0\xff", 4), big_negative("\x80\0\0\0", 4);
  add_fixed(*s, {minus_one, one, minus_256, plus_255});
  // Whole, although longer than the limit: a prefix is another number.
  expect_bounds(*s, minus_256, plus_255);
  EXPECT_TRUE(s->min_exact());
  add_fixed(*s, {big_negative});
  expect_bounds(*s, big_negative, plus_255);
  EXPECT_LT(s->compare(minus_one, one), 0);
  EXPECT_LT(s->compare(minus_256, minus_one), 0);
  EXPECT_FALSE(s->to_thrift().min);
}

TEST(StatisticsBuilderTest, DecimalByteArraySignExtends) {
  const SchemaElement column = decimal(Type::BYTE_ARRAY, 20);
  auto s = builder(column, 1);
  const std::string minus_one("\xff"), plus_255("\x00\xff", 2), minus_128("\x80"), minus_129("\xff\x7f"),
      plus_256("\x01\x00", 2), zero("");
  add_strings(*s, {minus_one, plus_255, minus_128, zero});
  expect_bounds(*s, minus_128, plus_255);
  add_strings(*s, {minus_129, plus_256});
  expect_bounds(*s, minus_129, plus_256);
  EXPECT_TRUE(s->max_exact());
  EXPECT_EQ(s->compare("\xff", "\xff\xff"), 0);                    // -1 either way
  EXPECT_EQ(s->compare(std::string("\0\1", 2), "\x01"), 0);        // 1 either way
  EXPECT_EQ(s->compare(zero, std::string("\0\0", 2)), 0);          // 0
  EXPECT_LT(s->compare("\xfe", "\xff\xff"), 0);                    // -2 < -1
  EXPECT_GT(s->compare(std::string("\x00\x80", 2), "\x7f"), 0);    // 128 > 127
  EXPECT_LT(s->compare(std::string("\x80\0", 2), "\xff\x80"), 0);  // -32768 < -128
  EXPECT_GT(s->compare("\x7f", std::string("\x80\0", 2)), 0);      // 127 > -32768
}

TEST(StatisticsBuilderTest, DecimalsMatchAReference) {
  std::mt19937_64 rng(9);
  auto encode = [](int64_t v, size_t len) {  // big-endian two's complement
    std::string out(len, '\0');
    for (size_t i = 0; i < len; ++i) out[len - 1 - i] = static_cast<char>(v >> std::min<size_t>(8 * i, 63));
    return out;
  };
  auto min_len = [](int64_t v) {
    size_t len = 1;
    while (len < 8 && (v < -(int64_t{1} << (8 * len - 1)) || v >= (int64_t{1} << (8 * len - 1)))) ++len;
    return len;
  };
  for (int round = 0; round < 100; ++round) {
    std::vector<int64_t> numbers(1 + rng() % 50);
    for (auto& v : numbers) v = static_cast<int64_t>(rng()) >> (rng() % 60);
    std::vector<std::string> variable, fixed;
    for (int64_t v : numbers) {
      variable.push_back(encode(v, min_len(v) + rng() % 3));
      fixed.push_back(encode(v, 8));
    }
    const int64_t lo = *std::min_element(numbers.begin(), numbers.end());
    const int64_t hi = *std::max_element(numbers.begin(), numbers.end());
    auto ba = builder(decimal(Type::BYTE_ARRAY, 18));
    add_strings(*ba, variable);
    EXPECT_EQ(ba->compare(ba->min_bytes(), encode(lo, 8)), 0);
    EXPECT_EQ(ba->compare(ba->max_bytes(), encode(hi, 8)), 0);
    auto flba = builder(decimal(Type::FIXED_LEN_BYTE_ARRAY, 18, 8));
    add_fixed(*flba, fixed);
    expect_bounds(*flba, encode(lo, 8), encode(hi, 8));
  }
}

// ---- unknown order ----

TEST(StatisticsBuilderTest, UnknownOrderCountsOnly) {
  SchemaElement interval = plain(Type::FIXED_LEN_BYTE_ARRAY, 12);
  interval.converted_type = ConvertedType::INTERVAL;
  ASSERT_EQ(order_of(interval), SortOrder::kUnknown);
  auto s = builder(interval);
  const std::string values(24, '\x07');
  s->add_values(values.data(), 2);
  s->add_nulls(3);
  EXPECT_FALSE(s->has_bounds());
  EXPECT_EQ(s->min_bytes(), "");
  EXPECT_EQ(s->max_bytes(), "");
  const Statistics t = s->to_thrift();
  Statistics expect;
  expect.null_count = 3;
  EXPECT_EQ(t, expect);
}

// INT96 has no TYPE_ORDER, but INT96_TIMESTAMP_ORDER: chronological. Values
// compare as instants (Julian day, then signed nanoseconds), and bounds are
// written with their nanoseconds inside the day.
TEST(StatisticsBuilderTest, Int96BoundsAreChronological) {
  auto int96 = [](int32_t day, int64_t nanos) {
    std::string out(12, '\0');
    std::memcpy(out.data(), &nanos, 8);
    std::memcpy(out.data() + 8, &day, 4);
    return out;
  };
  const std::string a = int96(-1, 5), b = int96(0, -9), c = int96(0, 0), d = int96(7, -1), e = int96(7, 3);
  auto page = builder(plain(Type::INT96));
  const std::string first = c + a + e;
  page->add_values(first.data(), 3);
  auto chunk = builder(plain(Type::INT96));
  chunk->merge(*page);
  page->reset();
  const std::string second = d + b;
  page->add_values(second.data(), 2);
  page->add_nulls(1);
  constexpr int64_t kDay = 86400LL * 1000 * 1000 * 1000;
  expect_bounds(*page, int96(-1, kDay - 9), int96(6, kDay - 1));
  chunk->merge(*page);
  expect_bounds(*chunk, a, e);
  EXPECT_LT(chunk->compare(b, c), 0);
  EXPECT_LT(chunk->compare(c, d), 0);
  EXPECT_GT(chunk->compare(d, a), 0);
  EXPECT_EQ(chunk->compare(e, e), 0);
  const Statistics t = chunk->to_thrift();
  EXPECT_EQ(t.null_count, 1);
  EXPECT_EQ(t.min_value, a);
  EXPECT_FALSE(t.min.has_value());  // the deprecated fields are signed numbers
  EXPECT_FALSE(t.nan_count.has_value());

  // Instants past the 32-bit day range clamp to its ends, which still
  // bound every literal a filter can bind.
  auto far = builder(plain(Type::INT96));
  const std::string edges = int96(INT32_MAX, 2 * kDay) + int96(INT32_MIN, -kDay) + c;
  far->add_values(edges.data(), 3);
  expect_bounds(*far, int96(INT32_MIN, 0), int96(INT32_MAX, kDay - 1));
}

TEST(StatisticsBuilderTest, FloatsOfUnknownOrderStillCountNans) {
  // An annotation this version drops leaves the column's order unknown.
  const SchemaElement column = annotated(Type::DOUBLE, LogicalType{.STRING = StringType{}});
  ASSERT_EQ(order_of(column), SortOrder::kUnknown);
  auto s = builder(column);
  add<double>(*s, {1.0, std::nan(""), 2.0});
  EXPECT_FALSE(s->has_bounds());
  EXPECT_EQ(s->nan_count(), 1);
  const Statistics t = s->to_thrift();
  EXPECT_EQ(t.nan_count, 1);
  EXPECT_FALSE(t.min_value);
}

// ---- merge, reset, misuse ----

TEST(StatisticsBuilderTest, MergeFoldsPagesIntoTheChunk) {
  auto chunk = builder(plain(Type::DOUBLE));
  auto page = builder(plain(Type::DOUBLE));
  add<double>(*page, {3, std::nan("")});
  page->add_nulls(2);
  chunk->merge(*page);
  page->reset();
  EXPECT_FALSE(page->has_bounds());
  EXPECT_EQ(page->null_count(), 0);
  EXPECT_EQ(page->nan_count(), 0);
  chunk->merge(*page);  // an empty page changes nothing
  add<double>(*page, {-1, 2});
  page->add_nulls(1);
  chunk->merge(*page);
  expect_bounds(*chunk, bytes<double>(-1), bytes<double>(3));
  EXPECT_EQ(chunk->null_count(), 3);
  EXPECT_EQ(chunk->nan_count(), 1);
}

TEST(StatisticsBuilderTest, MergeUsesUntruncatedBounds) {
  auto chunk = builder(plain(Type::BYTE_ARRAY), 4);
  auto page = builder(plain(Type::BYTE_ARRAY), 4);
  add_strings(*page, {"abcdefgh"});
  chunk->merge(*page);
  page->reset();
  add_strings(*page, {"abcd", "abcdzz"});
  EXPECT_EQ(page->max_bytes(), "abce");
  chunk->merge(*page);
  // The exact "abcd" of the second page is the chunk's min; the max is
  // "abcdzz", truncated once from its full value.
  EXPECT_EQ(chunk->min_bytes(), "abcd");
  EXPECT_TRUE(chunk->min_exact());
  EXPECT_EQ(chunk->max_bytes(), "abce");
  EXPECT_FALSE(chunk->max_exact());
}

TEST(StatisticsBuilderTest, MergeAcrossKindsIsAnError) {
  auto ints = builder(plain(Type::INT32));
  auto strings = builder(plain(Type::BYTE_ARRAY));
  SchemaElement interval = plain(Type::FIXED_LEN_BYTE_ARRAY, 12);
  interval.converted_type = ConvertedType::INTERVAL;
  auto unordered = builder(interval);
  EXPECT_THROW(ints->merge(*strings), Error);
  EXPECT_THROW(strings->merge(*ints), Error);
  EXPECT_THROW(unordered->merge(*ints), Error);
}

TEST(StatisticsBuilderTest, WrongValueFormIsAnError) {
  auto ints = builder(plain(Type::INT32));
  const int32_t offsets[2] = {0, 1};
  EXPECT_THROW(ints->add_byte_arrays(offsets, reinterpret_cast<const uint8_t*>("x"), 1), Error);
  auto strings = builder(plain(Type::BYTE_ARRAY));
  EXPECT_THROW(strings->add_values("x", 1), Error);
}

TEST(StatisticsBuilderTest, ResetForgetsEverything) {
  auto s = builder(plain(Type::BYTE_ARRAY));
  add_strings(*s, {"x"});
  s->add_nulls(4);
  s->reset();
  EXPECT_FALSE(s->has_bounds());
  Statistics expect;
  expect.null_count = 0;
  EXPECT_EQ(s->to_thrift(), expect);
  add_strings(*s, {"b", "a"});
  expect_bounds(*s, "a", "b");
}

}  // namespace
}  // namespace parq

namespace parq {
namespace {

// IEEE 754 total order: zeros keep their sign in the bounds, and a run of
// only NaNs is bounded by its least and greatest NaN (a negative NaN below a
// positive one; payloads ordered), merged pages included.
TEST(StatisticsBuilderTotalOrder, ZerosKeepTheirSignAndNanOnlyRunsHaveNanBounds) {
  const Schema schema = Schema::from_elements({testing::root(1), testing::leaf("v", testing::kRequired, Type::DOUBLE)});
  auto make = [&] { return StatisticsBuilder::make(schema.column(0), 64, true); };
  auto total = make();
  add(*total, std::vector<double>{0.0, 3.0});
  EXPECT_EQ(total->min_bytes(), bytes(0.0));  // +0: no -0 was seen
  add(*total, std::vector<double>{-0.0});
  EXPECT_EQ(total->min_bytes(), bytes(-0.0));
  EXPECT_EQ(total->max_bytes(), bytes(3.0));
  auto negative = make();
  add(*negative, std::vector<double>{-2.0, -0.0});
  EXPECT_EQ(negative->max_bytes(), bytes(-0.0));  // the type's order would write +0

  uint64_t positive_nan = 0x7ff8000000000001, negative_nan = 0xfff8000000000000, quiet = 0x7ff8000000000000;
  double values[3];
  std::memcpy(&values[0], &positive_nan, 8);
  std::memcpy(&values[1], &negative_nan, 8);
  std::memcpy(&values[2], &quiet, 8);
  auto page1 = make(), page2 = make(), chunk = make();
  page1->add_values(values, 2);
  page2->add_values(values + 2, 1);
  chunk->merge(*page1);
  chunk->merge(*page2);
  ASSERT_TRUE(chunk->has_bounds());
  EXPECT_EQ(chunk->min_bytes(), bytes(negative_nan));
  EXPECT_EQ(chunk->max_bytes(), bytes(positive_nan));
  EXPECT_EQ(chunk->nan_count(), 3);
  const format::Statistics s = chunk->to_thrift();
  EXPECT_FALSE(s.min.has_value());  // no legacy bounds under total order
  // The type's order writes no bounds for a NaN-only run.
  auto typed = StatisticsBuilder::make(schema.column(0), 64, false);
  typed->add_values(values, 3);
  EXPECT_FALSE(typed->has_bounds());
}

}  // namespace
}  // namespace parq
