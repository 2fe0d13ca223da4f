// Single Parquet values as canonical JSON text (/work/shared/golden/FORMAT.md):
// integers, decimals, dates, times, timestamps (INT96 included), UUIDs,
// intervals, and a dispatcher that renders one PLAIN-encoded value (as found
// in Statistics min/max or a dictionary page) according to its column's type.
//
// Every function appends to `out`; none allocates beyond the append itself
// except DECIMALs wider than 64 bytes, which need scratch space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parq/format/metadata.h"
#include "parq/schema/value_type.h"

namespace parq::text {

enum class TimeUnit { kMillis, kMicros, kNanos };

// The unit of a TIME or TIMESTAMP logical type; nullopt when the union has no
// member set (a unit this version does not know).
std::optional<TimeUnit> time_unit_of(const format::TimeUnit& unit);

void append_integer(std::string& out, int64_t v);
void append_unsigned(std::string& out, uint64_t v);

// "YYYY-MM-DD" (proleptic Gregorian, astronomical year numbering). Years
// outside 0001..9999 get a sign and at least four digits: "+10000-01-01",
// "+0000-01-01", "-0001-01-01".
void append_date(std::string& out, int32_t days_since_epoch);

// "HH:MM:SS" plus 3, 6 or 9 fraction digits. A value outside one day (corrupt
// data) is still written exactly: hours grow beyond 23 and a negative value
// gets a leading '-' ("-00:00:00.001").
void append_time(std::string& out, int64_t value, TimeUnit unit);

// "YYYY-MM-DDTHH:MM:SS.fff[fff[fff]]" plus "Z" when adjusted to UTC. Exact
// over the whole int64 range of every unit.
void append_timestamp(std::string& out, int64_t value, TimeUnit unit, bool adjusted_to_utc);

// A legacy INT96 timestamp (8 bytes little-endian signed nanoseconds of the
// day, then 4 bytes little-endian Julian day), written as TIMESTAMP(NANOS, not
// UTC) with exact arithmetic, so nanoseconds beyond one day carry into the
// date instead of wrapping.
void append_int96_timestamp(std::string& out, const uint8_t* twelve_bytes);

// Decimals with their largest accepted |scale|: larger ones (a corrupt schema)
// throw parq::Error rather than write megabytes of zeros per value.
inline constexpr int32_t kMaxDecimalScale = 16383;
// The longest big-endian unscaled value accepted (after dropping redundant
// sign bytes); the conversion is quadratic in the length.
inline constexpr size_t kMaxDecimalBytes = 4096;

// Quoted exact decimal with exactly `scale` digits after the point: "-12.30",
// "0.05", "7" when scale is 0. A negative scale (outside the Parquet spec)
// multiplies by a power of ten: (12, -2) is "1200".
void append_decimal(std::string& out, int64_t unscaled, int32_t scale);

// The same for an unscaled value stored big-endian two's complement in `n`
// bytes (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY decimals), of any length up to
// kMaxDecimalBytes; no bytes at all is zero. Throws parq::Error for a too long one.
void append_decimal_be(std::string& out, const uint8_t* big_endian_twos_complement, size_t n, int32_t scale);

// Quoted lowercase 8-4-4-4-12 hex.
void append_uuid(std::string& out, const uint8_t* sixteen_bytes);

// {"months":M,"days":D,"millis":MS} from three little-endian uint32.
void append_interval(std::string& out, const uint8_t* twelve_bytes);

// How the values of one column are written, resolved once from its ValueType
// so that per-value rendering is a single switch.
enum class ValueKind {
  kBoolean,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kFloat16,
  kInt96Timestamp,
  kDecimal32,
  kDecimal64,
  kDecimalBytes,
  kDate,
  kTime32,
  kTime64,
  kTimestamp32,
  kTimestamp64,
  kString,
  kUuid,
  kInterval,
  kBase64,
};

struct ValueFormat {
  ValueKind kind = ValueKind::kBase64;
  format::Type physical = format::Type::BYTE_ARRAY;
  // Bytes of one PLAIN value; -1 for BYTE_ARRAY (any length).
  int32_t width = -1;
  TimeUnit unit = TimeUnit::kMillis;  // kTime*, kTimestamp*
  bool adjusted_to_utc = false;       // kTimestamp*
  int32_t scale = 0;                  // kDecimal*
};

// The format of a column's values per FORMAT.md's table. A logical type that
// does not fit the physical type (e.g. UUID on BYTE_ARRAY, DATE on INT64) or
// that this version does not know is ignored: values read as their physical
// type. Throws parq::Error for an unknown physical type.
ValueFormat value_format_of(const ValueType& type);

// Appends one PLAIN-encoded value: fixed-width little-endian for BOOLEAN (one
// byte, bit 0), INT32, INT64, INT96, FLOAT and DOUBLE; the raw bytes without
// length prefix for BYTE_ARRAY; `width` bytes for FIXED_LEN_BYTE_ARRAY.
// Throws parq::Error when the length does not fit the type (statistics can be
// corrupt).
void append_plain_value(std::string& out, const ValueFormat& format, std::string_view plain);
void append_plain_value(std::string& out, const ValueType& type, std::string_view plain);
// A statistics bound (one PLAIN value) as JSON text in the column's
// logical type; one that does not decode (corrupt statistics) as base64 of
// its bytes, so that a report about it never fails.
std::string bound_text(const ValueType& type, std::string_view plain);

}  // namespace parq::text
