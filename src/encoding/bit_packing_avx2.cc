// AVX2 + BMI2 bit packing kernels; see encoding/bit_packing.h.
//
// Unpack: 8 values at width W take exactly W bytes. Each 128-bit half of a
// register holds the bytes of 4 values; a byte shuffle moves the 4 bytes that
// start each value into its 32-bit lane, a per-lane shift drops the bits of
// the previous value and a mask those of the next. Values that straddle 5
// bytes (shift + W > 32) take a second shuffle of the bytes one further on.
//
// Pack: for W <= 16, values are narrowed to 8 or 16 bits with saturating packs
// and squeezed together with PEXT, one 64-bit word at a time.
#include <immintrin.h>

#include <array>
#include <cstring>

#include "parq/encoding/bit_packing.h"

namespace parq::encoding::detail {
namespace {

struct Avx2Plan {
  alignas(32) uint8_t shuffle_lo[32];  // first 4 bytes of each lane's value
  alignas(32) uint8_t shuffle_hi[32];  // the 4 bytes after the first
  alignas(32) uint32_t right[8];       // bit offset of each value in its first byte
  alignas(32) uint32_t left[8];        // 8 - right: where the second shuffle's bytes go
  uint32_t mask = 0;
  // Where the upper half's bytes start; 0 when all 8 values fit 16 bytes
  // (W <= 16) and one broadcast load serves both halves.
  uint32_t upper_offset = 0;
  bool straddles = false;
};

Avx2Plan make_plan(int w) {
  Avx2Plan p{};
  p.mask = w == 32 ? ~0u : (1u << w) - 1;
  p.upper_offset = w <= 16 ? 0 : static_cast<uint32_t>(4 * w / 8);
  for (int lane = 0; lane < 8; ++lane) {
    const int half = lane / 4;
    const int bit = lane * w - 8 * static_cast<int>(half ? p.upper_offset : 0);
    const int start = bit / 8;
    p.right[lane] = static_cast<uint32_t>(bit % 8);
    p.left[lane] = 8 - p.right[lane];
    if (bit % 8 + w > 32) p.straddles = true;
    for (int k = 0; k < 4; ++k) {
      // Bytes past the 16 loaded only hold bits above the value.
      const int lo = start + k, hi = start + 1 + k;
      p.shuffle_lo[half * 16 + (lane % 4) * 4 + k] = lo < 16 ? static_cast<uint8_t>(lo) : 0x80;
      p.shuffle_hi[half * 16 + (lane % 4) * 4 + k] = hi < 16 ? static_cast<uint8_t>(hi) : 0x80;
    }
  }
  return p;
}

const Avx2Plan& plan_for(int w) {
  static const std::array<Avx2Plan, 33> plans = [] {
    std::array<Avx2Plan, 33> a{};
    for (int w = 1; w <= 32; ++w) a[w] = make_plan(w);
    return a;
  }();
  return plans[w];
}

template <bool kBroadcast, bool kStraddles>
__attribute__((target("avx2,bmi2"))) void unpack_blocks(const uint8_t* in, size_t blocks, int w, const Avx2Plan& p,
                                                        uint32_t* out) {
  const __m256i shuffle_lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(p.shuffle_lo));
  const __m256i shuffle_hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(p.shuffle_hi));
  const __m256i right = _mm256_load_si256(reinterpret_cast<const __m256i*>(p.right));
  const __m256i left = _mm256_load_si256(reinterpret_cast<const __m256i*>(p.left));
  const __m256i mask = _mm256_set1_epi32(static_cast<int>(p.mask));
  const size_t upper = p.upper_offset;
  for (size_t b = 0; b < blocks; ++b) {
    const uint8_t* src = in + b * static_cast<size_t>(w);
    __m256i bytes;
    if constexpr (kBroadcast) {
      bytes = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
    } else {
      bytes = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src))),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + upper)), 1);
    }
    __m256i v = _mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, shuffle_lo), right);
    if constexpr (kStraddles) v = _mm256_or_si256(v, _mm256_sllv_epi32(_mm256_shuffle_epi8(bytes, shuffle_hi), left));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + b * 8), _mm256_and_si256(v, mask));
  }
}

}  // namespace

__attribute__((target("avx2,bmi2"))) size_t unpack32_avx2(const uint8_t* in, size_t readable, size_t count,
                                                          int bit_width, uint32_t* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint32_t));
    return count;
  }
  const Avx2Plan& p = plan_for(bit_width);
  const size_t w = static_cast<size_t>(bit_width);
  const size_t reach = p.upper_offset + 16;
  size_t blocks = count / 8;
  // Block b loads bytes [b * w, b * w + reach).
  const size_t loadable = readable < reach ? 0 : (readable - reach) / w + 1;
  if (blocks > loadable) blocks = loadable;
  if (p.upper_offset == 0) {
    unpack_blocks<true, false>(in, blocks, bit_width, p, out);
  } else if (!p.straddles) {
    unpack_blocks<false, false>(in, blocks, bit_width, p, out);
  } else {
    unpack_blocks<false, true>(in, blocks, bit_width, p, out);
  }
  return blocks * 8;
}

namespace {

// Repeats a field mask of `lane` bits over 64 bits.
constexpr uint64_t repeat_mask(int w, int lane) {
  uint64_t field = (uint64_t{1} << w) - 1, m = 0;
  for (int i = 0; i < 64; i += lane) m |= field << i;
  return m;
}

__attribute__((target("avx2,bmi2"))) inline __m128i narrow16(const uint32_t* in) {
  return _mm_packus_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)),
                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4)));
}

// 16 values a step: two words of 8 bytes, W bytes of output each.
__attribute__((target("avx2,bmi2"))) size_t pack_bytes(const uint32_t* in, size_t groups, int w, uint8_t* out) {
  const uint64_t m = repeat_mask(w, 8);
  size_t g = 0;
  for (; g + 2 <= groups; g += 2) {
    const __m128i bytes = _mm_packus_epi16(narrow16(in + g * 8), narrow16(in + g * 8 + 8));
    const uint64_t a = _pext_u64(static_cast<uint64_t>(_mm_cvtsi128_si64(bytes)), m);
    const uint64_t b = _pext_u64(static_cast<uint64_t>(_mm_extract_epi64(bytes, 1)), m);
    std::memcpy(out + g * w, &a, 8);
    std::memcpy(out + (g + 1) * w, &b, 8);
  }
  for (; g < groups; ++g) {
    const __m128i bytes = _mm_packus_epi16(narrow16(in + g * 8), _mm_setzero_si128());
    const uint64_t a = _pext_u64(static_cast<uint64_t>(_mm_cvtsi128_si64(bytes)), m);
    std::memcpy(out + g * w, &a, 8);
  }
  return groups * 8;
}

// 8 values a step: two words of 4 halves; 4W bits each, W bytes together.
__attribute__((target("avx2,bmi2"))) size_t pack_halves(const uint32_t* in, size_t groups, int w, uint8_t* out) {
  const uint64_t m = repeat_mask(w, 16);
  const unsigned split = static_cast<unsigned>(4 * w);  // 36..60 (W = 16 stores the halves directly)
  for (size_t g = 0; g < groups; ++g) {
    const __m128i halves = narrow16(in + g * 8);
    const uint64_t a = _pext_u64(static_cast<uint64_t>(_mm_cvtsi128_si64(halves)), m);
    const uint64_t b = _pext_u64(static_cast<uint64_t>(_mm_extract_epi64(halves, 1)), m);
    const uint64_t words[2] = {a | (b << split), b >> (64 - split)};
    std::memcpy(out + g * w, words, 16);
  }
  return groups * 8;
}

}  // namespace

__attribute__((target("avx2,bmi2"))) size_t pack32_bmi2(const uint32_t* in, size_t count, int bit_width, uint8_t* out,
                                                        size_t writable) {
  if (bit_width == 0) return count;
  const size_t w = static_cast<size_t>(bit_width);
  size_t groups = count / 8;
  size_t fast = 0;
  if (bit_width < 16) {
    // Each group stores a word (or two) past its W bytes: stop where that
    // would cross `writable`, and let the portable kernel finish exactly.
    const size_t store = bit_width <= 8 ? 8 : 16;
    fast = writable < store ? 0 : (writable - store) / w + 1;
    if (fast > groups) fast = groups;
    if (bit_width <= 8) {
      pack_bytes(in, fast, bit_width, out);
    } else {
      pack_halves(in, fast, bit_width, out);
    }
  }
  const size_t done = fast * 8;
  return done + pack32_scalar(in + done, count - done, bit_width, out + fast * w, writable - fast * w);
}

}  // namespace parq::encoding::detail
