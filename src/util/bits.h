// Counting the set bits of a bitmap (validity bitmaps, LSB first), a 64-bit
// word at a time between unaligned edges.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace parq {

// Set bits of `bits` in positions [begin, end).
inline int64_t count_set_bits(const uint8_t* bits, int64_t begin, int64_t end) {
  auto bit = [&](int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; };
  int64_t n = 0;
  int64_t i = begin;
  for (; i < end && (i & 63) != 0; ++i) n += bit(i);
  for (; i + 64 <= end; i += 64) {
    uint64_t word;
    std::memcpy(&word, bits + (i >> 3), sizeof word);
    n += std::popcount(word);
  }
  for (; i < end; ++i) n += bit(i);
  return n;
}

}  // namespace parq
