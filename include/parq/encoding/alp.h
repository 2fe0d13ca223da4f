// ALP (AlpEncoding.md, "Adaptive Lossless floating-Point", ALP = 10): FLOAT
// and DOUBLE. A page is a 7-byte header, an offset per vector and vectors
// of up to 2^log_vector_size values. A vector stores each value as the
// integer round(value * 10^e * 10^-f) when integer * 10^f * 10^-e gives the
// value back bit for bit, frame-of-reference and bit-packed; the others
// (NaN, infinities, -0.0, too many digits) are exceptions stored whole
// beside their positions. One (e, f) per vector. Decimal data (prices,
// sensor readings, coordinates) takes a few bytes a value and decodes
// without a general-purpose decompressor.
//
// Written here rather than taken from a library: the encoding is new in
// Parquet (Preview) and no well-kept C++ library implements its page
// layout. The spec has no real-double (ALP_RD) mode, so values without a
// decimal form are all exceptions (slightly larger than PLAIN).
//
// The decoder trusts nothing in the page: every field is checked before
// use and a bad one throws parq::Error naming it. Vectors are found through
// the offsets, so skip() passes over whole vectors without reading them.
// The encoder packs each vector as soon as it is full, so estimated_size()
// is close to what flush() writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "parq/util/buffer.h"
#include "parq/util/cpu.h"

namespace parq::encoding {

inline constexpr int kAlpDefaultLogVectorSize = 10;
inline constexpr size_t kAlpHeaderSize = 7;

// T is float or double.
template <class T>
class AlpDecoder {
 public:
  // num_values may be below the page's count (a page whose tail is unused),
  // never above it. Throws parq::Error for a bad page header or offsets
  // that do not fit the page; vectors are checked when first reached.
  void reset(const uint8_t* data, size_t size, size_t num_values);
  // Writes up to n values; returns how many.
  size_t decode(T* out, size_t n);
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }

 private:
  // Decodes vector v (all its values) to out.
  void decode_vector(size_t v, T* out);
  size_t vector_length(size_t v) const;

  const uint8_t* data_ = nullptr;  // the ALP header
  size_t size_ = 0;
  size_t num_values_ = 0;
  size_t num_elements_ = 0;
  int log_vector_size_ = 0;
  size_t num_vectors_ = 0;
  size_t index_ = 0;
  // The vector a partial read decoded whole, held for the reads after it.
  size_t buffered_ = SIZE_MAX;
  std::vector<T> buffer_;
  std::vector<uint32_t> deltas32_;
  std::vector<uint64_t> deltas64_;
};

// T is float or double.
template <class T>
class AlpEncoder {
 public:
  // log_vector_size in [3, 15] (the spec's range).
  explicit AlpEncoder(int log_vector_size = kAlpDefaultLogVectorSize);

  void put(const T* values, size_t n);
  // Appends a page of everything put since the last flush.
  void flush(Buffer& out);
  size_t estimated_size() const;

 private:
  struct Params {
    uint8_t exponent;
    uint8_t factor;
  };
  void encode_vector(const T* values, size_t n);
  void choose_preset(const T* values, size_t n);
  Params choose_params(const T* values, size_t n) const;

  int log_vector_size_;
  size_t vector_size_;
  std::vector<T> pending_;         // the values of the vector being filled
  Buffer vectors_;                 // the packed vectors of this page
  std::vector<uint32_t> offsets_;  // of each vector in vectors_
  size_t count_ = 0;               // values in vectors_
  size_t vectors_since_preset_ = 0;
  std::vector<Params> preset_;  // the best few (e, f) of a sample
  // Scratch of encode_vector.
  std::vector<int64_t> encoded_;
  std::vector<uint64_t> deltas_;
  std::vector<uint32_t> deltas32_;
  std::vector<uint16_t> exception_positions_;
};

extern template class AlpDecoder<float>;
extern template class AlpDecoder<double>;
extern template class AlpEncoder<float>;
extern template class AlpEncoder<double>;

namespace detail {

// The decode kernels: out[i] = T(int(deltas[i] + base)) * mul_factor *
// mul_exponent, the integer sum wrapping; in the value's precision, two
// multiplications, as the spec requires. One per SIMD level, exposed for
// the tests and benchmarks that compare levels.
using AlpFloatKernel = void (*)(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                                float* out);
// The double kernels take 32-bit deltas (bit width <= 32, the common
// case) or 64-bit ones; SIMD kernels may hand vectors whose integers pass
// 2^51 in magnitude back to the scalar one (they return false).
// max_delta bounds the deltas (2^bit_width - 1).
using AlpDouble32Kernel = bool (*)(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta,
                                   double mul_factor, double mul_exponent, double* out);
using AlpDouble64Kernel = bool (*)(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta,
                                   double mul_factor, double mul_exponent, double* out);

AlpFloatKernel alp_float_kernel(SimdLevel level);
AlpDouble32Kernel alp_double32_kernel(SimdLevel level);
AlpDouble64Kernel alp_double64_kernel(SimdLevel level);

void alp_float_scalar(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                      float* out);
bool alp_double32_scalar(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                         double mul_exponent, double* out);
bool alp_double64_scalar(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                         double mul_exponent, double* out);
void alp_float_avx2(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent, float* out);
bool alp_double32_avx2(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                       double mul_exponent, double* out);
bool alp_double64_avx2(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                       double mul_exponent, double* out);
void alp_float_avx512(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                      float* out);
bool alp_double32_avx512(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                         double mul_exponent, double* out);
bool alp_double64_avx512(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                         double mul_exponent, double* out);

// Whether the integers base + [0, max_delta] all lie within [-2^51, 2^51],
// where the SIMD kernels convert them to double exactly without AVX-512DQ.
inline bool alp_fits_magic(uint64_t base, uint64_t max_delta) {
  constexpr int64_t kLimit = int64_t{1} << 51;
  const auto lo = static_cast<int64_t>(base);
  return lo >= -kLimit && lo <= kLimit && max_delta <= static_cast<uint64_t>(kLimit - lo);
}

// The spec's constants: 10^k and 10^-k, correctly rounded, k in [0, 18]
// (float: [0, 10]).
extern const double kAlpPow10[19];
extern const double kAlpNegPow10[19];
extern const float kAlpPow10Float[11];
extern const float kAlpNegPow10Float[11];

}  // namespace detail
}  // namespace parq::encoding
