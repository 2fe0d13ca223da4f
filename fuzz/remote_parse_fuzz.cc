// libFuzzer target for what a remote server sends back: the first byte picks
// the S3 ListObjectsV2 reader, the S3 error reader, the HTTP header and
// Content-Range parsers, or range coalescing (ranges from the bytes). Each
// checks what its result promises, and aborts when it does not hold.
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "../src/io/http_parse.h"
#include "../src/io/range_coalescing.h"
#include "../src/io/s3_xml.h"
#include "parq/error.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void list_page(std::string_view text) {
  try {
    parq::io::s3::ListPage page = parq::io::s3::parse_list_page(text);
    for (const auto& o : page.objects) check(!o.key.empty() && o.key.size() <= (64 << 10));
    check(!page.truncated || !page.next_continuation_token.empty());
  } catch (const parq::Error& e) {
    check(e.kind() == parq::ErrorKind::kCorrupt);
  }
}

void error_document(std::string_view text) {
  auto doc = parq::io::s3::parse_error(text);
  if (doc) check(!doc->code.empty() && doc->message.size() <= 512);
}

void headers(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos + (end < text.size() ? 1 : 0));
    pos = end + 1;
    if (auto status = parq::io::http::parse_status_line(line)) check(*status >= 100 && *status <= 999);
    std::string_view name, value;
    if (parq::io::http::parse_header_line(line, name, value)) check(!name.empty());
    if (auto r = parq::io::http::parse_content_range(line)) {
      check(r->has_range || r->total.has_value());
      if (r->has_range) check(r->first <= r->last && (!r->total || r->last < *r->total));
    }
    (void)parq::io::http::is_strong_etag(line);
    (void)parq::io::http::parse_retry_after(line, static_cast<int64_t>(line.size()) * 1000003);
    (void)parq::io::http::describe_status(static_cast<int>(line.size()));
  }
}

uint64_t take(const uint8_t*& p, const uint8_t* end, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes && p < end; ++i) v = v << 8 | *p++;
  return v;
}

void coalescing(const uint8_t* p, size_t n) {
  const uint8_t* end = p + n;
  // Requests of at least 256 bytes: ranges below 64 KiB split into at most 256.
  parq::io::CoalescingLimits limits{.gap = take(p, end, 2), .max_request = 256 + take(p, end, 2)};
  std::vector<parq::io::FileRange> ranges;
  while (p < end && ranges.size() < 64) ranges.push_back({take(p, end, 3), take(p, end, 2)});
  auto plan = parq::io::coalesce_ranges(ranges, limits);
  std::vector<uint64_t> covered(ranges.size(), 0);
  for (size_t r = 0; r < plan.size(); ++r) {
    check(plan[r].bytes.length >= 1 && plan[r].bytes.length <= limits.max_request);
    if (r > 0) check(plan[r].bytes.offset >= plan[r - 1].bytes.end());
    for (const auto& piece : plan[r].pieces) {
      check(piece.offset >= plan[r].bytes.offset && piece.offset + piece.length <= plan[r].bytes.end());
      check(piece.dest_offset == covered[piece.range]);
      covered[piece.range] += piece.length;
    }
  }
  for (size_t i = 0; i < ranges.size(); ++i) check(covered[i] == ranges[i].length);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 4) {
    case 0:
      list_page(text);
      break;
    case 1:
      error_document(text);
      break;
    case 2:
      headers(text);
      break;
    case 3:
      coalescing(data + 1, size - 1);
      break;
  }
  return 0;
}
