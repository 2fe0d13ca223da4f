// The C++ value type of each Parquet physical type, as decoders produce it:
// BOOLEAN -> bool (one byte per value), INT32 -> int32_t, INT64 -> int64_t,
// INT96 -> Int96, FLOAT -> float, DOUBLE -> double, BYTE_ARRAY ->
// ByteArrayBatch (offsets + data), FIXED_LEN_BYTE_ARRAY -> width bytes per
// value, contiguous (uint8_t*).
#pragma once

#include <cstdint>

namespace parq::encoding {

// INT96: little-endian, 8 bytes of nanoseconds in the day then 4 bytes of
// Julian day for the legacy timestamps that use it.
struct Int96 {
  uint32_t words[3];
  bool operator==(const Int96&) const = default;
};
static_assert(sizeof(Int96) == 12);

}  // namespace parq::encoding
