// AVX-512 (VBMI) bit unpacking kernels; see encoding/bit_packing.h.
//
// One 64-byte load covers 16 values of up to 32 bits (2W bytes) or 8 values
// of up to 64 bits (W bytes). VPERMB moves the bytes that start each value
// into its lane from anywhere in the register, a per-lane shift aligns the
// value and a mask cuts it. Values that straddle one byte more than the lane
// holds take a second permute of the bytes one further on.
#include <immintrin.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "parq/encoding/bit_packing.h"

// GCC 12 flags the deliberately undefined source operand inside its own
// permute intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx2,bmi2")))

namespace parq::encoding::detail {
namespace {

// Lane layout for `lanes` values of `lane_bytes` bytes at width w.
template <int kLanes, int kLaneBytes>
struct Plan {
  alignas(64) uint8_t first[64];  // the bytes starting at each value's first byte
  alignas(64) uint8_t next[64];   // the same, one byte further on
  using Lane = std::conditional_t<kLaneBytes == 4, uint32_t, uint64_t>;
  alignas(64) Lane right[kLanes];
  alignas(64) Lane left[kLanes];
  uint64_t mask = 0;
  bool straddles = false;

  static Plan make(int w) {
    Plan p{};
    p.mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    for (int lane = 0; lane < kLanes; ++lane) {
      const int bit = lane * w;
      p.right[lane] = static_cast<Lane>(bit % 8);
      p.left[lane] = 8 - p.right[lane];
      if (bit % 8 + w > 8 * kLaneBytes) p.straddles = true;
      for (int k = 0; k < kLaneBytes; ++k) {
        // Indices wrap modulo 64; wrapped bytes only land above the value.
        p.first[lane * kLaneBytes + k] = static_cast<uint8_t>((bit / 8 + k) & 63);
        p.next[lane * kLaneBytes + k] = static_cast<uint8_t>((bit / 8 + k + 1) & 63);
      }
    }
    return p;
  }
};

using Plan32 = Plan<16, 4>;
using Plan64 = Plan<8, 8>;

template <class P, int kMax>
const P& plan_for(int w) {
  static const std::array<P, kMax + 1> plans = [] {
    std::array<P, kMax + 1> a{};
    for (int i = 1; i <= kMax; ++i) a[i] = P::make(i);
    return a;
  }();
  return plans[w];
}

template <bool kStraddles>
PARQ_AVX512 void unpack32_blocks(const uint8_t* in, size_t blocks, size_t w, const Plan32& p, uint32_t* out) {
  const __m512i first = _mm512_load_si512(p.first);
  const __m512i next = _mm512_load_si512(p.next);
  const __m512i right = _mm512_load_si512(p.right);
  const __m512i left = _mm512_load_si512(p.left);
  const __m512i mask = _mm512_set1_epi32(static_cast<int>(p.mask));
  const size_t stride = 2 * w;
  for (size_t b = 0; b < blocks; ++b) {
    const __m512i bytes = _mm512_loadu_si512(in + b * stride);
    __m512i v = _mm512_srlv_epi32(_mm512_permutexvar_epi8(first, bytes), right);
    if constexpr (kStraddles) v = _mm512_or_si512(v, _mm512_sllv_epi32(_mm512_permutexvar_epi8(next, bytes), left));
    _mm512_storeu_si512(out + b * 16, _mm512_and_si512(v, mask));
  }
}

template <bool kStraddles>
PARQ_AVX512 void unpack64_blocks(const uint8_t* in, size_t blocks, size_t w, const Plan64& p, uint64_t* out) {
  const __m512i first = _mm512_load_si512(p.first);
  const __m512i next = _mm512_load_si512(p.next);
  const __m512i right = _mm512_load_si512(p.right);
  const __m512i left = _mm512_load_si512(p.left);
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(p.mask));
  for (size_t b = 0; b < blocks; ++b) {
    const __m512i bytes = _mm512_loadu_si512(in + b * w);
    __m512i v = _mm512_srlv_epi64(_mm512_permutexvar_epi8(first, bytes), right);
    if constexpr (kStraddles) v = _mm512_or_si512(v, _mm512_sllv_epi64(_mm512_permutexvar_epi8(next, bytes), left));
    _mm512_storeu_si512(out + b * 8, _mm512_and_si512(v, mask));
  }
}

// How many blocks of `stride` bytes, each loading 64 bytes from its start,
// stay within `readable`.
inline size_t loadable_blocks(size_t readable, size_t stride) {
  return readable < 64 ? 0 : (readable - 64) / stride + 1;
}

}  // namespace

PARQ_AVX512 size_t unpack32_avx512(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint32_t));
    return count;
  }
  const size_t w = static_cast<size_t>(bit_width);
  size_t blocks = count / 16;
  if (size_t loadable = loadable_blocks(readable, 2 * w); blocks > loadable) blocks = loadable;
  const Plan32& p = plan_for<Plan32, 32>(bit_width);
  if (p.straddles) {
    unpack32_blocks<true>(in, blocks, w, p, out);
  } else {
    unpack32_blocks<false>(in, blocks, w, p, out);
  }
  // A last group of 8 (or values near the end of `readable`) go the AVX2 way,
  // whose loads reach less far.
  const size_t done = blocks * 16, skip = blocks * 2 * w;
  return done + unpack32_avx2(in + skip, readable - skip, count - done, bit_width, out + done);
}

PARQ_AVX512 size_t unpack64_avx512(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint64_t));
    return count;
  }
  const size_t w = static_cast<size_t>(bit_width);
  size_t blocks = count / 8;
  if (size_t loadable = loadable_blocks(readable, w); blocks > loadable) blocks = loadable;
  const Plan64& p = plan_for<Plan64, 64>(bit_width);
  if (p.straddles) {
    unpack64_blocks<true>(in, blocks, w, p, out);
  } else {
    unpack64_blocks<false>(in, blocks, w, p, out);
  }
  const size_t done = blocks * 8, skip = blocks * w;
  return done + unpack64_scalar(in + skip, readable - skip, count - done, bit_width, out + done);
}

// ---- pack ------------------------------------------------------------------

namespace {

// 16 values of width 8 < w <= 32 to 2w bytes (used for 16 < w < 32): each value, zero-extended to
// 64 bits and shifted by its bit offset within its first byte, spans at most
// 5 bytes; its bytes go to their output positions with a two-source byte
// permute. Neighbours share at most one byte and values two apart none, so
// the even values and the odd values each permute without collisions and an
// OR joins them.
struct PackPlan {
  alignas(64) uint8_t even[64];
  alignas(64) uint8_t odd[64];
  alignas(64) uint64_t shift_lo[8];
  alignas(64) uint64_t shift_hi[8];
  uint64_t even_mask = 0, odd_mask = 0, store_mask = 0;

  static PackPlan make(int w) {
    PackPlan p{};
    for (int i = 0; i < 16; ++i) {
      const int bit = i * w;
      (i < 8 ? p.shift_lo[i] : p.shift_hi[i - 8]) = static_cast<uint64_t>(bit % 8);
      const int first = bit / 8, last = (bit + w - 1) / 8;
      for (int byte = first; byte <= last; ++byte) {
        // Byte (byte - first) of value i's lane: lane i % 8 of the low (i < 8)
        // or high (index bit 6) register.
        const auto src = static_cast<uint8_t>((i >= 8 ? 64 : 0) + (i % 8) * 8 + (byte - first));
        if (i % 2 == 0) {
          p.even[byte] = src;
          p.even_mask |= uint64_t{1} << byte;
        } else {
          p.odd[byte] = src;
          p.odd_mask |= uint64_t{1} << byte;
        }
      }
    }
    p.store_mask = w == 32 ? ~uint64_t{0} : (uint64_t{1} << (2 * w)) - 1;
    return p;
  }
};

PARQ_AVX512 size_t pack32_permute(const uint32_t* in, size_t count, int w, uint8_t* out) {
  static const std::array<PackPlan, 33> plans = [] {
    std::array<PackPlan, 33> a{};
    for (int i = 9; i <= 32; ++i) a[i] = PackPlan::make(i);
    return a;
  }();
  const PackPlan& p = plans[w];
  const __m512i even = _mm512_load_si512(p.even);
  const __m512i odd = _mm512_load_si512(p.odd);
  const __m512i shift_lo = _mm512_load_si512(p.shift_lo);
  const __m512i shift_hi = _mm512_load_si512(p.shift_hi);
  const size_t stride = 2 * static_cast<size_t>(w);
  const size_t blocks = count / 16;
  for (size_t b = 0; b < blocks; ++b) {
    const __m512i lo = _mm512_sllv_epi64(
        _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 16 * b))), shift_lo);
    const __m512i hi = _mm512_sllv_epi64(
        _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 16 * b + 8))), shift_hi);
    const __m512i v = _mm512_or_si512(_mm512_maskz_permutex2var_epi8(p.even_mask, lo, even, hi),
                                      _mm512_maskz_permutex2var_epi8(p.odd_mask, lo, odd, hi));
    _mm512_mask_storeu_epi8(out + b * stride, p.store_mask, v);
  }
  return blocks * 16;
}

// Width 16: truncate each value to its low half.
PARQ_AVX512 size_t pack32_halves(const uint32_t* in, size_t count, uint8_t* out) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * i), _mm512_cvtepi32_epi16(_mm512_loadu_si512(in + i)));
  return i;
}

}  // namespace

PARQ_AVX512 size_t pack32_avx512(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t writable) {
  // Below 16 bits the PEXT kernel is faster than the permutes.
  if (bit_width < 16) return pack32_bmi2(in, count, bit_width, out, writable);
  size_t done;
  if (bit_width == 32) {
    done = count / 8 * 8;
    if (done != 0) std::memcpy(out, in, done * 4);
  } else if (bit_width == 16) {
    done = pack32_halves(in, count, out);
  } else {
    done = pack32_permute(in, count, bit_width, out);
  }
  const size_t w = static_cast<size_t>(bit_width);
  return done + pack32_scalar(in + done, count - done, bit_width, out + done / 8 * w, writable - done / 8 * w);
}

}  // namespace parq::encoding::detail
