// Private: filling runs of one value (RLE runs of the hybrid, repeated
// dictionary entries). std::fill_n compiles to 16-byte stores in the portable
// build; these use one unaligned head store, 64-byte aligned stores (AVX-512)
// or 32-byte ones (AVX2) for the body and one unaligned store that ends at the
// last element, so a run costs about bytes / 64 stores. bytes >= the vector
// size; pointers naturally aligned for their element, so every store stays
// in phase with the pattern.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "parq/util/cpu.h"

namespace parq::encoding::detail {

__attribute__((target("avx512f,avx512bw,avx512vl"))) inline void fill_bytes_avx512(uint8_t* p, size_t bytes,
                                                                                    __m512i v) {
  uint8_t* const end = p + bytes;
  _mm512_storeu_si512(p, v);
  uint8_t* q = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(p) + 64) & ~uintptr_t{63});
  for (; q + 256 <= end; q += 256) {
    _mm512_store_si512(q, v);
    _mm512_store_si512(q + 64, v);
    _mm512_store_si512(q + 128, v);
    _mm512_store_si512(q + 192, v);
  }
  for (; q + 64 <= end; q += 64) _mm512_store_si512(q, v);
  _mm512_storeu_si512(end - 64, v);
}

__attribute__((target("avx2"))) inline void fill_bytes_avx2(uint8_t* p, size_t bytes, __m256i v) {
  uint8_t* const end = p + bytes;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  uint8_t* q = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(p) + 32) & ~uintptr_t{31});
  for (; q + 128 <= end; q += 128) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(q), v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(q + 32), v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(q + 64), v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(q + 96), v);
  }
  for (; q + 32 <= end; q += 32) _mm256_store_si256(reinterpret_cast<__m256i*>(q), v);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(end - 32), v);
}

template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline void fill_avx512(T* out, size_t n, T value) {
  __m512i v;
  if constexpr (sizeof(T) == 1) {
    v = _mm512_set1_epi8(static_cast<char>(value));
  } else if constexpr (sizeof(T) == 2) {
    v = _mm512_set1_epi16(static_cast<short>(value));
  } else if constexpr (sizeof(T) == 4) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    v = _mm512_set1_epi32(static_cast<int>(bits));
  } else {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    v = _mm512_set1_epi64(static_cast<long long>(bits));
  }
  fill_bytes_avx512(reinterpret_cast<uint8_t*>(out), n * sizeof(T), v);
}

template <class T>
__attribute__((target("avx2"))) inline void fill_avx2(T* out, size_t n, T value) {
  __m256i v;
  if constexpr (sizeof(T) == 1) {
    v = _mm256_set1_epi8(static_cast<char>(value));
  } else if constexpr (sizeof(T) == 2) {
    v = _mm256_set1_epi16(static_cast<short>(value));
  } else if constexpr (sizeof(T) == 4) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    v = _mm256_set1_epi32(static_cast<int>(bits));
  } else {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    v = _mm256_set1_epi64x(static_cast<long long>(bits));
  }
  fill_bytes_avx2(reinterpret_cast<uint8_t*>(out), n * sizeof(T), v);
}

// out[0, n) = value, for 1-, 2-, 4- and 8-byte T whose pointers are
// naturally aligned (the aligned body then stays in phase with the pattern).
template <class T>
inline void fill_run(T* out, size_t n, T value) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  const size_t bytes = n * sizeof(T);
  const bool aligned = reinterpret_cast<uintptr_t>(out) % sizeof(T) == 0;
  if (aligned && bytes >= 64) {
    const SimdLevel level = simd_level();
    if (level == SimdLevel::kAvx512) return fill_avx512(out, n, value);
    if (level == SimdLevel::kAvx2) return fill_avx2(out, n, value);
  }
  std::fill_n(out, n, value);
}

}  // namespace parq::encoding::detail
