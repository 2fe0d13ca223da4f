// Which requests fetch a set of ranges: near ranges merged, large ones split.
//
// The ranges are sorted by offset; a range that starts less than `gap`
// bytes after the current request's end (or overlaps it) joins it, unless
// the request would then pass `max_request` or its gaps (beyond 8 KiB
// ones) would pass an eighth of the bytes it was asked for; a range larger than that is
// cut into pieces of `max_request` bytes. Each request then knows the parts
// of the asked ranges it carries, so that its bytes can be scattered
// straight into their buffers as they arrive.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "parq/io/input.h"

namespace parq::io {

struct CoalescingLimits {
  uint64_t gap = 0;
  uint64_t max_request = UINT64_MAX;
};

// Bytes [offset, offset + length) of a request belong at `dest_offset` in the
// buffer of asked range `range`.
struct RequestPiece {
  size_t range = 0;
  uint64_t offset = 0;  // in the file
  uint64_t length = 0;
  uint64_t dest_offset = 0;
};

struct PlannedRequest {
  FileRange bytes;                   // what the request asks for
  std::vector<RequestPiece> pieces;  // sorted by offset
};

// Requests covering every non-empty range of `ranges` (indexes into it),
// sorted by offset and disjoint. Empty ranges need no request.
std::vector<PlannedRequest> coalesce_ranges(std::span<const FileRange> ranges, const CoalescingLimits& limits);

}  // namespace parq::io
