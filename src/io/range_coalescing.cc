// Range coalescing; see range_coalescing.h.
#include "range_coalescing.h"

#include <algorithm>
#include <numeric>

namespace parq::io {

std::vector<PlannedRequest> coalesce_ranges(std::span<const FileRange> ranges, const CoalescingLimits& limits) {
  const uint64_t cap = std::max<uint64_t>(limits.max_request, 1);
  std::vector<size_t> order;
  for (size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].length > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranges[a].offset < ranges[b].offset; });

  // First the requests' extents. A gap joins a request only while the
  // request's gaps stay within an eighth of the bytes asked for (or are
  // tiny): merging saves requests, not round trips (requests run
  // concurrently), and a projection's chunks sit between the columns it
  // skips, which merging at any gap would fetch too.
  constexpr uint64_t kSmallGap = 8 << 10;
  std::vector<FileRange> extents;
  uint64_t asked = 0, wasted = 0;  // of the current request
  for (size_t i : order) {
    uint64_t a = ranges[i].offset, b = ranges[i].end();
    if (!extents.empty()) {
      FileRange& cur = extents.back();
      uint64_t cur_end = cur.end();
      if (b <= cur_end) continue;  // inside the current request
      const uint64_t gap = a > cur_end ? a - cur_end : 0;
      const uint64_t new_bytes = b - std::max(a, cur_end);
      bool near = a <= cur_end || gap < limits.gap;
      if (near && gap > kSmallGap && (wasted + gap) * 8 > asked + new_bytes) near = false;
      if (near && b - cur.offset <= cap) {
        cur.length = b - cur.offset;
        asked += new_bytes;
        wasted += gap;
        continue;
      }
      if (a < cur_end) a = cur_end;  // the overlapping part is fetched already
    }
    while (b - a > cap) {
      extents.push_back({a, cap});
      a += cap;
    }
    extents.push_back({a, b - a});
    asked = b - a;
    wasted = 0;
  }

  // Then each range's pieces in the requests it spans.
  std::vector<PlannedRequest> out(extents.size());
  for (size_t r = 0; r < extents.size(); ++r) out[r].bytes = extents[r];
  for (size_t i : order) {
    const FileRange& range = ranges[i];
    auto it = std::upper_bound(extents.begin(), extents.end(), range.offset,
                               [](uint64_t off, const FileRange& e) { return off < e.offset; });
    size_t r = static_cast<size_t>(it - extents.begin()) - 1;  // the request holding range.offset
    uint64_t pos = range.offset;
    while (pos < range.end()) {
      const FileRange& e = extents[r];
      uint64_t end = std::min(range.end(), e.end());
      out[r].pieces.push_back({i, pos, end - pos, pos - range.offset});
      pos = end;
      ++r;
    }
  }
  for (PlannedRequest& req : out)
    std::stable_sort(req.pieces.begin(), req.pieces.end(),
                     [](const RequestPiece& a, const RequestPiece& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace parq::io
