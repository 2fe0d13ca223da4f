// Tests of integers, dates, times, timestamps (INT96 included), UUIDs and
// intervals as canonical JSON text (parq/text/value_text.h). Expected texts of
// extreme values were computed independently with Python's exact integers
// and a naive year-by-year calendar walk.
#include "parq/text/value_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace parq::text {
namespace {

constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();

std::string date(int32_t days) {
  std::string out;
  append_date(out, days);
  return out;
}

std::string time_text(int64_t v, TimeUnit unit) {
  std::string out;
  append_time(out, v, unit);
  return out;
}

std::string timestamp(int64_t v, TimeUnit unit, bool utc) {
  std::string out;
  append_timestamp(out, v, unit, utc);
  return out;
}

std::string int96(int64_t nanos_of_day, int32_t julian_day) {
  uint8_t bytes[12];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(nanos_of_day) >> (8 * i));
  for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<uint8_t>(static_cast<uint32_t>(julian_day) >> (8 * i));
  std::string out;
  append_int96_timestamp(out, bytes);
  return out;
}

// ---------------------------------------------------------------------------
// Integers

TEST(ValueTextInteger, SignedAndUnsigned) {
  std::string out;
  append_integer(out, 0);
  out += ',';
  append_integer(out, -42);
  out += ',';
  append_integer(out, kMin64);
  out += ',';
  append_integer(out, kMax64);
  out += ',';
  append_unsigned(out, 4294967295u);
  out += ',';
  append_unsigned(out, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(out, "0,-42,-9223372036854775808,9223372036854775807,4294967295,18446744073709551615");
}

// ---------------------------------------------------------------------------
// Dates

TEST(ValueTextDate, CommonDates) {
  EXPECT_EQ(date(0), "\"1970-01-01\"");
  EXPECT_EQ(date(-1), "\"1969-12-31\"");
  EXPECT_EQ(date(11016), "\"2000-02-29\"");
  EXPECT_EQ(date(-25508), "\"1900-03-01\"");
  EXPECT_EQ(date(-135081), "\"1600-02-29\"");
  EXPECT_EQ(date(14304), "\"2009-03-01\"");
}

TEST(ValueTextDate, FourDigitYearBoundaries) {
  EXPECT_EQ(date(-719162), "\"0001-01-01\"");
  EXPECT_EQ(date(2932896), "\"9999-12-31\"");
  EXPECT_EQ(date(2932897), "\"+10000-01-01\"");
  EXPECT_EQ(date(-719163), "\"+0000-12-31\"");
  EXPECT_EQ(date(-719469), "\"+0000-02-29\"");  // year 0 is a leap year
  EXPECT_EQ(date(-719528), "\"+0000-01-01\"");
  EXPECT_EQ(date(-719529), "\"-0001-12-31\"");
  EXPECT_EQ(date(-719893), "\"-0001-01-01\"");
}

TEST(ValueTextDate, Int32Extremes) {
  EXPECT_EQ(date(std::numeric_limits<int32_t>::min()), "\"-5877641-06-23\"");
  EXPECT_EQ(date(std::numeric_limits<int32_t>::max()), "\"+5881580-07-11\"");
}

// Walks the calendar one day at a time from 1970-01-01 in both directions and
// checks every date against the walk.
TEST(ValueTextDate, MatchesDayByDayWalk) {
  auto leap = [](int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); };
  auto month_days = [&](int64_t y, int m) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return kDays[m - 1] + (m == 2 && leap(y) ? 1 : 0);
  };
  auto format = [](int64_t y, int m, int d) {
    char buf[64];
    if (y >= 1 && y <= 9999) {
      std::snprintf(buf, sizeof buf, "\"%04lld-%02d-%02d\"", static_cast<long long>(y), m, d);
    } else {
      std::snprintf(buf, sizeof buf, "\"%c%04lld-%02d-%02d\"", y < 0 ? '-' : '+',
                    static_cast<long long>(y < 0 ? -y : y), m, d);
    }
    return std::string(buf);
  };
  int64_t y = 1970;
  int m = 1, d = 1;
  for (int32_t days = 0; days <= 3'000'000; ++days) {  // past year 10000
    ASSERT_EQ(date(days), format(y, m, d)) << days;
    if (++d > month_days(y, m)) {
      d = 1;
      if (++m > 12) {
        m = 1;
        ++y;
      }
    }
  }
  y = 1970, m = 1, d = 1;
  for (int32_t days = 0; days >= -1'000'000; --days) {  // past year -700
    ASSERT_EQ(date(days), format(y, m, d)) << days;
    if (--d < 1) {
      if (--m < 1) {
        m = 12;
        --y;
      }
      d = month_days(y, m);
    }
  }
}

// ---------------------------------------------------------------------------
// Times

TEST(ValueTextTime, EachUnit) {
  EXPECT_EQ(time_text(0, TimeUnit::kMillis), "\"00:00:00.000\"");
  EXPECT_EQ(time_text(0, TimeUnit::kMicros), "\"00:00:00.000000\"");
  EXPECT_EQ(time_text(0, TimeUnit::kNanos), "\"00:00:00.000000000\"");
  EXPECT_EQ(time_text(3723004, TimeUnit::kMillis), "\"01:02:03.004\"");
  EXPECT_EQ(time_text(3723000005, TimeUnit::kMicros), "\"01:02:03.000005\"");
  EXPECT_EQ(time_text(3723000000006, TimeUnit::kNanos), "\"01:02:03.000000006\"");
  EXPECT_EQ(time_text(86399999, TimeUnit::kMillis), "\"23:59:59.999\"");
  EXPECT_EQ(time_text(86399999999, TimeUnit::kMicros), "\"23:59:59.999999\"");
  EXPECT_EQ(time_text(86399999999999, TimeUnit::kNanos), "\"23:59:59.999999999\"");
}

TEST(ValueTextTime, OutOfDayValuesAreWrittenExactly) {
  EXPECT_EQ(time_text(86400000, TimeUnit::kMillis), "\"24:00:00.000\"");
  EXPECT_EQ(time_text(-1, TimeUnit::kMillis), "\"-00:00:00.001\"");
  EXPECT_EQ(time_text(360000000000, TimeUnit::kMicros), "\"100:00:00.000000\"");
  EXPECT_EQ(time_text(kMax64, TimeUnit::kNanos), "\"2562047:47:16.854775807\"");
  EXPECT_EQ(time_text(kMin64, TimeUnit::kNanos), "\"-2562047:47:16.854775808\"");
}

TEST(ValueTextTime, UnitOfFormatTimeUnit) {
  format::TimeUnit unit;
  EXPECT_FALSE(time_unit_of(unit).has_value());
  unit.MILLIS = format::MilliSeconds{};
  EXPECT_EQ(time_unit_of(unit), TimeUnit::kMillis);
  unit = {};
  unit.MICROS = format::MicroSeconds{};
  EXPECT_EQ(time_unit_of(unit), TimeUnit::kMicros);
  unit = {};
  unit.NANOS = format::NanoSeconds{};
  EXPECT_EQ(time_unit_of(unit), TimeUnit::kNanos);
}

// ---------------------------------------------------------------------------
// Timestamps

TEST(ValueTextTimestamp, EpochInEachUnit) {
  EXPECT_EQ(timestamp(0, TimeUnit::kMillis, true), "\"1970-01-01T00:00:00.000Z\"");
  EXPECT_EQ(timestamp(0, TimeUnit::kMicros, true), "\"1970-01-01T00:00:00.000000Z\"");
  EXPECT_EQ(timestamp(0, TimeUnit::kNanos, true), "\"1970-01-01T00:00:00.000000000Z\"");
  EXPECT_EQ(timestamp(0, TimeUnit::kMillis, false), "\"1970-01-01T00:00:00.000\"");
  EXPECT_EQ(timestamp(0, TimeUnit::kMicros, false), "\"1970-01-01T00:00:00.000000\"");
  EXPECT_EQ(timestamp(0, TimeUnit::kNanos, false), "\"1970-01-01T00:00:00.000000000\"");
}

TEST(ValueTextTimestamp, BeforeEpochFloors) {
  EXPECT_EQ(timestamp(-1, TimeUnit::kMillis, false), "\"1969-12-31T23:59:59.999\"");
  EXPECT_EQ(timestamp(-1, TimeUnit::kMicros, false), "\"1969-12-31T23:59:59.999999\"");
  EXPECT_EQ(timestamp(-1, TimeUnit::kNanos, false), "\"1969-12-31T23:59:59.999999999\"");
  EXPECT_EQ(timestamp(-86400000, TimeUnit::kMillis, true), "\"1969-12-31T00:00:00.000Z\"");
  EXPECT_EQ(timestamp(-86400001, TimeUnit::kMillis, true), "\"1969-12-30T23:59:59.999Z\"");
}

TEST(ValueTextTimestamp, Ordinary) {
  EXPECT_EQ(timestamp(1704141296123456, TimeUnit::kMicros, true), "\"2024-01-01T20:34:56.123456Z\"");
  EXPECT_EQ(timestamp(1704141296123, TimeUnit::kMillis, false), "\"2024-01-01T20:34:56.123\"");
  EXPECT_EQ(timestamp(1704141296123456789, TimeUnit::kNanos, true), "\"2024-01-01T20:34:56.123456789Z\"");
  // nested_structs.rust.parquet.jsonl holds a TIMESTAMP(MICROS, UTC) in year 52951.
  EXPECT_EQ(timestamp(1608822900000000000, TimeUnit::kMicros, true), "\"+52951-07-27T10:00:00.000000Z\"");
}

TEST(ValueTextTimestamp, Int64ExtremesInEveryUnit) {
  EXPECT_EQ(timestamp(kMin64, TimeUnit::kMillis, true), "\"-292275055-05-16T16:47:04.192Z\"");
  EXPECT_EQ(timestamp(kMax64, TimeUnit::kMillis, true), "\"+292278994-08-17T07:12:55.807Z\"");
  EXPECT_EQ(timestamp(kMin64, TimeUnit::kMicros, true), "\"-290308-12-21T19:59:05.224192Z\"");
  EXPECT_EQ(timestamp(kMax64, TimeUnit::kMicros, true), "\"+294247-01-10T04:00:54.775807Z\"");
  EXPECT_EQ(timestamp(kMin64, TimeUnit::kNanos, true), "\"1677-09-21T00:12:43.145224192Z\"");
  EXPECT_EQ(timestamp(kMax64, TimeUnit::kNanos, true), "\"2262-04-11T23:47:16.854775807Z\"");
  EXPECT_EQ(timestamp(kMin64, TimeUnit::kNanos, false), "\"1677-09-21T00:12:43.145224192\"");
}

// ---------------------------------------------------------------------------
// INT96

TEST(ValueTextInt96, AlltypesPlainBytes) {
  // The dictionary of alltypes_plain.parquet's timestamp_col (file offsets
  // 944 and 956) and the golden texts of the same rows.
  const uint8_t midnight[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0x6c, 0x75, 0x25, 0x00};
  const uint8_t one_minute[12] = {0x00, 0x58, 0x47, 0xf8, 0x0d, 0, 0, 0, 0x6c, 0x75, 0x25, 0x00};
  std::string out;
  append_int96_timestamp(out, midnight);
  EXPECT_EQ(out, "\"2009-03-01T00:00:00.000000000\"");
  out.clear();
  append_int96_timestamp(out, one_minute);
  EXPECT_EQ(out, "\"2009-03-01T00:01:00.000000000\"");
  EXPECT_EQ(int96(0, 2454923), "\"2009-04-01T00:00:00.000000000\"");
  EXPECT_EQ(int96(0, 2454864), "\"2009-02-01T00:00:00.000000000\"");
  EXPECT_EQ(int96(60000000000, 2454833), "\"2009-01-01T00:01:00.000000000\"");
}

TEST(ValueTextInt96, SparkValuesFromReadme) {
  // int96_from_spark.parquet's expected microseconds since the epoch, as the
  // Julian day and nanoseconds of the day Spark stores for them.
  EXPECT_EQ(int96(74096123456000, 2460311), "\"2024-01-01T20:34:56.123456000\"");  // 1704141296123456
  EXPECT_EQ(int96(3600000000000, 2460311), "\"2024-01-01T01:00:00.000000000\"");   // 1704070800000000
  EXPECT_EQ(int96(10800000000000, 5373484), "\"9999-12-31T03:00:00.000000000\"");  // 253402225200000000
  EXPECT_EQ(int96(82800000000000, 2460675), "\"2024-12-30T23:00:00.000000000\"");  // 1735599600000000
  EXPECT_EQ(int96(82800000000000, 107641749),
            "\"+290000-12-30T23:00:00.000000000\"");  // 9089380393200000000
}

TEST(ValueTextInt96, NanosBeyondOneDayCarryExactly) {
  EXPECT_EQ(int96(-1, 2440588), "\"1969-12-31T23:59:59.999999999\"");
  EXPECT_EQ(int96(86400000000000, 2440588), "\"1970-01-02T00:00:00.000000000\"");
  EXPECT_EQ(int96(259200000000005, 2440588), "\"1970-01-04T00:00:00.000000005\"");
  EXPECT_EQ(int96(0, 0), "\"-4713-11-24T00:00:00.000000000\"");
  EXPECT_EQ(int96(0, 1721426), "\"0001-01-01T00:00:00.000000000\"");
  EXPECT_EQ(int96(0, 1721425), "\"+0000-12-31T00:00:00.000000000\"");
}

TEST(ValueTextInt96, ExtremesDoNotWrap) {
  constexpr int32_t kMinDay = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMaxDay = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(int96(kMax64, kMaxDay), "\"+5875190-09-12T23:47:16.854775807\"");
  EXPECT_EQ(int96(kMin64, kMinDay), "\"-5884615-02-03T00:12:43.145224192\"");
  EXPECT_EQ(int96(kMin64, kMaxDay), "\"+5874606-02-23T00:12:43.145224192\"");
  EXPECT_EQ(int96(kMax64, kMinDay), "\"-5884031-08-24T23:47:16.854775807\"");
}

// ---------------------------------------------------------------------------
// UUID and INTERVAL

TEST(ValueTextUuid, LowercaseGroups) {
  const uint8_t bytes[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                             0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF};
  std::string out;
  append_uuid(out, bytes);
  EXPECT_EQ(out, "\"00112233-4455-6677-8899-aabbccddeeff\"");
}

TEST(ValueTextInterval, ThreeLittleEndianUnsigned) {
  const uint8_t bytes[12] = {1, 0, 0, 0, 0x02, 0x01, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  std::string out;
  append_interval(out, bytes);
  EXPECT_EQ(out, "{\"months\":1,\"days\":258,\"millis\":4294967295}");
}

}  // namespace
}  // namespace parq::text
