// Bitshuffle: a reversible filter run on fixed-width values before a general
// compressor (LZ4, ZSTD). It transposes an array of elements into bit
// planes, so bits that rarely change across elements (high bits, sign bits,
// exponents) form long runs of equal bytes. Not a Parquet encoding: a codec
// the library offers to page and file writers that want it.
//
// Layout, for n elements of s bytes (s = 1..16), with n8 = n rounded down to
// a multiple of 8 and R = n8 / 8:
//   * 8 * s bit rows of R bytes each; row 8 * b + k holds bit k of byte b of
//     elements 0..n8-1, element i at bit i % 8 of byte i / 8 of the row.
//   * then the last n - n8 elements, copied unshuffled.
// This is the bitshuffle project's bshuf_trans_bit_elem applied to the whole
// array as one block, with its handling of a remainder of fewer than 8
// elements (copied as they are, at the end).
#pragma once

#include <cstddef>
#include <cstdint>

namespace parq::encoding {

inline constexpr size_t kMaxBitshuffleElementSize = 16;

// in and out hold n * elem_size bytes each and must not overlap. Throws
// parq::Error for an element size outside 1..16.
void bitshuffle(const uint8_t* in, uint8_t* out, size_t n, size_t elem_size);
void bitunshuffle(const uint8_t* in, uint8_t* out, size_t n, size_t elem_size);

}  // namespace parq::encoding
