// AVX-512 ALP decode kernels; see encoding/alp.h and alp_avx2.cc for the
// magic-number conversion of integers to doubles, used here too because the
// level parq calls AVX-512 (F, BW, VL, VBMI) does not promise DQ's 64-bit
// integer conversions.
#include <immintrin.h>

#include "parq/encoding/alp.h"

// GCC 12 flags the deliberately undefined source operand inside its own
// conversion intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx2,bmi2")))

namespace parq::encoding::detail {
namespace {

constexpr double kMagic = 6755399441055744.0;  // 1.5 * 2^52
constexpr int64_t kMagicBits = 0x4338000000000000;

PARQ_AVX512 inline __m512d to_double(__m512i x, __m512d magic) {
  return _mm512_sub_pd(_mm512_castsi512_pd(_mm512_add_epi64(x, _mm512_set1_epi64(kMagicBits))), magic);
}

}  // namespace

PARQ_AVX512 void alp_float_avx512(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                                  float* out) {
  const __m512i b = _mm512_set1_epi32(static_cast<int32_t>(base));
  const __m512 mf = _mm512_set1_ps(mul_factor), me = _mm512_set1_ps(mul_exponent);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512i d0 = _mm512_loadu_si512(deltas + i);
    const __m512i d1 = _mm512_loadu_si512(deltas + i + 16);
    _mm512_storeu_ps(out + i, _mm512_mul_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(d0, b)), mf), me));
    _mm512_storeu_ps(out + i + 16, _mm512_mul_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(d1, b)), mf), me));
  }
  alp_float_scalar(deltas + i, n - i, base, mul_factor, mul_exponent, out + i);
}

PARQ_AVX512 bool alp_double32_avx512(const uint32_t* deltas, size_t n, uint64_t base, uint64_t max_delta,
                                     double mul_factor, double mul_exponent, double* out) {
  if (!alp_fits_magic(base, max_delta)) return false;
  const __m512i b = _mm512_set1_epi64(static_cast<int64_t>(base));
  const __m512d magic = _mm512_set1_pd(kMagic);
  const __m512d mf = _mm512_set1_pd(mul_factor), me = _mm512_set1_pd(mul_exponent);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i d = _mm512_loadu_si512(deltas + i);
    const __m512i x0 = _mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(d)), b);
    const __m512i x1 = _mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(d, 1)), b);
    _mm512_storeu_pd(out + i, _mm512_mul_pd(_mm512_mul_pd(to_double(x0, magic), mf), me));
    _mm512_storeu_pd(out + i + 8, _mm512_mul_pd(_mm512_mul_pd(to_double(x1, magic), mf), me));
  }
  return alp_double32_scalar(deltas + i, n - i, base, max_delta, mul_factor, mul_exponent, out + i);
}

PARQ_AVX512 bool alp_double64_avx512(const uint64_t* deltas, size_t n, uint64_t base, uint64_t max_delta,
                                     double mul_factor, double mul_exponent, double* out) {
  if (!alp_fits_magic(base, max_delta)) return false;
  const __m512i b = _mm512_set1_epi64(static_cast<int64_t>(base));
  const __m512d magic = _mm512_set1_pd(kMagic);
  const __m512d mf = _mm512_set1_pd(mul_factor), me = _mm512_set1_pd(mul_exponent);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i x = _mm512_add_epi64(_mm512_loadu_si512(deltas + i), b);
    _mm512_storeu_pd(out + i, _mm512_mul_pd(_mm512_mul_pd(to_double(x, magic), mf), me));
  }
  return alp_double64_scalar(deltas + i, n - i, base, max_delta, mul_factor, mul_exponent, out + i);
}

}  // namespace parq::encoding::detail
