// Tests of the PLAIN value dispatcher (value_format_of / append_plain_value in
// parq/text/value_text.h): every row of FORMAT.md's table that applies to a
// single value, the fallbacks to the physical type, and corrupt lengths.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "parq/error.h"
#include "parq/text/value_text.h"

namespace parq::text {
namespace {

using format::ConvertedType;
using format::LogicalType;
using format::Type;

template <typename T>
std::string le(T v) {
  std::string s(sizeof(T), '\0');
  for (size_t i = 0; i < sizeof(T); ++i) {
    s[i] = static_cast<char>(static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v)) >> (8 * i));
  }
  return s;
}

ValueType type_of(Type physical, LogicalType logical = {}, int32_t type_length = 0) {
  ValueType t;
  t.physical = physical;
  t.logical = logical;
  t.type_length = type_length;
  return t;
}

std::string render(const ValueType& type, std::string_view plain) {
  std::string out;
  append_plain_value(out, type, plain);
  return out;
}

LogicalType integer(int8_t bits, bool is_signed) {
  LogicalType l;
  l.INTEGER = format::IntType{bits, is_signed};
  return l;
}

LogicalType decimal(int32_t scale, int32_t precision) {
  LogicalType l;
  l.DECIMAL = format::DecimalType{scale, precision};
  return l;
}

format::TimeUnit unit_of(TimeUnit unit) {
  format::TimeUnit u;
  switch (unit) {
    case TimeUnit::kMillis:
      u.MILLIS = format::MilliSeconds{};
      break;
    case TimeUnit::kMicros:
      u.MICROS = format::MicroSeconds{};
      break;
    case TimeUnit::kNanos:
      u.NANOS = format::NanoSeconds{};
      break;
  }
  return u;
}

LogicalType time_type(TimeUnit unit) {
  LogicalType l;
  l.TIME = format::TimeType{true, unit_of(unit)};
  return l;
}

LogicalType timestamp_type(TimeUnit unit, bool utc) {
  LogicalType l;
  l.TIMESTAMP = format::TimestampType{utc, unit_of(unit)};
  return l;
}

template <typename Member>
LogicalType with(std::optional<Member> LogicalType::*member) {
  LogicalType l;
  l.*member = Member{};
  return l;
}

// ---------------------------------------------------------------------------

TEST(PlainValueText, Boolean) {
  const ValueType t = type_of(Type::BOOLEAN);
  EXPECT_EQ(render(t, std::string(1, '\x01')), "true");
  EXPECT_EQ(render(t, std::string(1, '\x00')), "false");
  EXPECT_EQ(render(t, std::string(1, '\x03')), "true");
  EXPECT_EQ(render(t, std::string(1, '\x02')), "false");  // bit 0 only, as PLAIN decodes it
  EXPECT_THROW(render(t, ""), Error);
  EXPECT_THROW(render(t, "ab"), Error);
}

TEST(PlainValueText, PlainIntegers) {
  EXPECT_EQ(render(type_of(Type::INT32), le<int32_t>(-5)), "-5");
  EXPECT_EQ(render(type_of(Type::INT32), le<int32_t>(std::numeric_limits<int32_t>::min())), "-2147483648");
  EXPECT_EQ(render(type_of(Type::INT64), le<int64_t>(std::numeric_limits<int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(render(type_of(Type::INT64), le<int64_t>(293650000000)), "293650000000");
}

TEST(PlainValueText, IntegerLogicalTypes) {
  EXPECT_EQ(render(type_of(Type::INT32, integer(8, true)), le<int32_t>(-128)), "-128");
  EXPECT_EQ(render(type_of(Type::INT32, integer(16, true)), le<int32_t>(-1)), "-1");
  EXPECT_EQ(render(type_of(Type::INT32, integer(32, true)), le<int32_t>(-1)), "-1");
  EXPECT_EQ(render(type_of(Type::INT32, integer(8, false)), le<int32_t>(255)), "255");
  EXPECT_EQ(render(type_of(Type::INT32, integer(16, false)), le<int32_t>(65535)), "65535");
  EXPECT_EQ(render(type_of(Type::INT32, integer(32, false)), le<int32_t>(-1)), "4294967295");
  EXPECT_EQ(render(type_of(Type::INT64, integer(64, true)), le<int64_t>(-1)), "-1");
  EXPECT_EQ(render(type_of(Type::INT64, integer(64, false)), le<int64_t>(-1)), "18446744073709551615");
}

TEST(PlainValueText, Decimals) {
  EXPECT_EQ(render(type_of(Type::INT32, decimal(2, 4)), le<int32_t>(100)), "\"1.00\"");
  EXPECT_EQ(render(type_of(Type::INT32, decimal(2, 9)), le<int32_t>(-1230)), "\"-12.30\"");
  EXPECT_EQ(render(type_of(Type::INT64, decimal(2, 10)), le<int64_t>(300)), "\"3.00\"");
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, decimal(2, 4)), "\x64"), "\"1.00\"");
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, decimal(0, 4)), "\xFF\x7F"), "\"-129\"");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, decimal(2, 25), 11), std::string(10, '\0') + "\x64"),
            "\"1.00\"");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, decimal(0, 38), 16), std::string(16, '\xFF')), "\"-1\"");
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, decimal(2, 4)), ""), "\"0.00\"");  // no bytes: zero
}

TEST(PlainValueText, DatesAndTimes) {
  LogicalType date;
  date.DATE = format::DateType{};
  EXPECT_EQ(render(type_of(Type::INT32, date), le<int32_t>(14304)), "\"2009-03-01\"");
  EXPECT_EQ(render(type_of(Type::INT32, date), le<int32_t>(-719893)), "\"-0001-01-01\"");
  EXPECT_EQ(render(type_of(Type::INT32, time_type(TimeUnit::kMillis)), le<int32_t>(3723004)), "\"01:02:03.004\"");
  EXPECT_EQ(render(type_of(Type::INT64, time_type(TimeUnit::kMicros)), le<int64_t>(3723000005)), "\"01:02:03.000005\"");
  EXPECT_EQ(render(type_of(Type::INT64, time_type(TimeUnit::kNanos)), le<int64_t>(1)), "\"00:00:00.000000001\"");
}

TEST(PlainValueText, Timestamps) {
  const int64_t micros = 1704141296123456;
  EXPECT_EQ(render(type_of(Type::INT64, timestamp_type(TimeUnit::kMicros, true)), le(micros)),
            "\"2024-01-01T20:34:56.123456Z\"");
  EXPECT_EQ(render(type_of(Type::INT64, timestamp_type(TimeUnit::kMicros, false)), le(micros)),
            "\"2024-01-01T20:34:56.123456\"");
  EXPECT_EQ(render(type_of(Type::INT64, timestamp_type(TimeUnit::kMillis, true)), le<int64_t>(micros / 1000)),
            "\"2024-01-01T20:34:56.123Z\"");
  EXPECT_EQ(render(type_of(Type::INT64, timestamp_type(TimeUnit::kNanos, false)), le<int64_t>(micros * 1000 + 789)),
            "\"2024-01-01T20:34:56.123456789\"");
  EXPECT_EQ(render(type_of(Type::INT64, timestamp_type(TimeUnit::kMillis, true)),
                   le<int64_t>(std::numeric_limits<int64_t>::min())),
            "\"-292275055-05-16T16:47:04.192Z\"");
}

TEST(PlainValueText, Int96) {
  const std::string bytes("\x00\x58\x47\xf8\x0d\x00\x00\x00\x6c\x75\x25\x00", 12);
  EXPECT_EQ(render(type_of(Type::INT96), bytes), "\"2009-03-01T00:01:00.000000000\"");
  EXPECT_THROW(render(type_of(Type::INT96), bytes.substr(0, 8)), Error);
}

TEST(PlainValueText, Floats) {
  EXPECT_EQ(render(type_of(Type::FLOAT), le(std::bit_cast<uint32_t>(1.1f))), "1.100000023841858");
  EXPECT_EQ(render(type_of(Type::FLOAT), le(std::bit_cast<uint32_t>(-0.0f))), "-0.0");
  EXPECT_EQ(render(type_of(Type::FLOAT), le(std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN()))),
            "\"NaN\"");
  EXPECT_EQ(render(type_of(Type::FLOAT), le(std::bit_cast<uint32_t>(-std::numeric_limits<float>::infinity()))),
            "\"-Infinity\"");
  EXPECT_EQ(render(type_of(Type::DOUBLE), le(std::bit_cast<uint64_t>(10.1))), "10.1");
  EXPECT_EQ(render(type_of(Type::DOUBLE), le(std::bit_cast<uint64_t>(1e-5))), "1e-5");
  // nan_in_stats.parquet's max statistic.
  EXPECT_EQ(render(type_of(Type::DOUBLE), le<uint64_t>(0x7FF8000000000000ULL)), "\"NaN\"");
  EXPECT_THROW(render(type_of(Type::DOUBLE), le(std::bit_cast<uint32_t>(1.5f))), Error);
}

TEST(PlainValueText, Float16) {
  const ValueType t = type_of(Type::FIXED_LEN_BYTE_ARRAY, with(&LogicalType::FLOAT16), 2);
  EXPECT_EQ(render(t, le<uint16_t>(0x3C00)), "1");
  EXPECT_EQ(render(t, le<uint16_t>(0xC000)), "-2");
  EXPECT_EQ(render(t, le<uint16_t>(0x8000)), "-0.0");
  EXPECT_EQ(render(t, le<uint16_t>(0x7E00)), "\"NaN\"");
  EXPECT_EQ(render(t, le<uint16_t>(0x7C00)), "\"Infinity\"");
  EXPECT_EQ(render(t, le<uint16_t>(0x4927)), "10.3046875");
  EXPECT_THROW(render(t, "\x00"), Error);
}

TEST(PlainValueText, TextTypesAreJsonStrings) {
  for (const LogicalType& l : {with(&LogicalType::STRING), with(&LogicalType::ENUM), with(&LogicalType::JSON)}) {
    EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, l), "known string 1"), "\"known string 1\"");
    EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, l), "a\"\n\xFF"), "\"a\\\"\\n\xEF\xBF\xBD\"");
    EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, l), ""), "\"\"");
  }
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, with(&LogicalType::STRING), 3), "abc"), "\"abc\"");
}

TEST(PlainValueText, OtherBinaryIsBase64) {
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY), "03/01/09"), "\"MDMvMDEvMDk=\"");
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY), ""), "\"\"");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, {}, 5), "03795"), "\"MDM3OTU=\"");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, {}, 0), ""), "\"\"");
  LogicalType geometry;
  geometry.GEOMETRY = format::GeometryType{};
  LogicalType geography;
  geography.GEOGRAPHY = format::GeographyType{};
  LogicalType variant;
  variant.VARIANT = format::VariantType{};
  for (const LogicalType& l :
       {with(&LogicalType::BSON), geometry, geography, variant, with(&LogicalType::UNKNOWN), LogicalType{}}) {
    EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, l), "foobar"), "\"Zm9vYmFy\"");
  }
}

TEST(PlainValueText, Uuid) {
  const ValueType t = type_of(Type::FIXED_LEN_BYTE_ARRAY, with(&LogicalType::UUID), 16);
  const std::string bytes("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16);
  EXPECT_EQ(render(t, bytes), "\"00112233-4455-6677-8899-aabbccddeeff\"");
  EXPECT_THROW(render(t, bytes.substr(1)), Error);
}

TEST(PlainValueText, Interval) {
  ValueType t = type_of(Type::FIXED_LEN_BYTE_ARRAY, {}, 12);
  t.converted = ConvertedType::INTERVAL;
  EXPECT_EQ(render(t, le<uint32_t>(14) + le<uint32_t>(3) + le<uint32_t>(4294967295u)),
            "{\"months\":14,\"days\":3,\"millis\":4294967295}");
  EXPECT_THROW(render(t, std::string(11, '\0')), Error);
}

TEST(PlainValueText, MisplacedLogicalTypesReadAsPhysical) {
  LogicalType date;
  date.DATE = format::DateType{};
  EXPECT_EQ(render(type_of(Type::INT64, date), le<int64_t>(5)), "5");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, with(&LogicalType::UUID), 4), "abcd"), "\"YWJjZA==\"");
  EXPECT_EQ(render(type_of(Type::BYTE_ARRAY, with(&LogicalType::UUID)), "abcd"), "\"YWJjZA==\"");
  EXPECT_EQ(render(type_of(Type::FIXED_LEN_BYTE_ARRAY, with(&LogicalType::FLOAT16), 4), "abcd"), "\"YWJjZA==\"");
  ValueType interval = type_of(Type::BYTE_ARRAY);
  interval.converted = ConvertedType::INTERVAL;
  EXPECT_EQ(render(interval, "abcd"), "\"YWJjZA==\"");
  EXPECT_EQ(render(type_of(Type::INT32, with(&LogicalType::STRING)), le<int32_t>(7)), "7");
  EXPECT_EQ(render(type_of(Type::BOOLEAN, integer(8, true)), "\x01"), "true");
  // A TIME or TIMESTAMP whose unit this version does not know.
  LogicalType unknown_unit;
  unknown_unit.TIMESTAMP = format::TimestampType{true, format::TimeUnit{}};
  EXPECT_EQ(render(type_of(Type::INT64, unknown_unit), le<int64_t>(42)), "42");
  unknown_unit = {};
  unknown_unit.TIME = format::TimeType{true, format::TimeUnit{}};
  EXPECT_EQ(render(type_of(Type::INT32, unknown_unit), le<int32_t>(42)), "42");
}

TEST(PlainValueText, WrongLengthsThrowWithClearMessages) {
  try {
    render(type_of(Type::INT32), "abc");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "PLAIN INT32 value must be 4 bytes, got 3");
  }
  try {
    render(type_of(Type::FIXED_LEN_BYTE_ARRAY, {}, 5), "abcdef");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "PLAIN FIXED_LEN_BYTE_ARRAY value must be 5 bytes, got 6");
  }
  EXPECT_THROW(render(type_of(Type::INT64), le<int32_t>(1)), Error);
  EXPECT_THROW(render(type_of(Type::INT32, decimal(2, 4)), le<int64_t>(1)), Error);
  EXPECT_THROW(render(type_of(Type::INT64, timestamp_type(TimeUnit::kNanos, true)), ""), Error);
  EXPECT_THROW(render(type_of(Type::FLOAT), ""), Error);
}

TEST(PlainValueText, CorruptTypesThrow) {
  EXPECT_THROW(value_format_of(type_of(static_cast<Type>(42))), Error);
  EXPECT_THROW(value_format_of(type_of(Type::FIXED_LEN_BYTE_ARRAY, {}, -1)), Error);
  EXPECT_THROW(render(type_of(Type::INT32, decimal(kMaxDecimalScale + 1, 9)), le<int32_t>(1)), Error);
}

TEST(PlainValueText, FormatIsResolvedOnce) {
  const ValueFormat f = value_format_of(type_of(Type::INT64, timestamp_type(TimeUnit::kNanos, true)));
  EXPECT_EQ(f.kind, ValueKind::kTimestamp64);
  EXPECT_EQ(f.unit, TimeUnit::kNanos);
  EXPECT_TRUE(f.adjusted_to_utc);
  EXPECT_EQ(f.width, 8);
  const ValueFormat d = value_format_of(type_of(Type::FIXED_LEN_BYTE_ARRAY, decimal(3, 20), 9));
  EXPECT_EQ(d.kind, ValueKind::kDecimalBytes);
  EXPECT_EQ(d.scale, 3);
  EXPECT_EQ(d.width, 9);
  EXPECT_EQ(value_format_of(type_of(Type::BYTE_ARRAY)).width, -1);
  EXPECT_EQ(value_format_of(type_of(Type::INT96)).kind, ValueKind::kInt96Timestamp);
  std::string out;
  append_plain_value(out, f, le<int64_t>(0));
  out += ',';
  append_plain_value(out, d, std::string(8, '\0') + "\x01");
  EXPECT_EQ(out, "\"1970-01-01T00:00:00.000000000Z\",\"0.001\"");
}

TEST(PlainValueText, HandMadeFormatCannotOverread) {
  ValueFormat f;
  f.kind = ValueKind::kUuid;
  f.physical = Type::BYTE_ARRAY;
  f.width = -1;
  std::string out;
  EXPECT_THROW(append_plain_value(out, f, "short"), Error);
  f.kind = ValueKind::kInt64;
  EXPECT_THROW(append_plain_value(out, f, "four"), Error);
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace parq::text
