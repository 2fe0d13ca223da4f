// Integers, dates, times, timestamps, UUIDs and intervals as canonical JSON
// text (FORMAT.md); see parq/text/value_text.h.
#include "parq/text/value_text.h"

#include <charconv>
#include <cstring>
#include <type_traits>

namespace parq::text {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
// Julian day number of 1970-01-01.
constexpr int64_t kJulianDayOfEpoch = 2440588;

struct CivilDate {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

// Proleptic Gregorian date of a day count, after Howard Hinnant's
// civil_from_days: shift the epoch to 0000-03-01 so that the leap day ends
// each year, then split into 400-year eras (146097 days each, the Gregorian
// cycle) where all arithmetic is on non-negative numbers.
CivilDate civil_from_days(int64_t days_since_epoch) {
  constexpr int64_t kDaysPerEra = 146097;
  constexpr int64_t kDaysFromMarch0000ToEpoch = 719468;
  const int64_t z = days_since_epoch + kDaysFromMarch0000ToEpoch;
  const int64_t era = (z >= 0 ? z : z - (kDaysPerEra - 1)) / kDaysPerEra;
  const int64_t day_of_era = z - era * kDaysPerEra;  // [0, 146096]
  // Years of the era: remove the leap days (one per 4 years, none per 100,
  // one again per 400) so that every year counts 365 days.
  const int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =  // [0, 365], counted from March 1st
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  // Months from March have the repeating lengths 31 30 31 30 31, which
  // (153 * m + 2) / 5 reproduces.
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;  // [0, 11]
  const auto day = static_cast<unsigned>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const auto month = static_cast<unsigned>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

// Two ASCII digits of 0..99.
char* write2(char* p, unsigned v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

// `v` with exactly `digits` digits, zero-padded.
char* write_fixed(char* p, uint64_t v, int digits) {
  for (int i = digits - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + digits;
}

// `v` zero-padded to at least `digits` digits.
char* write_padded(char* p, uint64_t v, int digits) {
  char buf[24];
  char* const end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  for (auto n = end - buf; n < digits; ++n) *p++ = '0';
  std::memcpy(p, buf, static_cast<size_t>(end - buf));
  return p + (end - buf);
}

char* write_year(char* p, int64_t year) {
  if (year >= 1 && year <= 9999) return write_fixed(p, static_cast<uint64_t>(year), 4);
  *p++ = year < 0 ? '-' : '+';
  const uint64_t magnitude = year < 0 ? 0 - static_cast<uint64_t>(year) : static_cast<uint64_t>(year);
  return write_padded(p, magnitude, 4);
}

char* write_date(char* p, int64_t days_since_epoch) {
  const CivilDate date = civil_from_days(days_since_epoch);
  p = write_year(p, date.year);
  *p++ = '-';
  p = write2(p, date.month);
  *p++ = '-';
  return write2(p, date.day);
}

struct UnitInfo {
  int64_t ticks_per_second;
  int fraction_digits;
};

UnitInfo unit_info(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return {1'000, 3};
    case TimeUnit::kMicros:
      return {1'000'000, 6};
    case TimeUnit::kNanos:
      break;
  }
  return {1'000'000'000, 9};
}

// "HH:MM:SS.fff..." of a non-negative tick count; hours get more digits when
// the count exceeds a day (only corrupt times do).
char* write_clock(char* p, uint64_t ticks, UnitInfo info) {
  const auto per_second = static_cast<uint64_t>(info.ticks_per_second);
  const uint64_t seconds = ticks / per_second;
  p = write_padded(p, seconds / 3600, 2);
  *p++ = ':';
  p = write2(p, static_cast<unsigned>(seconds / 60 % 60));
  *p++ = ':';
  p = write2(p, static_cast<unsigned>(seconds % 60));
  *p++ = '.';
  return write_fixed(p, ticks % per_second, info.fraction_digits);
}

// The quoted "date T clock [Z]" of a day count and the ticks since its midnight.
void append_date_time(std::string& out, int64_t days, uint64_t ticks_of_day, UnitInfo info, bool adjusted_to_utc) {
  char buf[64];
  char* p = buf;
  *p++ = '"';
  p = write_date(p, days);
  *p++ = 'T';
  p = write_clock(p, ticks_of_day, info);
  if (adjusted_to_utc) *p++ = 'Z';
  *p++ = '"';
  out.append(buf, static_cast<size_t>(p - buf));
}

// Little-endian load of an integer type; compilers turn the loop into one load.
template <typename T>
T load_le(const uint8_t* p) {
  std::make_unsigned_t<T> v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<decltype(v)>(uint64_t{p[i]} << (8 * i));
  return static_cast<T>(v);
}

}  // namespace

std::optional<TimeUnit> time_unit_of(const format::TimeUnit& unit) {
  if (unit.MILLIS) return TimeUnit::kMillis;
  if (unit.MICROS) return TimeUnit::kMicros;
  if (unit.NANOS) return TimeUnit::kNanos;
  return std::nullopt;
}

void append_integer(std::string& out, int64_t v) {
  char buf[24];
  char* const end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, static_cast<size_t>(end - buf));
}

void append_unsigned(std::string& out, uint64_t v) {
  char buf[24];
  char* const end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, static_cast<size_t>(end - buf));
}

void append_date(std::string& out, int32_t days_since_epoch) {
  char buf[32];
  char* p = buf;
  *p++ = '"';
  p = write_date(p, days_since_epoch);
  *p++ = '"';
  out.append(buf, static_cast<size_t>(p - buf));
}

void append_time(std::string& out, int64_t value, TimeUnit unit) {
  char buf[48];
  char* p = buf;
  *p++ = '"';
  if (value < 0) *p++ = '-';
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  p = write_clock(p, magnitude, unit_info(unit));
  *p++ = '"';
  out.append(buf, static_cast<size_t>(p - buf));
}

void append_timestamp(std::string& out, int64_t value, TimeUnit unit, bool adjusted_to_utc) {
  const UnitInfo info = unit_info(unit);
  const int64_t ticks_per_day = kSecondsPerDay * info.ticks_per_second;
  // Floor division without forming days * ticks_per_day, which can fall
  // below INT64_MIN for the earliest values.
  int64_t days = value / ticks_per_day;
  int64_t ticks_of_day = value % ticks_per_day;
  if (ticks_of_day < 0) {
    ticks_of_day += ticks_per_day;
    --days;
  }
  append_date_time(out, days, static_cast<uint64_t>(ticks_of_day), info, adjusted_to_utc);
}

void append_int96_timestamp(std::string& out, const uint8_t* twelve_bytes) {
  const auto nanos = load_le<int64_t>(twelve_bytes);
  const auto julian_day = load_le<int32_t>(twelve_bytes + 8);
  constexpr __int128 kNanosPerDay = __int128{kSecondsPerDay} * 1'000'000'000;
  // Writers put any number of nanoseconds beside the day; 128 bits hold the
  // sum of both for every input, so it normalises without wrapping.
  const __int128 total = __int128{julian_day - kJulianDayOfEpoch} * kNanosPerDay + nanos;
  __int128 days = total / kNanosPerDay;
  __int128 nanos_of_day = total % kNanosPerDay;
  if (nanos_of_day < 0) {
    nanos_of_day += kNanosPerDay;
    --days;
  }
  append_date_time(out, static_cast<int64_t>(days), static_cast<uint64_t>(nanos_of_day), unit_info(TimeUnit::kNanos),
                   false);
}

void append_uuid(std::string& out, const uint8_t* sixteen_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  char buf[38];
  char* p = buf;
  *p++ = '"';
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
    *p++ = kHex[sixteen_bytes[i] >> 4];
    *p++ = kHex[sixteen_bytes[i] & 0xF];
  }
  *p++ = '"';
  out.append(buf, static_cast<size_t>(p - buf));
}

void append_interval(std::string& out, const uint8_t* twelve_bytes) {
  out.append("{\"months\":");
  append_unsigned(out, load_le<uint32_t>(twelve_bytes));
  out.append(",\"days\":");
  append_unsigned(out, load_le<uint32_t>(twelve_bytes + 4));
  out.append(",\"millis\":");
  append_unsigned(out, load_le<uint32_t>(twelve_bytes + 8));
  out.push_back('}');
}

}  // namespace parq::text
