// HTTP response parsing; see http_parse.h.
#include "http_parse.h"

namespace parq::io::http {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::optional<int> parse_status_line(std::string_view line) {
  line = trim(line);
  if (line.size() < 5 || line.substr(0, 5) != "HTTP/") return std::nullopt;
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(space + 1);
  if (rest.size() < 3) return std::nullopt;
  int code = 0;
  for (size_t i = 0; i < 3; ++i) {
    if (rest[i] < '0' || rest[i] > '9') return std::nullopt;
    code = code * 10 + (rest[i] - '0');
  }
  if (rest.size() > 3 && rest[3] != ' ') return std::nullopt;
  if (code < 100) return std::nullopt;
  return code;
}

bool parse_header_line(std::string_view line, std::string_view& name, std::string_view& value) {
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  name = line.substr(0, colon);
  for (char c : name)
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return false;
  value = trim(line.substr(colon + 1));
  return true;
}

std::optional<uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > (uint64_t{1} << 63)) return std::nullopt;
  return v;
}

std::optional<ContentRange> parse_content_range(std::string_view value) {
  value = trim(value);
  if (value.size() < 6 || !iequals(value.substr(0, 6), "bytes ")) return std::nullopt;
  value = trim(value.substr(6));
  size_t slash = value.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view range = value.substr(0, slash), total = value.substr(slash + 1);
  ContentRange out;
  if (total != "*") {
    out.total = parse_decimal(total);
    if (!out.total) return std::nullopt;
  }
  if (range == "*") {
    if (!out.total) return std::nullopt;  // "bytes */*" says nothing
    return out;
  }
  size_t dash = range.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  auto first = parse_decimal(range.substr(0, dash)), last = parse_decimal(range.substr(dash + 1));
  if (!first || !last || *last < *first) return std::nullopt;
  if (out.total && *last >= *out.total) return std::nullopt;
  out.has_range = true;
  out.first = *first;
  out.last = *last;
  return out;
}

bool is_strong_etag(std::string_view etag) {
  return etag.size() >= 2 && etag.front() == '"' && etag.back() == '"' &&
         etag.substr(1, etag.size() - 2).find('"') == std::string_view::npos;
}

std::string describe_status(int status) {
  std::string s = std::to_string(status);
  switch (status) {
    case 200:
      return s + " OK (the whole object, not the range asked for)";
    case 301:
      return s + " Moved Permanently (for S3: the bucket is in another region or needs another endpoint)";
    case 302:
    case 307:
    case 308:
      return s + " Redirect (not followed)";
    case 400:
      return s + " Bad Request";
    case 401:
      return s + " Unauthorized (credentials needed)";
    case 403:
      return s + " Forbidden (access denied: wrong or missing credentials, or no permission)";
    case 404:
      return s + " Not Found (no such object or bucket)";
    case 408:
      return s + " Request Timeout";
    case 412:
      return s + " Precondition Failed (the object changed during the read)";
    case 416:
      return s + " Range Not Satisfiable";
    case 429:
      return s + " Too Many Requests (throttled)";
    case 500:
      return s + " Internal Server Error";
    case 502:
      return s + " Bad Gateway";
    case 503:
      return s + " Service Unavailable (throttled or overloaded)";
    case 504:
      return s + " Gateway Timeout";
    default:
      break;
  }
  if (status >= 500) return s + " (server error)";
  if (status >= 400) return s + " (client error)";
  return s;
}

bool is_retryable_status(int status) { return status >= 500 || status == 408 || status == 429; }

std::optional<uint64_t> parse_retry_after(std::string_view value, int64_t now) {
  value = trim(value);
  if (auto seconds = parse_decimal(value)) return seconds;
  // IMF-fixdate, the form HTTP/1.1 senders must use.
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (value.size() != 29 || value.substr(3, 2) != ", " || value.substr(25) != " GMT") return std::nullopt;
  auto number = [&](size_t at, size_t n) { return parse_decimal(value.substr(at, n)); };
  const auto day = number(5, 2), year = number(12, 4), hour = number(17, 2), minute = number(20, 2),
             second = number(23, 2);
  int month = -1;
  for (int m = 0; m < 12; ++m)
    if (value.substr(8, 3) == kMonths[m]) month = m;
  if (!day || !year || !hour || !minute || !second || month < 0 || value[7] != ' ' || value[11] != ' ' ||
      value[16] != ' ' || value[19] != ':' || value[22] != ':' || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 ||
      *second > 60)
    return std::nullopt;
  // Days from the civil date (proleptic Gregorian), so that no time zone
  // setting of the process enters.
  int64_t y = static_cast<int64_t>(*year) - (month < 2 ? 1 : 0);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t mp = (month + 10) % 12;  // March is 0
  const int64_t doy = (153 * mp + 2) / 5 + static_cast<int64_t>(*day) - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = era * 146097 + doe - 719468;
  const int64_t at = days * 86400 + static_cast<int64_t>(*hour * 3600 + *minute * 60 + *second);
  return at > now ? static_cast<uint64_t>(at - now) : 0;
}

}  // namespace parq::io::http
