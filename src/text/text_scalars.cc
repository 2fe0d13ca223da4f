// Scalar text conversions; see text_scalars.h.
#include "text_scalars.h"

#include <charconv>
#include <cmath>

namespace parq::text {
namespace {

bool digits(std::string_view s, size_t at, size_t n, int& out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

// Howard Hinnant's days_from_civil.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool valid_day(int y, int m, int d) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[m - 1] + (m == 2 && leap);
}

// YYYY-MM-DD at the start of s.
bool date_prefix(std::string_view s, int64_t& days) {
  int y, m, d;
  if (!digits(s, 0, 4, y) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, m) || s[7] != '-' ||
      !digits(s, 8, 2, d) || !valid_day(y, m, d))
    return false;
  days = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

}  // namespace

std::optional<int64_t> parse_int64(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  std::string_view body = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
  // Leading zeros ("007", a postcode) keep the value text.
  if (body.empty() || (body.size() > 1 && body[0] == '0')) return std::nullopt;
  for (char c : body)
    if (c < '0' || c > '9') return std::nullopt;
  int64_t v = 0;
  std::string_view digits_and_sign = negative ? s : body;
  auto [end, ec] = std::from_chars(digits_and_sign.data(), digits_and_sign.data() + digits_and_sign.size(), v);
  if (ec != std::errc() || end != digits_and_sign.data() + digits_and_sign.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string_view body = s[0] == '+' ? s.substr(1) : s;
  double v = 0;
  auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (ec != std::errc() || end != body.data() + body.size()) return std::nullopt;
  // from_chars also takes "inf" and "nan"; as data they read as text.
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "TRUE" || s == "True") return true;
  if (s == "false" || s == "FALSE" || s == "False") return false;
  return std::nullopt;
}

std::optional<int32_t> parse_date(std::string_view s) {
  int64_t days;
  if (s.size() != 10 || !date_prefix(s, days)) return std::nullopt;
  return static_cast<int32_t>(days);
}

std::optional<ParsedTimestamp> parse_timestamp(std::string_view s) {
  int64_t days;
  if (s.size() < 19 || !date_prefix(s, days) || (s[10] != 'T' && s[10] != ' ')) return std::nullopt;
  int h, mi, se;
  if (!digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se) ||
      h > 23 || mi > 59 || se > 60)
    return std::nullopt;
  ParsedTimestamp t;
  size_t at = 19;
  if (at < s.size() && s[at] == '.') {
    ++at;
    int64_t nanos = 0;
    int n = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      if (n == 9) return std::nullopt;
      nanos = nanos * 10 + (s[at] - '0');
      ++n;
      ++at;
    }
    if (n == 0) return std::nullopt;
    t.fraction_digits = n;
    for (int k = n; k < 9; ++k) nanos *= 10;
    t.nanos = static_cast<int32_t>(nanos);
  }
  int64_t offset = 0;
  if (at < s.size()) {
    if (s[at] == 'Z' && at + 1 == s.size()) {
      t.zoned = true;
    } else if (s[at] == '+' || s[at] == '-') {
      int oh, om = 0;
      if (!digits(s, at + 1, 2, oh)) return std::nullopt;
      size_t end = at + 3;
      if (end < s.size()) {
        if (s[end] == ':') ++end;
        if (!digits(s, end, 2, om)) return std::nullopt;
        end += 2;
      }
      if (end != s.size() || oh > 23 || om > 59) return std::nullopt;
      offset = (oh * 60 + om) * 60 * (s[at] == '-' ? -1 : 1);
      t.zoned = true;
    } else {
      return std::nullopt;
    }
  }
  t.seconds = days * 86400 + h * 3600 + mi * 60 + se - offset;
  return t;
}

bool timestamp_in_unit(const ParsedTimestamp& t, int unit, int64_t& out) {
  static const int64_t kPerSecond[] = {1000, 1000000, 1000000000};
  static const int32_t kNanosPer[] = {1000000, 1000, 1};
  if (t.nanos % kNanosPer[unit] != 0) return false;
  return !__builtin_mul_overflow(t.seconds, kPerSecond[unit], &out) &&
         !__builtin_add_overflow(out, t.nanos / kNanosPer[unit], &out);
}

}  // namespace parq::text
