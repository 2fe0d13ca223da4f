// Unsigned LEB128 varints (7 bits a byte, low first, the high bit set on
// all but the last), as the RLE/bit-packing hybrid's run headers, the DELTA
// encodings' headers and the SNAPPY preamble write them.
//
// Private to the library (src/).
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/util/buffer.h"

namespace parq {

inline constexpr size_t kMaxVarintBytes = 10;  // a uint64

// The bytes put_varint writes for `v`.
inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

inline void put_varint(Buffer& out, uint64_t v) {
  uint8_t* p = out.extend(kMaxVarintBytes);
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  p[n++] = static_cast<uint8_t>(v);
  out.resize(out.size() - kMaxVarintBytes + n);
}

}  // namespace parq
