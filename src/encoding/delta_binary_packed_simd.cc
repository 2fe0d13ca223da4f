// DELTA_BINARY_PACKED decode kernels: unpack a miniblock's deltas, add the
// min delta and prefix-sum them in registers, so values are written once and
// the packed bytes are read once. Unpacking and summing in two passes over a
// buffer costs about twice as much at small widths.
//
// Unpacking puts each value's bytes into its 32-bit lane with a byte shuffle,
// then shifts by the lane's bit offset. A value can straddle five bytes (bit
// offset up to 7, width up to 32); the fifth byte comes from a second shuffle,
// shifted left. Groups of 8 values at width w are exactly w bytes long, so
// every group starts on a byte and the shuffles depend on the width alone.
#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 flags the deliberately undefined vectors inside its own AVX-512
// intrinsic headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace parq::encoding::dbp_kernels {
namespace {

constexpr int kMaxWidth = 32;

uint32_t low_mask(int width) { return width == 32 ? ~0u : (1u << width) - 1; }

// AVX2: lanes 0..3 of a group come from the 16 bytes at its start, lanes
// 4..7 from the 16 bytes at w/2 (the byte holding bit 4w), since shuffles
// cannot cross 128-bit halves.
struct Avx2Table {
  alignas(32) uint8_t lo[32];
  alignas(32) uint8_t hi[32];
  alignas(32) uint32_t shift[8];
  alignas(32) uint32_t hi_shift[8];
  bool needs_hi;
};

// AVX-512 (VBMI): 16 values at width w are 2w <= 64 bytes, one register.
struct Avx512Table {
  alignas(64) uint8_t lo[64];
  alignas(64) uint8_t hi[64];
  alignas(64) uint32_t shift[16];
  alignas(64) uint32_t hi_shift[16];
  bool needs_hi;
};

// Lane `lane` holds the value at bit `bit` of the bytes its shuffle sees
// (kLaneBytes of them: 16 for AVX2's in-half shuffles, 64 for VBMI's).
template <class Table, int kLaneBytes>
void fill_lane(Table& t, int lane, int width, int bit) {
  const int byte = bit / 8;
  const int shift = bit % 8;
  for (int k = 0; k < 4; ++k) {
    int idx = byte + k;
    t.lo[lane * 4 + k] = idx < kLaneBytes ? static_cast<uint8_t>(idx) : 0x80;
    t.hi[lane * 4 + k] = 0x80;
  }
  if (shift + width > 32) {
    t.hi[lane * 4] = static_cast<uint8_t>(byte + 4);
    t.needs_hi = true;
  }
  t.shift[lane] = static_cast<uint32_t>(shift);
  t.hi_shift[lane] = static_cast<uint32_t>(32 - shift);
}

std::array<Avx2Table, kMaxWidth + 1> make_avx2_tables() {
  std::array<Avx2Table, kMaxWidth + 1> tables{};
  for (int w = 0; w <= kMaxWidth; ++w) {
    Avx2Table& t = tables[w];
    for (int lane = 0; lane < 8; ++lane) {
      int bit = lane < 4 ? lane * w : 4 * w - 8 * (w / 2) + (lane - 4) * w;
      fill_lane<Avx2Table, 16>(t, lane, w, bit);
    }
  }
  return tables;
}

std::array<Avx512Table, kMaxWidth + 1> make_avx512_tables() {
  std::array<Avx512Table, kMaxWidth + 1> tables{};
  for (int w = 0; w <= kMaxWidth; ++w)
    for (int lane = 0; lane < 16; ++lane) fill_lane<Avx512Table, 64>(tables[w], lane, w, lane * w);
  return tables;
}

// AVX-512, 64-bit values of 33..64 bits: 8 values are w <= 64 bytes; a value
// can straddle nine bytes.
struct Avx512WideTable {
  alignas(64) uint8_t lo[64];
  alignas(64) uint8_t hi[64];
  alignas(64) uint64_t shift[8];
  alignas(64) uint64_t hi_shift[8];
};

std::array<Avx512WideTable, 65> make_avx512_wide_tables() {
  std::array<Avx512WideTable, 65> tables{};
  for (int w = kMaxWidth + 1; w <= 64; ++w) {
    Avx512WideTable& t = tables[w];
    for (int lane = 0; lane < 8; ++lane) {
      const int bit = lane * w, byte = bit / 8, shift = bit % 8;
      for (int k = 0; k < 8; ++k) {
        t.lo[lane * 8 + k] = static_cast<uint8_t>(byte + k);
        t.hi[lane * 8 + k] = 0x80;
      }
      if (shift + w > 64) t.hi[lane * 8] = static_cast<uint8_t>(byte + 8);
      t.shift[lane] = static_cast<uint64_t>(shift);
      t.hi_shift[lane] = static_cast<uint64_t>(64 - shift);
    }
  }
  return tables;
}

const std::array<Avx512WideTable, 65> kAvx512WideTables = make_avx512_wide_tables();
const std::array<Avx2Table, kMaxWidth + 1> kAvx2Tables = make_avx2_tables();
const std::array<Avx512Table, kMaxWidth + 1> kAvx512Tables = make_avx512_tables();

// ---- AVX2 ------------------------------------------------------------------

struct Avx2Unpacker {
  __m256i lo, hi, shift, hi_shift, mask;
  bool needs_hi;
  int width;

  __attribute__((target("avx2"))) explicit Avx2Unpacker(int w) {
    const Avx2Table& t = kAvx2Tables[w];
    lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.lo));
    hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.hi));
    shift = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shift));
    hi_shift = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.hi_shift));
    mask = _mm256_set1_epi32(static_cast<int>(low_mask(w)));
    needs_hi = t.needs_hi;
    width = w;
  }

  // The 8 values of the group at p (w bytes; reads 32).
  __attribute__((target("avx2"))) __m256i operator()(const uint8_t* p) const {
    if (width == 0) return _mm256_setzero_si256();
    __m256i bytes =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + width / 2)), 1);
    __m256i v = _mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, lo), shift);
    if (needs_hi) v = _mm256_or_si256(v, _mm256_sllv_epi32(_mm256_shuffle_epi8(bytes, hi), hi_shift));
    return _mm256_and_si256(v, mask);
  }
};

__attribute__((target("avx2"))) inline __m256i prefix8x32(__m256i x) {
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
  x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
  // Carry the low half's total into the high half.
  __m256i carry = _mm256_shuffle_epi32(_mm256_permute2x128_si256(x, x, 0x08), 0xFF);
  return _mm256_add_epi32(x, carry);
}

__attribute__((target("avx2"))) inline __m256i prefix4x64(__m256i x) {
  x = _mm256_add_epi64(x, _mm256_slli_si256(x, 8));
  __m256i carry = _mm256_blend_epi32(_mm256_setzero_si256(), _mm256_permute4x64_epi64(x, 0x55), 0xF0);
  return _mm256_add_epi64(x, carry);
}

// ---- AVX-512 ---------------------------------------------------------------

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

struct Avx512Unpacker {
  __m512i lo, hi, shift, hi_shift, mask;
  __mmask64 load_mask;
  bool needs_hi;
  int width;

  PARQ_AVX512 explicit Avx512Unpacker(int w) {
    const Avx512Table& t = kAvx512Tables[w];
    lo = _mm512_load_si512(t.lo);
    hi = _mm512_load_si512(t.hi);
    shift = _mm512_load_si512(t.shift);
    hi_shift = _mm512_load_si512(t.hi_shift);
    mask = _mm512_set1_epi32(static_cast<int>(low_mask(w)));
    load_mask = w == 32 ? ~__mmask64{0} : (__mmask64{1} << (2 * w)) - 1;
    needs_hi = t.needs_hi;
    width = w;
  }

  // The 16 values at p (2w bytes; the masked load reads nothing more).
  PARQ_AVX512 __m512i operator()(const uint8_t* p) const {
    if (width == 0) return _mm512_setzero_si512();
    __m512i bytes = _mm512_maskz_loadu_epi8(load_mask, p);
    __m512i v = _mm512_srlv_epi32(_mm512_permutexvar_epi8(lo, bytes), shift);
    if (needs_hi) v = _mm512_or_si512(v, _mm512_sllv_epi32(_mm512_permutexvar_epi8(hi, bytes), hi_shift));
    return _mm512_and_si512(v, mask);
  }
};

PARQ_AVX512 inline __m512i prefix16x32(__m512i x) {
  const __m512i zero = _mm512_setzero_si512();
  x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 15));
  x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 14));
  x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 12));
  return _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 8));
}

PARQ_AVX512 inline __m512i prefix8x64(__m512i x) {
  const __m512i zero = _mm512_setzero_si512();
  x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 7));
  x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 6));
  return _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 4));
}

}  // namespace

// 64-bit values wider than 32 bits, one at a time: an unaligned 8-byte load,
// plus a ninth byte when the value straddles it. Reads up to 8 bytes past
// the packed bytes.
uint64_t unpack_prefix_wide(const uint8_t* in, size_t groups, int width, uint64_t min_delta, uint64_t last,
                            uint64_t* out) {
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  const size_t n = groups * 32;
  for (size_t i = 0; i < n; ++i) {
    const size_t bit = i * static_cast<size_t>(width);
    const unsigned shift = bit % 8;
    uint64_t v;
    std::memcpy(&v, in + bit / 8, 8);
    v >>= shift;
    if (shift + static_cast<unsigned>(width) > 64) v |= uint64_t{in[bit / 8 + 8]} << (64 - shift);
    last += (v & mask) + min_delta;
    out[i] = last;
  }
  return last;
}

PARQ_AVX512 uint64_t unpack_prefix_wide_avx512(const uint8_t* in, size_t groups, int width, uint64_t min_delta,
                                               uint64_t last, uint64_t* out) {
  const Avx512WideTable& t = kAvx512WideTables[width];
  const __m512i lo = _mm512_load_si512(t.lo), hi = _mm512_load_si512(t.hi);
  const __m512i shift = _mm512_load_si512(t.shift), hi_shift = _mm512_load_si512(t.hi_shift);
  const __m512i mask = _mm512_set1_epi64(width == 64 ? -1 : static_cast<int64_t>((uint64_t{1} << width) - 1));
  const __mmask64 load_mask = width == 64 ? ~__mmask64{0} : (__mmask64{1} << width) - 1;
  const __m512i vmin = _mm512_set1_epi64(static_cast<int64_t>(min_delta));
  const __m512i top = _mm512_set1_epi64(7);
  __m512i vlast = _mm512_set1_epi64(static_cast<int64_t>(last));
  const size_t steps = groups * 4;
  for (size_t s = 0; s < steps; ++s, in += width, out += 8) {
    __m512i bytes = _mm512_maskz_loadu_epi8(load_mask, in);
    __m512i v = _mm512_srlv_epi64(_mm512_permutexvar_epi8(lo, bytes), shift);
    v = _mm512_or_si512(v, _mm512_sllv_epi64(_mm512_permutexvar_epi8(hi, bytes), hi_shift));
    __m512i x = prefix8x64(_mm512_add_epi64(_mm512_and_si512(v, mask), vmin));
    _mm512_storeu_si512(out, _mm512_add_epi64(x, vlast));
    vlast = _mm512_add_epi64(vlast, _mm512_permutexvar_epi64(top, x));
  }
  return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(vlast)));
}

// Each step's running total is added off the critical path: the chain from
// one step to the next is a single vector add.

__attribute__((target("avx2"))) uint32_t unpack_prefix_avx2(const uint8_t* in, size_t groups, int width,
                                                            uint32_t min_delta, uint32_t last, uint32_t* out) {
  const Avx2Unpacker unpack(width);
  const __m256i vmin = _mm256_set1_epi32(static_cast<int>(min_delta));
  const __m256i top = _mm256_set1_epi32(7);
  __m256i vlast = _mm256_set1_epi32(static_cast<int>(last));
  const size_t steps = groups * 4;
  for (size_t s = 0; s < steps; ++s, in += width, out += 8) {
    __m256i x = prefix8x32(_mm256_add_epi32(unpack(in), vmin));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_add_epi32(x, vlast));
    vlast = _mm256_add_epi32(vlast, _mm256_permutevar8x32_epi32(x, top));
  }
  return static_cast<uint32_t>(_mm256_cvtsi256_si32(vlast));
}

__attribute__((target("avx2"))) uint64_t unpack_prefix_avx2(const uint8_t* in, size_t groups, int width,
                                                            uint64_t min_delta, uint64_t last, uint64_t* out) {
  const Avx2Unpacker unpack(width);
  const __m256i vmin = _mm256_set1_epi64x(static_cast<int64_t>(min_delta));
  __m256i vlast = _mm256_set1_epi64x(static_cast<int64_t>(last));
  const size_t steps = groups * 4;
  for (size_t s = 0; s < steps; ++s, in += width, out += 8) {
    __m256i x = unpack(in);
    __m256i a = prefix4x64(_mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(x)), vmin));
    __m256i b = prefix4x64(_mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1)), vmin));
    __m256i a_total = _mm256_permute4x64_epi64(a, 0xFF);
    b = _mm256_add_epi64(b, a_total);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_add_epi64(a, vlast));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4), _mm256_add_epi64(b, vlast));
    vlast = _mm256_add_epi64(vlast, _mm256_permute4x64_epi64(b, 0xFF));
  }
  return static_cast<uint64_t>(_mm256_extract_epi64(vlast, 0));
}

PARQ_AVX512 uint32_t unpack_prefix_avx512(const uint8_t* in, size_t groups, int width, uint32_t min_delta,
                                          uint32_t last, uint32_t* out) {
  const Avx512Unpacker unpack(width);
  const __m512i vmin = _mm512_set1_epi32(static_cast<int>(min_delta));
  const __m512i top = _mm512_set1_epi32(15);
  __m512i vlast = _mm512_set1_epi32(static_cast<int>(last));
  const size_t steps = groups * 2;
  for (size_t s = 0; s < steps; ++s, in += 2 * width, out += 16) {
    __m512i x = prefix16x32(_mm512_add_epi32(unpack(in), vmin));
    _mm512_storeu_si512(out, _mm512_add_epi32(x, vlast));
    vlast = _mm512_add_epi32(vlast, _mm512_permutexvar_epi32(top, x));
  }
  return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm512_castsi512_si128(vlast)));
}

PARQ_AVX512 uint64_t unpack_prefix_avx512(const uint8_t* in, size_t groups, int width, uint64_t min_delta,
                                          uint64_t last, uint64_t* out) {
  const Avx512Unpacker unpack(width);
  const __m512i vmin = _mm512_set1_epi64(static_cast<int64_t>(min_delta));
  const __m512i top = _mm512_set1_epi64(7);
  __m512i vlast = _mm512_set1_epi64(static_cast<int64_t>(last));
  const size_t steps = groups * 2;
  for (size_t s = 0; s < steps; ++s, in += 2 * width, out += 16) {
    __m512i x = unpack(in);
    __m512i a = prefix8x64(_mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(x)), vmin));
    __m512i b = prefix8x64(_mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(x, 1)), vmin));
    b = _mm512_add_epi64(b, _mm512_permutexvar_epi64(top, a));
    _mm512_storeu_si512(out, _mm512_add_epi64(a, vlast));
    _mm512_storeu_si512(out + 8, _mm512_add_epi64(b, vlast));
    vlast = _mm512_add_epi64(vlast, _mm512_permutexvar_epi64(top, b));
  }
  return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm512_castsi512_si128(vlast)));
}

}  // namespace parq::encoding::dbp_kernels
