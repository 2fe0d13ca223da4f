// PLAIN BOOLEAN: bits LSB first, unpacked to one 0/1 byte per value (and
// packed back). The byte-aligned middle of each call goes to a kernel chosen
// by util/cpu.h; the unaligned head and the tail go bit by bit.
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "parq/encoding/plain.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

constexpr uint64_t kOnes = 0x0101010101010101ULL;

// One packed byte to eight 0/1 bytes: replicate it, keep bit i in byte i, and
// turn each non-zero byte into 1 by carrying into its top bit.
inline uint64_t spread_byte(uint8_t b) {
  uint64_t x = (b * kOnes) & 0x8040201008040201ULL;
  return ((x + 0x7F7F7F7F7F7F7F7FULL) >> 7) & kOnes;
}

// Eight bytes (non-zero = true) to one packed byte: first 0/1 per byte, then
// a multiply gathers byte i's bit into bit 56 + i.
inline uint8_t gather_byte(uint64_t x) {
  uint64_t nonzero = (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) >> 7 & kOnes;
  return static_cast<uint8_t>((nonzero * 0x0102040810204080ULL) >> 56);
}

void unpack_scalar(const uint8_t* in, size_t bytes, uint8_t* out) {
  for (size_t i = 0; i < bytes; ++i) {
    uint64_t v = spread_byte(in[i]);
    std::memcpy(out + 8 * i, &v, 8);
  }
}

__attribute__((target("avx2,bmi2"))) void unpack_avx2(const uint8_t* in, size_t bytes, uint8_t* out) {
  const __m256i spread =
      _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bits = _mm256_set1_epi64x(static_cast<int64_t>(0x8040201008040201ULL));
  const __m256i one = _mm256_set1_epi8(1);
  size_t i = 0;
  for (; i + 4 <= bytes; i += 4) {
    uint32_t word;
    std::memcpy(&word, in + i, 4);
    __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(word)), spread);
    v = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bits), bits), one);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * i), v);
  }
  unpack_scalar(in + i, bytes - i, out + 8 * i);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"))) void unpack_avx512(const uint8_t* in, size_t bytes,
                                                                                        uint8_t* out) {
  const __m512i one = _mm512_set1_epi8(1);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t mask;
    std::memcpy(&mask, in + i, 8);
    _mm512_storeu_si512(out + 8 * i, _mm512_maskz_mov_epi8(mask, one));
  }
  unpack_scalar(in + i, bytes - i, out + 8 * i);
}

void pack_scalar(const uint8_t* in, size_t bytes, uint8_t* out) {
  for (size_t i = 0; i < bytes; ++i) {
    uint64_t x;
    std::memcpy(&x, in + 8 * i, 8);
    out[i] = gather_byte(x);
  }
}

__attribute__((target("avx2,bmi2"))) void pack_avx2(const uint8_t* in, size_t bytes, uint8_t* out) {
  const __m256i zero = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 4 <= bytes; i += 4) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 8 * i));
    uint32_t m = ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)));
    std::memcpy(out + i, &m, 4);
  }
  pack_scalar(in + 8 * i, bytes - i, out + i);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"))) void pack_avx512(const uint8_t* in, size_t bytes,
                                                                                      uint8_t* out) {
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    __m512i v = _mm512_loadu_si512(in + 8 * i);
    uint64_t m = _mm512_test_epi8_mask(v, v);
    std::memcpy(out + i, &m, 8);
  }
  pack_scalar(in + 8 * i, bytes - i, out + i);
}

void unpack_bytes(const uint8_t* in, size_t bytes, uint8_t* out) {
  switch (simd_level()) {
    case SimdLevel::kAvx512:
      return unpack_avx512(in, bytes, out);
    case SimdLevel::kAvx2:
      return unpack_avx2(in, bytes, out);
    default:
      return unpack_scalar(in, bytes, out);
  }
}

void pack_bytes(const uint8_t* in, size_t bytes, uint8_t* out) {
  switch (simd_level()) {
    case SimdLevel::kAvx512:
      return pack_avx512(in, bytes, out);
    case SimdLevel::kAvx2:
      return pack_avx2(in, bytes, out);
    default:
      return pack_scalar(in, bytes, out);
  }
}

}  // namespace

void PlainBooleanDecoder::reset(const uint8_t* data, size_t size, size_t num_values) {
  if (num_values > size * 8)
    throw Error("PLAIN BOOLEAN: " + std::to_string(num_values) + " values need " +
                std::to_string((num_values + 7) / 8) + " bytes but the page ends at byte " + std::to_string(size));
  data_ = data;
  num_values_ = num_values;
  index_ = 0;
}

size_t PlainBooleanDecoder::decode(uint8_t* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  size_t bit = index_;
  size_t i = 0;
  for (; i < n && (bit & 7) != 0; ++i, ++bit) out[i] = (data_[bit >> 3] >> (bit & 7)) & 1;
  size_t bytes = (n - i) / 8;
  unpack_bytes(data_ + (bit >> 3), bytes, out + i);
  i += bytes * 8;
  bit += bytes * 8;
  for (; i < n; ++i, ++bit) out[i] = (data_[bit >> 3] >> (bit & 7)) & 1;
  index_ = bit;
  return n;
}

size_t PlainBooleanDecoder::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  index_ += n;
  return n;
}

void PlainBooleanEncoder::put(const uint8_t* values, size_t n) {
  size_t i = 0;
  // Finish the partial last byte first.
  for (; i < n && (num_values_ & 7) != 0; ++i, ++num_values_)
    out_.data()[out_.size() - 1] |= static_cast<uint8_t>((values[i] != 0) << (num_values_ & 7));
  size_t bytes = (n - i) / 8;
  pack_bytes(values + i, bytes, out_.extend(bytes));
  i += bytes * 8;
  num_values_ += bytes * 8;
  for (; i < n; ++i, ++num_values_) {
    if ((num_values_ & 7) == 0) out_.append_value<uint8_t>(0);
    out_.data()[out_.size() - 1] |= static_cast<uint8_t>((values[i] != 0) << (num_values_ & 7));
  }
}

void PlainBooleanEncoder::flush(Buffer& out) {
  detail::move_or_append(out_, out);
  num_values_ = 0;
}

}  // namespace parq::encoding
