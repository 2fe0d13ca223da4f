// Unaligned little-endian loads and short copies, for the byte-array codecs
// (PLAIN, DELTA_BYTE_ARRAY, dictionary strings) and the SNAPPY decoder:
// values and elements are mostly a few dozen bytes, where memcpy's size
// dispatch costs more than the copy itself, so these copy in whole 8/16/32
// bytes and let the caller guarantee room for the overshoot (Buffer padding
// or a decoder's slack on the output side, a bound on the input side).
//
// Private to the library (src/).
#pragma once

#include <emmintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parq::bytes {

inline uint32_t load_u16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void copy8(uint8_t* dst, const uint8_t* src) {
  const uint64_t v = load_u64(src);
  std::memcpy(dst, &v, 8);
}

inline void copy16(uint8_t* dst, const uint8_t* src) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
}

// Copies len bytes in 16-byte steps (none for 0 bytes): reads up to 15
// bytes past src + len and writes as far past dst + len. Each step loads
// after the previous one stored, so a source at least 16 bytes before dst
// reads what this copy wrote (an LZ77 copy that overlaps its output).
inline void copy16_steps(uint8_t* dst, const uint8_t* src, size_t len) {
  for (size_t k = 0; k < len; k += 16) copy16(dst + k, src + k);
}

// Copies 32 bytes.
inline void copy32(uint8_t* dst, const uint8_t* src) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), a);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16), b);
}

// copy8, copy16 or copy32 as a type, for loops made for one copy size
// (Bytes: how far each copy reaches).
template <size_t kN>
struct WholeCopy {
  static constexpr size_t kBytes = kN;
  static void copy(uint8_t* dst, const uint8_t* src) {
    if constexpr (kN == 8) {
      copy8(dst, src);
    } else if constexpr (kN == 16) {
      copy16(dst, src);
    } else {
      static_assert(kN == 32, "copies of 8, 16 or 32 bytes");
      copy32(dst, src);
    }
  }
};

// Copies len bytes from an input that ends at src_end, in 16-byte steps
// when 16 bytes past the value are still input, else exactly; the output
// side needs the 16 bytes of slack either way.
inline void copy_bounded(uint8_t* dst, const uint8_t* src, size_t len, const uint8_t* src_end) {
  if (static_cast<size_t>(src_end - src) >= len + 16) {
    copy16_steps(dst, src, len);
  } else if (len != 0) {
    std::memcpy(dst, src, len);
  }
}

}  // namespace parq::bytes
