// AVX2 ALP decode kernels; see encoding/alp.h. The integers become doubles
// through the magic-number trick (AVX2 has no 64-bit integer conversion):
// the bits of 1.5 * 2^52 plus an integer within 2^51 are that double plus
// the integer, exactly, so a subtraction leaves the integer as a double.
// Vectors whose integers might pass 2^51 go back to the scalar kernel.
#include <immintrin.h>

#include "parq/encoding/alp.h"

#define PARQ_AVX2 __attribute__((target("avx2,bmi2")))

namespace parq::encoding::detail {
namespace {

constexpr double kMagic = 6755399441055744.0;  // 1.5 * 2^52
constexpr int64_t kMagicBits = 0x4338000000000000;

PARQ_AVX2 inline __m256d to_double(__m256i x, __m256d magic) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, _mm256_set1_epi64x(kMagicBits))), magic);
}

}  // namespace

PARQ_AVX2 void alp_float_avx2(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                              float* out) {
  const __m256i b = _mm256_set1_epi32(static_cast<int32_t>(base));
  const __m256 mf = _mm256_set1_ps(mul_factor), me = _mm256_set1_ps(mul_exponent);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i d0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(deltas + i));
    const __m256i d1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(deltas + i + 8));
    const __m256 v0 = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(d0, b)), mf), me);
    const __m256 v1 = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(d1, b)), mf), me);
    _mm256_storeu_ps(out + i, v0);
    _mm256_storeu_ps(out + i + 8, v1);
  }
  alp_float_scalar(deltas + i, n - i, base, mul_factor, mul_exponent, out + i);
}

PARQ_AVX2 bool alp_double32_avx2(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                                 double mul_exponent, double* out) {
  if (!alp_fits_magic(base, max_delta)) return false;
  const __m256i b = _mm256_set1_epi64x(static_cast<int64_t>(base));
  const __m256d magic = _mm256_set1_pd(kMagic);
  const __m256d mf = _mm256_set1_pd(mul_factor), me = _mm256_set1_pd(mul_exponent);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(deltas + i));
    const __m256i x0 = _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(d)), b);
    const __m256i x1 = _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(d, 1)), b);
    _mm256_storeu_pd(out + i, _mm256_mul_pd(_mm256_mul_pd(to_double(x0, magic), mf), me));
    _mm256_storeu_pd(out + i + 4, _mm256_mul_pd(_mm256_mul_pd(to_double(x1, magic), mf), me));
  }
  return alp_double32_scalar(deltas + i, n - i, base, max_delta, mul_factor, mul_exponent, out + i);
}

PARQ_AVX2 bool alp_double64_avx2(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta, double mul_factor,
                                 double mul_exponent, double* out) {
  if (!alp_fits_magic(base, max_delta)) return false;
  const __m256i b = _mm256_set1_epi64x(static_cast<int64_t>(base));
  const __m256d magic = _mm256_set1_pd(kMagic);
  const __m256d mf = _mm256_set1_pd(mul_factor), me = _mm256_set1_pd(mul_exponent);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(deltas + i)), b);
    _mm256_storeu_pd(out + i, _mm256_mul_pd(_mm256_mul_pd(to_double(x, magic), mf), me));
  }
  return alp_double64_scalar(deltas + i, n - i, base, max_delta, mul_factor, mul_exponent, out + i);
}

}  // namespace parq::encoding::detail
