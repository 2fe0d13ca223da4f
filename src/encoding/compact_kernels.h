// Compaction ("compress" in SIMD terms): keeping, in order, the elements of
// a run whose keep byte is non-zero. Selection-aware reads
// (LeafReader::read_selected) compact values straight out of a page,
// dictionary indices before their gather and definition levels; keep_records
// compacts what a whole read produced. Scalar, AVX2 + BMI2 and AVX-512
// kernels, chosen by simd_level() at each call.
//
// Private to the library (src/).
#pragma once

#include <emmintrin.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "parq/util/cpu.h"

namespace parq::encoding {

// Bytes past its last kept element a kernel may write (whole vectors stored
// at the tail), unless it compacts in place; a Buffer's padding covers it.
inline constexpr size_t kCompactSlack = 32;

// dst[0, k) = the src[i] with keep[i] != 0, i in [0, n), in order; returns
// k. dst is src (in place), lies below src, or does not overlap it, and has
// kCompactSlack writable bytes past dst[k] in the last case. Pointers need
// no alignment.
size_t compact8(const uint64_t* src, const uint8_t* keep, size_t n, uint64_t* dst);
size_t compact4(const uint32_t* src, const uint8_t* keep, size_t n, uint32_t* dst);
size_t compact2(const uint16_t* src, const uint8_t* keep, size_t n, uint16_t* dst);
size_t compact1(const uint8_t* src, const uint8_t* keep, size_t n, uint8_t* dst);
inline size_t compact_levels(const int16_t* src, const uint8_t* keep, size_t n, int16_t* dst) {
  return compact2(reinterpret_cast<const uint16_t*>(src), keep, n, reinterpret_cast<uint16_t*>(dst));
}
// Elements of any width (the kernels above for 1, 2, 4 and 8 bytes).
size_t compact_width(const uint8_t* src, size_t width, const uint8_t* keep, size_t n, uint8_t* dst);

// How many of keep[0, n) are non-zero.
size_t count_kept(const uint8_t* keep, size_t n);

// Bit i set where keep[i] != 0, i in [0, n), n <= 64.
inline uint64_t keep_bits(const uint8_t* keep, size_t n) {
  if (n == 64) {
    const __m128i zero = _mm_setzero_si128();
    uint64_t zeros = 0;
    for (int q = 0; q < 4; ++q) {
      const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + 16 * q));
      zeros |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(k, zero)))) << (16 * q);
    }
    return ~zeros;
  }
  uint64_t bits = 0;
  for (size_t i = 0; i < n; ++i) bits |= static_cast<uint64_t>(keep[i] != 0) << i;
  return bits;
}

// How a span of a selection is read: nothing kept (skip), everything kept
// (an ordinary read) or some (a selective read).
enum class KeepSpan { kNone, kAll, kSome };

// Unkept runs shorter than this many blocks of 64 flags stay inside the
// span around them: a skip between two selective reads costs more than
// passing over a few values inside one.
inline constexpr size_t kMinSkipBlocks = 4;

// Whether keep[0, 64) are all zero.
inline bool zero_block(const uint8_t* keep) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + 16));
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + 32));
  const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + 48));
  const __m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
  return _mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) == 0xffff;
}

// Splits keep[0, n) into spans and calls fn(kind, begin, count, kept) for
// each in order: kNone spans are unkept runs of at least kMinSkipBlocks
// whole blocks of 64 flags (or ones that end the selection); the flags
// between them form kSome spans of at most max_some flags (a multiple of
// 64), reported as kAll or kNone when they keep all or none. The blocks'
// test is branch-free, so that scattered flags cost no mispredictions; the
// branches are per span.
template <class Fn>
void for_each_keep_span(const uint8_t* keep, size_t n, size_t max_some, Fn&& fn) {
  constexpr size_t kWindow = 64 * 64;
  auto some = [&](size_t begin, size_t end) {
    for (size_t at = begin; at < end; at += max_some) {
      const size_t count = std::min(max_some, end - at);
      const size_t kept = count_kept(keep + at, count);
      fn(kept == 0 ? KeepSpan::kNone : kept == count ? KeepSpan::kAll : KeepSpan::kSome, at, count, kept);
    }
  };
  for (size_t window = 0; window < n; window += kWindow) {
    const size_t flags = std::min(kWindow, n - window);
    const size_t whole = flags / 64;  // the partial last block counts as kept
    const bool last = window + flags == n;
    uint64_t zero = 0;
    for (size_t b = 0; b < whole; ++b) zero |= static_cast<uint64_t>(zero_block(keep + window + 64 * b)) << b;
    const size_t blocks = (flags + 63) / 64;
    const uint64_t valid = blocks == 64 ? ~uint64_t{0} : (uint64_t{1} << blocks) - 1;
    // Runs of zero blocks long enough to skip: those of kMinSkipBlocks, and
    // in the last window those that reach its end.
    const uint64_t padded = zero | (last && whole == blocks ? ~valid : 0);
    uint64_t starts = padded;
    for (size_t k = 1; k < kMinSkipBlocks; ++k) starts &= padded >> k;
    uint64_t skip = starts;
    for (size_t k = 1; k < kMinSkipBlocks; ++k) skip |= starts << k;
    skip &= valid & zero;
    size_t b = 0;
    while (b < blocks) {
      const bool none = (skip >> b) & 1;
      const uint64_t rest = (none ? ~skip : skip) >> b;
      const size_t end = rest == 0 ? blocks : std::min(blocks, b + static_cast<size_t>(std::countr_zero(rest)));
      const size_t from = window + 64 * b, to = std::min(window + 64 * end, window + flags);
      if (none) {
        fn(KeepSpan::kNone, from, to - from, size_t{0});
      } else {
        some(from, to);
      }
      b = end;
    }
  }
}

namespace detail {

// Blocks that keep this few elements copy them one by one, by their bits:
// cheaper than the vector steps over the whole block when a filter keeps
// few rows.
inline constexpr int kSparseBlock = 3;

template <class T, class Bits>
inline size_t copy_sparse(const T* src, Bits bits, T* dst) {
  size_t w = 0;
  for (; bits != 0; bits &= bits - 1) std::memcpy(dst + w++, src + std::countr_zero(bits), sizeof(T));
  return w;
}

// Branch-free: every element is written and the write position advances
// by its flag (dst needs room for n elements). For what the vector loops
// leave, and the scalar kernels' words of flags.
template <class T>
inline size_t compact_tail(const T* src, const uint8_t* keep, size_t n, T* dst) {
  size_t w = 0;
  for (size_t j = 0; j < n; ++j) {
    T v;
    std::memcpy(&v, src + j, sizeof(T));
    std::memcpy(dst + w, &v, sizeof(T));
    w += keep[j] != 0;
  }
  return w;
}

using CompactKernel = size_t (*)(const void* src, const uint8_t* keep, size_t n, void* dst);

// Indexed by log2 of the element width.
struct CompactKernels {
  CompactKernel by_log_width[4];
};

const CompactKernels& compact_kernels_scalar();
const CompactKernels& compact_kernels_avx2();
const CompactKernels& compact_kernels_avx512();
const CompactKernels& compact_kernels(SimdLevel level);

}  // namespace detail
}  // namespace parq::encoding
