// AVX2 + BMI2 compaction kernels; see encoding/compact_kernels.h.
//
// Hand-written because AVX2 has no compress instruction and compilers do not
// turn the scalar loop (a data-dependent write position) into vectors. The
// keep flags of 32 elements become a bit mask (compare with zero, movemask);
// for each group of 8 PDEP spreads the mask bits to bytes and PEXT gathers
// the byte indices of the kept elements, which then drive a lane permute
// (VPERMD for 4-byte elements, PSHUFB for 2) or, for bytes, PEXT compacts
// eight elements in a 64-bit word directly; 8-byte elements, four to a
// register, take their VPERMD indices from a table by the 4-bit mask. Each
// group stores a whole vector and moves the write position by the popcount,
// so the tail may write up to kCompactSlack bytes past the last kept element.
// Blocks that keep all their elements are copied whole, and those that keep
// very few copy them one by one.
#include <immintrin.h>

#include <array>
#include <bit>
#include <cstring>

#include "encoding/compact_kernels.h"

#define PARQ_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

namespace parq::encoding::detail {
namespace {

constexpr uint64_t kByteOnes = 0x0101010101010101ULL;
// Byte i holds i: PEXT of these by a byte mask lists the kept positions.
constexpr uint64_t kIdentityBytes = 0x0706050403020100ULL;

// Bit i set where keep[i] != 0, for 32 flags.
PARQ_AVX2 inline uint32_t keep_mask32(const uint8_t* keep) {
  const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keep));
  return ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(k, _mm256_setzero_si256())));
}

// 0xff in byte i where bit i of the 8-bit mask is set.
PARQ_AVX2 inline uint64_t byte_mask(uint32_t bits8) { return _pdep_u64(bits8, kByteOnes) * 0xff; }

// The positions (0-7) of the set bits of an 8-bit mask, one per byte from
// the lowest, in a register: the permute indices of the kept elements.
PARQ_AVX2 inline __m128i kept_positions(uint32_t bits8) {
  return _mm_cvtsi64_si128(static_cast<long long>(_pext_u64(kIdentityBytes, byte_mask(bits8))));
}

// For 8-byte elements, four to a register: the 32-bit lanes that hold the
// kept ones, in order, for each 4-bit mask (a table small enough to stay in
// L1 beats computing them with PDEP and PEXT).
struct alignas(32) PairOrder {
  uint32_t lanes[8];
};
constexpr auto make_pair_orders() {
  std::array<PairOrder, 16> t{};
  for (uint32_t m = 0; m < 16; ++m) {
    uint32_t k = 0;
    for (uint32_t e = 0; e < 4; ++e)
      if (m & (1u << e)) {
        t[m].lanes[k++] = 2 * e;
        t[m].lanes[k++] = 2 * e + 1;
      }
  }
  return t;
}
constexpr std::array<PairOrder, 16> kPairOrder = make_pair_orders();

// Copies a block whose every element is kept: all loads before any store,
// so that an in-place compaction (dst at or below src) reads its input
// before overwriting it.
template <int kVectors>
PARQ_AVX2 inline void copy_block(const void* src, void* dst) {
  __m256i v[kVectors];
  for (int i = 0; i < kVectors; ++i) v[i] = _mm256_loadu_si256(static_cast<const __m256i*>(src) + i);
  for (int i = 0; i < kVectors; ++i) _mm256_storeu_si256(static_cast<__m256i*>(dst) + i, v[i]);
}

// The block loop every width shares: 32 elements a block, skipped when
// none is kept, copied whole when all are, one by one when few are, and
// otherwise compacted by `mixed`, which returns how many it wrote.
template <class T, size_t (*mixed)(const T* src, uint32_t bits, T* dst)>
PARQ_AVX2 inline size_t compact_blocks(const void* src_v, const uint8_t* keep, size_t n, void* dst_v) {
  const auto* src = static_cast<const T*>(src_v);
  auto* dst = static_cast<T*>(dst_v);
  size_t w = 0, j = 0;
  for (; j + 32 <= n; j += 32) {
    const uint32_t bits = keep_mask32(keep + j);
    if (bits == 0) continue;
    if (bits == ~0u) {
      copy_block<sizeof(T)>(src + j, dst + w);
      w += 32;
      continue;
    }
    if (_mm_popcnt_u32(bits) <= kSparseBlock) {
      w += copy_sparse(src + j, bits, dst + w);
      continue;
    }
    w += mixed(src + j, bits, dst + w);
  }
  return w + compact_tail(src + j, keep + j, n - j, dst + w);
}

PARQ_AVX2 inline size_t mixed1(const uint8_t* src, uint32_t bits, uint8_t* dst) {
  size_t w = 0;
  for (int g = 0; g < 4; ++g) {
    const uint32_t b = (bits >> (8 * g)) & 0xff;
    uint64_t v;
    std::memcpy(&v, src + 8 * g, 8);
    const uint64_t packed = _pext_u64(v, byte_mask(b));
    std::memcpy(dst + w, &packed, 8);
    w += static_cast<size_t>(_mm_popcnt_u32(b));
  }
  return w;
}

PARQ_AVX2 inline size_t mixed2(const uint16_t* src, uint32_t bits, uint16_t* dst) {
  // Element index e becomes the byte pair (2e, 2e + 1).
  const __m128i pair_offsets = _mm_set1_epi16(0x0100);
  size_t w = 0;
  for (int g = 0; g < 4; ++g) {
    const uint32_t b = (bits >> (8 * g)) & 0xff;
    __m128i idx = kept_positions(b);
    idx = _mm_unpacklo_epi8(idx, idx);
    idx = _mm_add_epi8(_mm_add_epi8(idx, idx), pair_offsets);
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 8 * g));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + w), _mm_shuffle_epi8(v, idx));
    w += static_cast<size_t>(_mm_popcnt_u32(b));
  }
  return w;
}

PARQ_AVX2 inline size_t mixed4(const uint32_t* src, uint32_t bits, uint32_t* dst) {
  size_t w = 0;
  for (int g = 0; g < 4; ++g) {
    const uint32_t b = (bits >> (8 * g)) & 0xff;
    const __m256i idx = _mm256_cvtepu8_epi32(kept_positions(b));
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 8 * g));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + w), _mm256_permutevar8x32_epi32(v, idx));
    w += static_cast<size_t>(_mm_popcnt_u32(b));
  }
  return w;
}

PARQ_AVX2 inline size_t mixed8(const uint64_t* src, uint32_t bits, uint64_t* dst) {
  size_t w = 0;
  for (int g = 0; g < 8; ++g) {
    const uint32_t b = (bits >> (4 * g)) & 0xf;
    const __m256i idx = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPairOrder[b].lanes));
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 4 * g));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + w), _mm256_permutevar8x32_epi32(v, idx));
    w += static_cast<size_t>(_mm_popcnt_u32(b));
  }
  return w;
}

}  // namespace

const CompactKernels& compact_kernels_avx2() {
  static const CompactKernels k{{&compact_blocks<uint8_t, mixed1>, &compact_blocks<uint16_t, mixed2>,
                                 &compact_blocks<uint32_t, mixed4>, &compact_blocks<uint64_t, mixed8>}};
  return k;
}

}  // namespace parq::encoding::detail
