// Compaction kernels, the portable ones and the dispatch; see
// encoding/compact_kernels.h. The scalar loop is branch-free (the write
// position advances by the flag), so that a mask of scattered kept values
// costs no mispredictions; words of eight unkept flags are passed over whole.
#include "encoding/compact_kernels.h"

#include <emmintrin.h>

#include <cstring>

namespace parq::encoding {
namespace {

template <class T>
size_t compact_scalar(const T* src, const uint8_t* keep, size_t n, T* dst) {
  size_t w = 0, j = 0;
  while (j < n) {
    if (j + 8 <= n) {
      uint64_t flags;
      std::memcpy(&flags, keep + j, 8);
      if (flags == 0) {
        j += 8;
        continue;
      }
      w += detail::compact_tail(src + j, keep + j, 8, dst + w);
      j += 8;
      continue;
    }
    return w + detail::compact_tail(src + j, keep + j, n - j, dst + w);
  }
  return w;
}

template <class T>
size_t erased_scalar(const void* src, const uint8_t* keep, size_t n, void* dst) {
  return compact_scalar(static_cast<const T*>(src), keep, n, static_cast<T*>(dst));
}

struct Bytes12 {
  uint8_t b[12];
};
struct Bytes16 {
  uint8_t b[16];
};

size_t kernel_call(int log_width, const void* src, const uint8_t* keep, size_t n, void* dst) {
  return detail::compact_kernels(simd_level()).by_log_width[log_width](src, keep, n, dst);
}

}  // namespace

namespace detail {

const CompactKernels& compact_kernels_scalar() {
  static const CompactKernels k{
      {&erased_scalar<uint8_t>, &erased_scalar<uint16_t>, &erased_scalar<uint32_t>, &erased_scalar<uint64_t>}};
  return k;
}

const CompactKernels& compact_kernels(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return compact_kernels_avx512();
    case SimdLevel::kAvx2:
      return compact_kernels_avx2();
    case SimdLevel::kScalar:
      break;
  }
  return compact_kernels_scalar();
}

}  // namespace detail

size_t compact8(const uint64_t* src, const uint8_t* keep, size_t n, uint64_t* dst) {
  return kernel_call(3, src, keep, n, dst);
}
size_t compact4(const uint32_t* src, const uint8_t* keep, size_t n, uint32_t* dst) {
  return kernel_call(2, src, keep, n, dst);
}
size_t compact2(const uint16_t* src, const uint8_t* keep, size_t n, uint16_t* dst) {
  return kernel_call(1, src, keep, n, dst);
}
size_t compact1(const uint8_t* src, const uint8_t* keep, size_t n, uint8_t* dst) {
  return kernel_call(0, src, keep, n, dst);
}

size_t compact_width(const uint8_t* src, size_t width, const uint8_t* keep, size_t n, uint8_t* dst) {
  switch (width) {
    case 1:
      return kernel_call(0, src, keep, n, dst);
    case 2:
      return kernel_call(1, src, keep, n, dst);
    case 4:
      return kernel_call(2, src, keep, n, dst);
    case 8:
      return kernel_call(3, src, keep, n, dst);
    case 12:
      return compact_scalar(reinterpret_cast<const Bytes12*>(src), keep, n, reinterpret_cast<Bytes12*>(dst));
    case 16:
      return compact_scalar(reinterpret_cast<const Bytes16*>(src), keep, n, reinterpret_cast<Bytes16*>(dst));
    default:
      break;
  }
  size_t w = 0;
  for (size_t j = 0; j < n; ++j) {
    if (keep[j] == 0) continue;
    if (dst + w * width != src + j * width) std::memmove(dst + w * width, src + j * width, width);
    ++w;
  }
  return w;
}

// SSE2 (every x86-64 has it): a byte compare and a sum of absolute
// differences count 16 flags at a time.
size_t count_kept(const uint8_t* keep, size_t n) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i one = _mm_set1_epi8(1);
  __m128i sums = zero;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + i));
    sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_andnot_si128(_mm_cmpeq_epi8(k, zero), one), zero));
  }
  size_t count = static_cast<size_t>(_mm_cvtsi128_si64(sums)) +
                 static_cast<size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  for (; i < n; ++i) count += keep[i] != 0;
  return count;
}

}  // namespace parq::encoding
