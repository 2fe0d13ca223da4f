// Bitshuffle and its inverse; layout in encoding/bitshuffle.h.
//
// Two steps per chunk of elements that fits in L1: byte transposition into
// s byte planes (the byte_stream_split kernels), then each byte plane into 8
// bit rows. The second step is a movemask per bit on AVX2/AVX-512 (one bit of
// 32 or 64 bytes at once) and an 8x8 bit-matrix transpose in a 64-bit word
// in the portable path. Unshuffling runs the same steps backwards.
#include "parq/encoding/bitshuffle.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "parq/encoding/byte_stream_split.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

// Elements per chunk: a multiple of 64, so that SIMD steps cover whole
// chunks, and 512 * 16 bytes of planes stay in L1.
constexpr size_t kChunk = 512;

// Transposes the 8x8 bit matrix whose row r is byte r of x (bit c = column
// c): afterwards byte c bit r holds what byte r bit c held. Its own inverse.
inline uint64_t transpose8x8(uint64_t x) {
  uint64_t t;
  t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
  x ^= t ^ (t << 28);
  return x;
}

// plane: c bytes (c a multiple of 8) -> 8 rows, row k at rows + k * row_len.
void plane_to_rows_scalar(const uint8_t* plane, size_t begin, size_t c, uint8_t* rows, size_t row_len) {
  for (size_t i = begin; i < c; i += 8) {
    uint64_t x;
    std::memcpy(&x, plane + i, 8);
    x = transpose8x8(x);
    for (size_t k = 0; k < 8; ++k) rows[k * row_len + i / 8] = static_cast<uint8_t>(x >> (8 * k));
  }
}

void rows_to_plane_scalar(const uint8_t* rows, size_t row_len, size_t begin, size_t c, uint8_t* plane) {
  for (size_t i = begin; i < c; i += 8) {
    uint64_t x = 0;
    for (size_t k = 0; k < 8; ++k) x |= uint64_t{rows[k * row_len + i / 8]} << (8 * k);
    x = transpose8x8(x);
    std::memcpy(plane + i, &x, 8);
  }
}

__attribute__((target("avx2,bmi2"))) void plane_to_rows_avx2(const uint8_t* plane, size_t c, uint8_t* rows,
                                                             size_t row_len) {
  size_t i = 0;
  for (; i + 32 <= c; i += 32) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(plane + i));
    // movemask reads the top bit: bit 7 first, then shift the next one up.
    for (int k = 7; k >= 0; --k) {
      uint32_t m = static_cast<uint32_t>(_mm256_movemask_epi8(v));
      std::memcpy(rows + k * row_len + i / 8, &m, 4);
      v = _mm256_add_epi8(v, v);
    }
  }
  plane_to_rows_scalar(plane, i, c, rows, row_len);
}

__attribute__((target("avx2,bmi2"))) void rows_to_plane_avx2(const uint8_t* rows, size_t row_len, size_t c,
                                                             uint8_t* plane) {
  const __m256i spread =
      _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bits = _mm256_set1_epi64x(static_cast<int64_t>(0x8040201008040201ULL));
  size_t i = 0;
  for (; i + 32 <= c; i += 32) {
    __m256i acc = _mm256_setzero_si256();
    for (int k = 0; k < 8; ++k) {
      uint32_t m;
      std::memcpy(&m, rows + k * row_len + i / 8, 4);
      __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(m)), spread);
      v = _mm256_cmpeq_epi8(_mm256_and_si256(v, bits), bits);
      acc = _mm256_or_si256(acc, _mm256_and_si256(v, _mm256_set1_epi8(static_cast<char>(1 << k))));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(plane + i), acc);
  }
  rows_to_plane_scalar(rows, row_len, i, c, plane);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"))) void plane_to_rows_avx512(const uint8_t* plane,
                                                                                               size_t c, uint8_t* rows,
                                                                                               size_t row_len) {
  size_t i = 0;
  for (; i + 64 <= c; i += 64) {
    __m512i v = _mm512_loadu_si512(plane + i);
    for (int k = 0; k < 8; ++k) {
      uint64_t m = _mm512_test_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(1 << k)));
      std::memcpy(rows + k * row_len + i / 8, &m, 8);
    }
  }
  plane_to_rows_scalar(plane, i, c, rows, row_len);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"))) void rows_to_plane_avx512(const uint8_t* rows,
                                                                                               size_t row_len, size_t c,
                                                                                               uint8_t* plane) {
  size_t i = 0;
  for (; i + 64 <= c; i += 64) {
    __m512i acc = _mm512_setzero_si512();
    for (int k = 0; k < 8; ++k) {
      uint64_t m;
      std::memcpy(&m, rows + k * row_len + i / 8, 8);
      acc = _mm512_or_si512(acc, _mm512_maskz_set1_epi8(m, static_cast<char>(1 << k)));
    }
    _mm512_storeu_si512(plane + i, acc);
  }
  rows_to_plane_scalar(rows, row_len, i, c, plane);
}

void plane_to_rows(const uint8_t* plane, size_t c, uint8_t* rows, size_t row_len) {
  switch (simd_level()) {
    case SimdLevel::kAvx512:
      return plane_to_rows_avx512(plane, c, rows, row_len);
    case SimdLevel::kAvx2:
      return plane_to_rows_avx2(plane, c, rows, row_len);
    default:
      return plane_to_rows_scalar(plane, 0, c, rows, row_len);
  }
}

void rows_to_plane(const uint8_t* rows, size_t row_len, size_t c, uint8_t* plane) {
  switch (simd_level()) {
    case SimdLevel::kAvx512:
      return rows_to_plane_avx512(rows, row_len, c, plane);
    case SimdLevel::kAvx2:
      return rows_to_plane_avx2(rows, row_len, c, plane);
    default:
      return rows_to_plane_scalar(rows, row_len, 0, c, plane);
  }
}

void check_element_size(size_t elem_size) {
  if (elem_size == 0 || elem_size > kMaxBitshuffleElementSize)
    throw Error("bitshuffle: element size " + std::to_string(elem_size) + " is outside 1..16 (at byte 0)");
}

}  // namespace

void bitshuffle(const uint8_t* in, uint8_t* out, size_t n, size_t elem_size) {
  check_element_size(elem_size);
  const size_t n8 = n & ~size_t{7};
  const size_t row_len = n8 / 8;
  alignas(64) uint8_t planes[kChunk * kMaxBitshuffleElementSize];
  for (size_t c0 = 0; c0 < n8; c0 += kChunk) {
    size_t c = std::min(kChunk, n8 - c0);
    byte_stream_split_encode(in + c0 * elem_size, c, elem_size, planes, c);
    for (size_t b = 0; b < elem_size; ++b) plane_to_rows(planes + b * c, c, out + 8 * b * row_len + c0 / 8, row_len);
  }
  if (n > n8) std::memcpy(out + n8 * elem_size, in + n8 * elem_size, (n - n8) * elem_size);
}

void bitunshuffle(const uint8_t* in, uint8_t* out, size_t n, size_t elem_size) {
  check_element_size(elem_size);
  const size_t n8 = n & ~size_t{7};
  const size_t row_len = n8 / 8;
  alignas(64) uint8_t planes[kChunk * kMaxBitshuffleElementSize];
  for (size_t c0 = 0; c0 < n8; c0 += kChunk) {
    size_t c = std::min(kChunk, n8 - c0);
    for (size_t b = 0; b < elem_size; ++b) rows_to_plane(in + 8 * b * row_len + c0 / 8, row_len, c, planes + b * c);
    byte_stream_split_decode(planes, c, c, elem_size, out + c0 * elem_size);
  }
  if (n > n8) std::memcpy(out + n8 * elem_size, in + n8 * elem_size, (n - n8) * elem_size);
}

}  // namespace parq::encoding
