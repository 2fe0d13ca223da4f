// BYTE_STREAM_SPLIT decoder and encoder, and the byte transposition kernels
// they (and bitshuffle) run on; see encoding/byte_stream_split.h.
//
// Kernels for width W in {2, 4, 8} treat W streams as W vectors and
// interleave them in log2(W) rounds: round r zips neighbouring vectors at a
// granularity of 2^r bytes (bytes, then pairs, then quads), which turns W
// stream vectors into W vectors of whole values. Encoding runs the rounds
// backwards with unzips. AVX-512 zips with one two-source byte permute
// (VBMI); AVX2's unpack instructions only zip within 128-bit lanes, so each
// lane runs the rounds on its own and one cross-lane permute per output
// vector puts the lanes in order.
#include "parq/encoding/byte_stream_split.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "parq/encoding/plain.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

// ---- portable ---------------------------------------------------------------

template <size_t W>
void encode_fixed_scalar(const uint8_t* values, size_t begin, size_t n, uint8_t* out, size_t stride) {
  for (size_t i = begin; i < n; ++i)
    for (size_t b = 0; b < W; ++b) out[b * stride + i] = values[i * W + b];
}

template <size_t W>
void decode_fixed_scalar(const uint8_t* streams, size_t stride, size_t begin, size_t n, uint8_t* out) {
  for (size_t i = begin; i < n; ++i)
    for (size_t b = 0; b < W; ++b) out[i * W + b] = streams[b * stride + i];
}

// Any width: blocks of values so that each stream is written (read)
// sequentially while the block's values stay in L1.
void encode_any_scalar(const uint8_t* values, size_t n, size_t width, uint8_t* out, size_t stride) {
  constexpr size_t kBlock = 256;
  for (size_t i0 = 0; i0 < n; i0 += kBlock) {
    size_t i1 = std::min(n, i0 + kBlock);
    for (size_t b = 0; b < width; ++b) {
      uint8_t* s = out + b * stride;
      for (size_t i = i0; i < i1; ++i) s[i] = values[i * width + b];
    }
  }
}

void decode_any_scalar(const uint8_t* streams, size_t stride, size_t n, size_t width, uint8_t* out) {
  constexpr size_t kBlock = 256;
  for (size_t i0 = 0; i0 < n; i0 += kBlock) {
    size_t i1 = std::min(n, i0 + kBlock);
    for (size_t b = 0; b < width; ++b) {
      const uint8_t* s = streams + b * stride;
      for (size_t i = i0; i < i1; ++i) out[i * width + b] = s[i];
    }
  }
}

// ---- AVX2 ------------------------------------------------------------------

#define PARQ_AVX2 __attribute__((target("avx2,bmi2"), always_inline)) inline

template <int G>
PARQ_AVX2 __m256i zip_lo(__m256i a, __m256i b) {
  if constexpr (G == 1) return _mm256_unpacklo_epi8(a, b);
  if constexpr (G == 2) return _mm256_unpacklo_epi16(a, b);
  if constexpr (G == 4) return _mm256_unpacklo_epi32(a, b);
  if constexpr (G == 8) return _mm256_unpacklo_epi64(a, b);
}
template <int G>
PARQ_AVX2 __m256i zip_hi(__m256i a, __m256i b) {
  if constexpr (G == 1) return _mm256_unpackhi_epi8(a, b);
  if constexpr (G == 2) return _mm256_unpackhi_epi16(a, b);
  if constexpr (G == 4) return _mm256_unpackhi_epi32(a, b);
  if constexpr (G == 8) return _mm256_unpackhi_epi64(a, b);
}

// Per 16-byte lane: the even G-byte units, then the odd ones.
template <int G>
constexpr std::array<int8_t, 32> evens_then_odds() {
  std::array<int8_t, 32> idx{};
  for (int lane = 0; lane < 2; ++lane)
    for (int p = 0; p < 16; ++p) {
      int half = p / 8, q = p % 8;
      idx[lane * 16 + p] = static_cast<int8_t>((2 * (q / G) + half) * G + q % G);
    }
  return idx;
}

template <int G>
PARQ_AVX2 void unzip(__m256i lo, __m256i hi, __m256i& a, __m256i& b) {
  static constexpr auto kIdx = evens_then_odds<G>();
  const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kIdx.data()));
  lo = _mm256_shuffle_epi8(lo, idx);
  hi = _mm256_shuffle_epi8(hi, idx);
  a = _mm256_unpacklo_epi64(lo, hi);
  b = _mm256_unpackhi_epi64(lo, hi);
}

// Round with granularity G over segments of SEG vectors: neighbours 2j and
// 2j+1 of a segment zip into positions j (low halves) and SEG/2 + j (high).
template <int W, int SEG, int G>
PARQ_AVX2 void zip_rounds(__m256i* v) {
  if constexpr (SEG >= 2) {
    __m256i t[W];
    for (int s = 0; s < W; s += SEG)
      for (int j = 0; j < SEG / 2; ++j) {
        t[s + j] = zip_lo<G>(v[s + 2 * j], v[s + 2 * j + 1]);
        t[s + SEG / 2 + j] = zip_hi<G>(v[s + 2 * j], v[s + 2 * j + 1]);
      }
    for (int k = 0; k < W; ++k) v[k] = t[k];
    zip_rounds<W, SEG / 2, G * 2>(v);
  }
}

template <int W, int SEG, int G>
PARQ_AVX2 void unzip_rounds(__m256i* v) {
  if constexpr (SEG <= W) {
    __m256i t[W];
    for (int s = 0; s < W; s += SEG)
      for (int j = 0; j < SEG / 2; ++j) unzip<G>(v[s + j], v[s + SEG / 2 + j], t[s + 2 * j], t[s + 2 * j + 1]);
    for (int k = 0; k < W; ++k) v[k] = t[k];
    unzip_rounds<W, SEG * 2, G / 2>(v);
  }
}

template <int W>
__attribute__((target("avx2,bmi2"))) void decode_avx2(const uint8_t* streams, size_t stride, size_t n, uint8_t* out) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i v[W];
    for (int b = 0; b < W; ++b) v[b] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(streams + b * stride + i));
    zip_rounds<W, W, 1>(v);
    // v[j]: lane 0 holds values j*16/W.., lane 1 the same 16 values later.
    __m256i* dst = reinterpret_cast<__m256i*>(out + i * W);
    for (int k = 0; k < W / 2; ++k) {
      _mm256_storeu_si256(dst + k, _mm256_permute2x128_si256(v[2 * k], v[2 * k + 1], 0x20));
      _mm256_storeu_si256(dst + W / 2 + k, _mm256_permute2x128_si256(v[2 * k], v[2 * k + 1], 0x31));
    }
  }
  decode_fixed_scalar<W>(streams, stride, i, n, out);
}

template <int W>
__attribute__((target("avx2,bmi2"))) void encode_avx2(const uint8_t* values, size_t n, uint8_t* out, size_t stride) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i* src = reinterpret_cast<const __m256i*>(values + i * W);
    __m256i v[W];
    for (int k = 0; k < W / 2; ++k) {
      __m256i a = _mm256_loadu_si256(src + k), b = _mm256_loadu_si256(src + W / 2 + k);
      v[2 * k] = _mm256_permute2x128_si256(a, b, 0x20);
      v[2 * k + 1] = _mm256_permute2x128_si256(a, b, 0x31);
    }
    unzip_rounds<W, 2, W / 2>(v);
    for (int b = 0; b < W; ++b) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + b * stride + i), v[b]);
  }
  encode_fixed_scalar<W>(values, i, n, out, stride);
}

// ---- AVX-512 -----------------------------------------------------------------

#define PARQ_AVX512_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"
#define PARQ_AVX512 __attribute__((target(PARQ_AVX512_TARGET), always_inline)) inline

// Byte indices for _mm512_permutex2var_epi8 (bit 6 picks the second source).
// zip: output unit e is unit e/2 of a (e even) or of b (e odd), from the low
// (kind 0) or high (kind 1) half. unzip: units 2e (kind 2) or 2e+1 (kind 3)
// of lo:hi.
template <int G, int kKind>
constexpr std::array<uint8_t, 64> permute_index() {
  std::array<uint8_t, 64> idx{};
  for (int p = 0; p < 64; ++p) {
    int e = p / G, k = p % G;
    int src = 0;
    if constexpr (kKind <= 1) src = (e / 2) * G + k + (e % 2) * 64 + kKind * 32;
    if constexpr (kKind >= 2) src = (2 * e + (kKind - 2)) * G + k;
    idx[p] = static_cast<uint8_t>(src);
  }
  return idx;
}

template <int G, int kKind>
PARQ_AVX512 __m512i permute2(__m512i a, __m512i b) {
  alignas(64) static constexpr auto kIdx = permute_index<G, kKind>();
  return _mm512_permutex2var_epi8(a, _mm512_load_si512(kIdx.data()), b);
}

template <int W, int SEG, int G>
PARQ_AVX512 void zip_rounds512(__m512i* v) {
  if constexpr (SEG >= 2) {
    __m512i t[W];
    for (int s = 0; s < W; s += SEG)
      for (int j = 0; j < SEG / 2; ++j) {
        t[s + j] = permute2<G, 0>(v[s + 2 * j], v[s + 2 * j + 1]);
        t[s + SEG / 2 + j] = permute2<G, 1>(v[s + 2 * j], v[s + 2 * j + 1]);
      }
    for (int k = 0; k < W; ++k) v[k] = t[k];
    zip_rounds512<W, SEG / 2, G * 2>(v);
  }
}

template <int W, int SEG, int G>
PARQ_AVX512 void unzip_rounds512(__m512i* v) {
  if constexpr (SEG <= W) {
    __m512i t[W];
    for (int s = 0; s < W; s += SEG)
      for (int j = 0; j < SEG / 2; ++j) {
        t[s + 2 * j] = permute2<G, 2>(v[s + j], v[s + SEG / 2 + j]);
        t[s + 2 * j + 1] = permute2<G, 3>(v[s + j], v[s + SEG / 2 + j]);
      }
    for (int k = 0; k < W; ++k) v[k] = t[k];
    unzip_rounds512<W, SEG * 2, G / 2>(v);
  }
}

template <int W>
__attribute__((target(PARQ_AVX512_TARGET))) void decode_avx512(const uint8_t* streams, size_t stride, size_t n,
                                                               uint8_t* out) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i v[W];
    for (int b = 0; b < W; ++b) v[b] = _mm512_loadu_si512(streams + b * stride + i);
    zip_rounds512<W, W, 1>(v);
    for (int k = 0; k < W; ++k) _mm512_storeu_si512(out + i * W + 64 * k, v[k]);
  }
  decode_fixed_scalar<W>(streams, stride, i, n, out);
}

template <int W>
__attribute__((target(PARQ_AVX512_TARGET))) void encode_avx512(const uint8_t* values, size_t n, uint8_t* out,
                                                               size_t stride) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i v[W];
    for (int k = 0; k < W; ++k) v[k] = _mm512_loadu_si512(values + i * W + 64 * k);
    unzip_rounds512<W, 2, W / 2>(v);
    for (int b = 0; b < W; ++b) _mm512_storeu_si512(out + b * stride + i, v[b]);
  }
  encode_fixed_scalar<W>(values, i, n, out, stride);
}

// ---- dispatch ----------------------------------------------------------------

// The portable fixed-width loops compiled for each instruction set: GCC
// vectorises them with interleaving shuffles (for width 4 better than the
// hand-written AVX2 rounds, and for widths 3, 5..15 several times better
// than the any-width loop).
template <int W>
__attribute__((target("avx2,bmi2"))) void decode_fixed_avx2(const uint8_t* streams, size_t stride, size_t n,
                                                            uint8_t* out) {
  decode_fixed_scalar<W>(streams, stride, 0, n, out);
}
template <int W>
__attribute__((target(PARQ_AVX512_TARGET))) void decode_fixed_avx512(const uint8_t* streams, size_t stride, size_t n,
                                                                     uint8_t* out) {
  decode_fixed_scalar<W>(streams, stride, 0, n, out);
}
template <int W>
__attribute__((target("avx2,bmi2"))) void encode_fixed_avx2(const uint8_t* values, size_t n, uint8_t* out,
                                                            size_t stride) {
  encode_fixed_scalar<W>(values, 0, n, out, stride);
}
template <int W>
__attribute__((target(PARQ_AVX512_TARGET))) void encode_fixed_avx512(const uint8_t* values, size_t n, uint8_t* out,
                                                                     size_t stride) {
  encode_fixed_scalar<W>(values, 0, n, out, stride);
}
// Width 3 (FLBA(3)): 64 values (three registers) a step; each stream's 64
// bytes come from two byte permutes, one over the first two registers and
// one over the third for the values whose bytes lie there. The compiled loop
// ran at a third of the decoder's speed.
struct Encode3Tables {
  alignas(64) uint8_t low[3][64];   // for permutex2var over registers 0 and 1
  alignas(64) uint8_t high[3][64];  // for permutexvar over register 2
  uint64_t from_high[3];            // the lanes taken from register 2
};

constexpr Encode3Tables make_encode3_tables() {
  Encode3Tables t{};
  for (int stream = 0; stream < 3; ++stream) {
    t.from_high[stream] = 0;
    for (int j = 0; j < 64; ++j) {
      const int at = 3 * j + stream;
      t.low[stream][j] = static_cast<uint8_t>(at < 128 ? at : 0);
      t.high[stream][j] = static_cast<uint8_t>(at >= 128 ? at - 128 : 0);
      if (at >= 128) t.from_high[stream] |= uint64_t{1} << j;
    }
  }
  return t;
}

__attribute__((target(PARQ_AVX512_TARGET))) void encode3_avx512(const uint8_t* values, size_t n, uint8_t* out,
                                                                size_t stride) {
  static constexpr Encode3Tables kTables = make_encode3_tables();
  size_t i = 0;
  // Two steps at a time, so that each stream gets 128 contiguous bytes.
  for (; i + 128 <= n; i += 128) {
    const uint8_t* v = values + i * 3;
    const __m512i a0 = _mm512_loadu_si512(v), b0 = _mm512_loadu_si512(v + 64), c0 = _mm512_loadu_si512(v + 128);
    const __m512i a1 = _mm512_loadu_si512(v + 192), b1 = _mm512_loadu_si512(v + 256);
    const __m512i c1 = _mm512_loadu_si512(v + 320);
    for (int stream = 0; stream < 3; ++stream) {
      const __m512i low_index = _mm512_load_si512(kTables.low[stream]);
      const __m512i high_index = _mm512_load_si512(kTables.high[stream]);
      const __mmask64 high = kTables.from_high[stream];
      const __m512i s0 =
          _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(a0, low_index, b0), high, high_index, c0);
      const __m512i s1 =
          _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(a1, low_index, b1), high, high_index, c1);
      _mm512_storeu_si512(out + stream * stride + i, s0);
      _mm512_storeu_si512(out + stream * stride + i + 64, s1);
    }
  }
  encode_fixed_scalar<3>(values, i, n, out, stride);
}

template <int W>
void decode_portable(const uint8_t* streams, size_t stride, size_t n, uint8_t* out) {
  decode_fixed_scalar<W>(streams, stride, 0, n, out);
}
// Unvectorised, the fixed-width encode loop scatters bytes across W streams
// per value; above width 4 the blocked any-width loop is faster.
template <int W>
void encode_portable(const uint8_t* values, size_t n, uint8_t* out, size_t stride) {
  if constexpr (W <= 4) {
    encode_fixed_scalar<W>(values, 0, n, out, stride);
  } else {
    encode_any_scalar(values, n, W, out, stride);
  }
}

using DecodeFn = void (*)(const uint8_t* streams, size_t stride, size_t n, uint8_t* out);
using EncodeFn = void (*)(const uint8_t* values, size_t n, uint8_t* out, size_t stride);

// Widths up to this have a kernel of their own; wider ones take the blocked
// any-width loop.
constexpr size_t kMaxFixedWidth = 16;

// Per level and width, the fastest kernel measured (bench/byte_stream_split_bench):
// the zip rounds for 2, 8 and 16 (and 4 on AVX-512), a byte permute for the
// width-3 encoder on AVX-512, the compiled loops otherwise.
template <int W>
constexpr DecodeFn decoder_for(SimdLevel level) {
  constexpr bool kZip = W == 2 || W == 4 || W == 8 || W == 16;
  if (level == SimdLevel::kAvx512) return kZip ? &decode_avx512<(kZip ? W : 2)> : &decode_fixed_avx512<W>;
  if (level == SimdLevel::kAvx2) return kZip && W != 4 ? &decode_avx2<(kZip ? W : 2)> : &decode_fixed_avx2<W>;
  return &decode_portable<W>;
}
template <int W>
constexpr EncodeFn encoder_for(SimdLevel level) {
  constexpr bool kZip = W == 2 || W == 4 || W == 8 || W == 16;
  if (level == SimdLevel::kAvx512 && W == 3) return &encode3_avx512;
  if (level == SimdLevel::kAvx512) return kZip ? &encode_avx512<(kZip ? W : 2)> : &encode_fixed_avx512<W>;
  if (level == SimdLevel::kAvx2) return kZip ? &encode_avx2<(kZip ? W : 2)> : &encode_fixed_avx2<W>;
  return &encode_portable<W>;
}

template <size_t... W>
constexpr std::array<std::array<DecodeFn, 3>, sizeof...(W)> decode_table(std::index_sequence<W...>) {
  return {std::array<DecodeFn, 3>{decoder_for<static_cast<int>(W) + 1>(SimdLevel::kScalar),
                                  decoder_for<static_cast<int>(W) + 1>(SimdLevel::kAvx2),
                                  decoder_for<static_cast<int>(W) + 1>(SimdLevel::kAvx512)}...};
}
template <size_t... W>
constexpr std::array<std::array<EncodeFn, 3>, sizeof...(W)> encode_table(std::index_sequence<W...>) {
  return {std::array<EncodeFn, 3>{encoder_for<static_cast<int>(W) + 1>(SimdLevel::kScalar),
                                  encoder_for<static_cast<int>(W) + 1>(SimdLevel::kAvx2),
                                  encoder_for<static_cast<int>(W) + 1>(SimdLevel::kAvx512)}...};
}

// Indexed by [width - 1][level]; width 1 is a copy and never looked up.
constexpr auto kDecoders = decode_table(std::make_index_sequence<kMaxFixedWidth>{});
constexpr auto kEncoders = encode_table(std::make_index_sequence<kMaxFixedWidth>{});

}  // namespace

void byte_stream_split_encode(const uint8_t* values, size_t n, size_t width, uint8_t* out, size_t stride) {
  if (width == 1) {
    if (n != 0) std::memcpy(out, values, n);
  } else if (width <= kMaxFixedWidth) {
    kEncoders[width - 1][static_cast<int>(simd_level())](values, n, out, stride);
  } else {
    encode_any_scalar(values, n, width, out, stride);
  }
}

void byte_stream_split_decode(const uint8_t* streams, size_t stride, size_t n, size_t width, uint8_t* out) {
  if (width == 1) {
    if (n != 0) std::memcpy(out, streams, n);
  } else if (width <= kMaxFixedWidth) {
    kDecoders[width - 1][static_cast<int>(simd_level())](streams, stride, n, out);
  } else {
    decode_any_scalar(streams, stride, n, width, out);
  }
}

// ---- decoder -------------------------------------------------------------------

ByteStreamSplitDecoder::ByteStreamSplitDecoder(size_t width) : width_(width) {
  if (width == 0) throw Error("BYTE_STREAM_SPLIT: width 0 (at byte 0)");
}

void ByteStreamSplitDecoder::check_type_width(size_t bytes) const {
  if (bytes != width_)
    throw Error("BYTE_STREAM_SPLIT: decoding " + std::to_string(bytes) + "-byte values from a stream of width " +
                std::to_string(width_) + " (at value " + std::to_string(index_) + ")");
}

void ByteStreamSplitDecoder::reset(const uint8_t* data, size_t size, size_t num_values) {
  if (size % width_ != 0)
    throw Error("BYTE_STREAM_SPLIT: page of " + std::to_string(size) + " bytes is not a multiple of the width " +
                std::to_string(width_) + " (the last " + std::to_string(size % width_) + " bytes from byte " +
                std::to_string(size - size % width_) + ")");
  if (num_values > size / width_)
    throw Error("BYTE_STREAM_SPLIT: " + std::to_string(num_values) + " values of width " + std::to_string(width_) +
                " need more than the " + std::to_string(size) + " bytes of the page (data ends at byte " +
                std::to_string(size) + ")");
  data_ = data;
  stride_ = size / width_;
  num_values_ = num_values;
  index_ = 0;
}

size_t ByteStreamSplitDecoder::decode(uint8_t* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  byte_stream_split_decode(data_ + index_, stride_, n, width_, out);
  index_ += n;
  return n;
}

size_t ByteStreamSplitDecoder::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  index_ += n;
  return n;
}

// ---- encoder -------------------------------------------------------------------

ByteStreamSplitEncoder::ByteStreamSplitEncoder(size_t width) : width_(width) {
  if (width == 0) throw Error("BYTE_STREAM_SPLIT: width 0 (at byte 0)");
}

void ByteStreamSplitEncoder::check_type_width(size_t bytes) const {
  if (bytes != width_)
    throw Error("BYTE_STREAM_SPLIT: encoding " + std::to_string(bytes) + "-byte values into a stream of width " +
                std::to_string(width_) + " (at byte " + std::to_string(pending_.size()) + ")");
}

void ByteStreamSplitEncoder::put(const uint8_t* values, size_t n) { pending_.append(values, n * width_); }

void ByteStreamSplitEncoder::flush(Buffer& out) {
  size_t n = pending_.size() / width_;
  byte_stream_split_encode(pending_.data(), n, width_, out.extend(pending_.size()), n);
  pending_.clear();
}

}  // namespace parq::encoding
