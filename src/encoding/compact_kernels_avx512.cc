// AVX-512 compaction kernels; see encoding/compact_kernels.h.
//
// Hand-written because compilers do not vectorize a loop whose write
// position depends on the data. VPCOMPRESSD/Q pack the kept lanes of a
// register to its front and a masked store writes exactly those, so these
// kernels write nothing past the last kept element. The level parq calls
// AVX-512 (F, BW, VL, VBMI) does not include VBMI2's byte and word
// compresses: 1- and 2-byte elements are widened to 32-bit lanes,
// compressed, and narrowed again (VPMOVDB/VPMOVDW). The compress goes to a
// register and a masked store follows, rather than VPCOMPRESS to memory,
// which is microcoded and slow on several cores. Blocks that keep all their
// elements are copied whole, and those that keep very few copy them one by
// one.
#include <immintrin.h>

#include <bit>
#include <cstring>

#include "encoding/compact_kernels.h"

// GCC 12 flags the deliberately undefined source operand inside its own
// conversion intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx2,bmi2,popcnt")))

namespace parq::encoding::detail {
namespace {

// Bit i set where keep[i] != 0, for 64 flags.
PARQ_AVX512 inline uint64_t keep_mask64(const uint8_t* keep) {
  const __m512i k = _mm512_loadu_si512(keep);
  return _mm512_test_epi8_mask(k, k);
}

// The low `count` bits (count <= 16).
inline uint32_t low_bits(unsigned count) { return (1u << count) - 1; }

// Copies a block whose every element is kept: all loads before any store,
// so that an in-place compaction (dst at or below src) reads its input
// before overwriting it.
template <int kVectors>
PARQ_AVX512 inline void copy_block(const void* src, void* dst) {
  __m512i v[kVectors];
  for (int i = 0; i < kVectors; ++i) v[i] = _mm512_loadu_si512(static_cast<const __m512i*>(src) + i);
  for (int i = 0; i < kVectors; ++i) _mm512_storeu_si512(static_cast<__m512i*>(dst) + i, v[i]);
}

// The block loop every width shares: 64 elements a block, skipped when
// none is kept, copied whole when all are, one by one when few are, and
// otherwise compacted by `mixed`, which returns how many it wrote.
template <class T, size_t (*mixed)(const T* src, uint64_t bits, T* dst)>
PARQ_AVX512 inline size_t compact_blocks(const void* src_v, const uint8_t* keep, size_t n, void* dst_v) {
  const auto* src = static_cast<const T*>(src_v);
  auto* dst = static_cast<T*>(dst_v);
  size_t w = 0, j = 0;
  for (; j + 64 <= n; j += 64) {
    const uint64_t bits = keep_mask64(keep + j);
    if (bits == 0) continue;
    if (bits == ~uint64_t{0}) {
      copy_block<sizeof(T)>(src + j, dst + w);
      w += 64;
      continue;
    }
    if (_mm_popcnt_u64(bits) <= kSparseBlock) {
      w += copy_sparse(src + j, bits, dst + w);
      continue;
    }
    w += mixed(src + j, bits, dst + w);
  }
  return w + compact_tail(src + j, keep + j, n - j, dst + w);
}

// Sixteen 1-, 2- or 4-byte elements in the 32-bit lanes of a register, and
// back: the compress works on 32-bit lanes whatever the element width.
PARQ_AVX512 inline __m512i load16(const uint8_t* p) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
PARQ_AVX512 inline __m512i load16(const uint16_t* p) {
  return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
PARQ_AVX512 inline __m512i load16(const uint32_t* p) { return _mm512_loadu_si512(p); }
PARQ_AVX512 inline void store_first(uint8_t* p, __mmask16 m, __m512i v) {
  _mm_mask_storeu_epi8(p, m, _mm512_cvtepi32_epi8(v));
}
PARQ_AVX512 inline void store_first(uint16_t* p, __mmask16 m, __m512i v) {
  _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(v));
}
PARQ_AVX512 inline void store_first(uint32_t* p, __mmask16 m, __m512i v) { _mm512_mask_storeu_epi32(p, m, v); }

template <class T>
PARQ_AVX512 inline size_t mixed_lanes32(const T* src, uint64_t bits, T* dst) {
  size_t w = 0;
  for (int g = 0; g < 4; ++g) {
    const auto m = static_cast<__mmask16>(bits >> (16 * g));
    const auto count = static_cast<unsigned>(_mm_popcnt_u32(m));
    store_first(dst + w, static_cast<__mmask16>(low_bits(count)), _mm512_maskz_compress_epi32(m, load16(src + 16 * g)));
    w += count;
  }
  return w;
}

PARQ_AVX512 inline size_t mixed8(const uint64_t* src, uint64_t bits, uint64_t* dst) {
  size_t w = 0;
  for (int g = 0; g < 8; ++g) {
    const auto m = static_cast<__mmask8>(bits >> (8 * g));
    const __m512i v = _mm512_loadu_si512(src + 8 * g);
    const auto count = static_cast<unsigned>(_mm_popcnt_u32(m));
    _mm512_mask_storeu_epi64(dst + w, static_cast<__mmask8>(low_bits(count)), _mm512_maskz_compress_epi64(m, v));
    w += count;
  }
  return w;
}

}  // namespace

const CompactKernels& compact_kernels_avx512() {
  static const CompactKernels k{
      {&compact_blocks<uint8_t, mixed_lanes32<uint8_t>>, &compact_blocks<uint16_t, mixed_lanes32<uint16_t>>,
       &compact_blocks<uint32_t, mixed_lanes32<uint32_t>>, &compact_blocks<uint64_t, mixed8>}};
  return k;
}

}  // namespace parq::encoding::detail
