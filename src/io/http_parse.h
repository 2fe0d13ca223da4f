// Parsing what an HTTP server answers a range request: the status line,
// header lines, Content-Range and ETags; and what each status means in an
// error message. Pure functions over untrusted text (fuzzed by
// fuzz/remote_parse_fuzz.cc); the transfers themselves are in curl_loop.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parq::io::http {

// "HTTP/1.1 206 Partial Content", "HTTP/2 200": the status code, or nullopt
// when the line is not a status line.
std::optional<int> parse_status_line(std::string_view line);

// "Name: value\r\n" -> name (as sent) and value (trimmed); false for a line
// without a colon (the status line, the blank line that ends the headers).
bool parse_header_line(std::string_view line, std::string_view& name, std::string_view& value);

// ASCII case-insensitive equality, for header names.
bool iequals(std::string_view a, std::string_view b);

// Content-Range of a 206 ("bytes 0-99/1000", "bytes 0-99/*") or of a 416
// ("bytes */1000").
struct ContentRange {
  bool has_range = false;  // false for "bytes */N"
  uint64_t first = 0;      // inclusive
  uint64_t last = 0;       // inclusive
  std::optional<uint64_t> total;
};
// nullopt when malformed: a unit other than bytes, last < first, a range
// outside the total, numbers that overflow 63 bits.
std::optional<ContentRange> parse_content_range(std::string_view value);

// A decimal number of at most 63 bits, nothing else around it.
std::optional<uint64_t> parse_decimal(std::string_view text);

// A Retry-After value as seconds from `now` (Unix seconds): delta-seconds
// ("120") or an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT", 0 once past);
// nullopt when it is neither.
std::optional<uint64_t> parse_retry_after(std::string_view value, int64_t now);

// A strong entity tag ("\"abc\"", not W/"abc"): only those may go in
// If-Match, which compares strongly.
bool is_strong_etag(std::string_view etag);

// What a status means, for error messages: "404 Not Found (no such object or
// bucket)".
std::string describe_status(int status);

// Whether a request that got `status` may succeed when sent again.
bool is_retryable_status(int status);

}  // namespace parq::io::http
