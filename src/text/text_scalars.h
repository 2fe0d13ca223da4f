// Classifying and converting scalar text (CSV fields, JSON strings and
// numbers): integers, floats, booleans, ISO 8601 dates and timestamps.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace parq::text {

std::optional<int64_t> parse_int64(std::string_view s);
std::optional<double> parse_double(std::string_view s);
std::optional<bool> parse_bool(std::string_view s);
// Days since 1970-01-01 of YYYY-MM-DD.
std::optional<int32_t> parse_date(std::string_view s);

struct ParsedTimestamp {
  int64_t seconds = 0;  // since the epoch, UTC when `zoned`
  int32_t nanos = 0;
  int fraction_digits = 0;
  bool zoned = false;  // Z or an offset was given (and applied)
};
// YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|(+|-)HH[:MM]].
std::optional<ParsedTimestamp> parse_timestamp(std::string_view s);
// The timestamp in unit 0 (millis), 1 (micros) or 2 (nanos); false when it
// overflows int64 or loses digits the unit cannot hold.
bool timestamp_in_unit(const ParsedTimestamp& t, int unit, int64_t& out);

}  // namespace parq::text
