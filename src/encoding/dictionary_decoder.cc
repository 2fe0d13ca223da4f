// DictionaryDecoder; see encoding/dictionary_decoder.h. Indices are unpacked a
// block of 512 at a time into an L1-resident buffer by the bit unpacking
// kernels, the block's maximum is checked against the dictionary size
// (unless the bit width cannot name an entry past its end), and
// the gather runs over the block (register permutes for small dictionaries,
// else hardware gathers, but for 8-byte entries at AVX2: plain loads).
// Repeated indices are filled without materialising them.
#include "parq/encoding/dictionary_decoder.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "encoding/dictionary_gather.h"
#include "encoding/simd_fill.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/byte_copy.h"

// GCC 12 flags the deliberately undefined source operand inside its own
// gather intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parq::encoding {
namespace {

[[noreturn]] void fail_index(const uint32_t* indices, size_t n, size_t dictionary_size) {
  for (size_t i = 0; i < n; ++i)
    if (indices[i] >= dictionary_size)
      throw Error("RLE_DICTIONARY: dictionary index " + std::to_string(indices[i]) +
                  " out of range for a dictionary of " + std::to_string(dictionary_size) + " entries");
  throw Error("RLE_DICTIONARY: dictionary index out of range");
}

uint32_t max_scalar(const uint32_t* v, size_t n) {
  uint32_t m = 0;
  for (size_t i = 0; i < n; ++i) m = std::max(m, v[i]);
  return m;
}

__attribute__((target("avx2,bmi2"))) uint32_t max_avx2(const uint32_t* v, size_t n) {
  __m256i m = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) m = _mm256_max_epu32(m, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)));
  __m128i h = _mm_max_epu32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
  h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0x4e));
  h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0xb1));
  uint32_t r = static_cast<uint32_t>(_mm_cvtsi128_si32(h));
  for (; i < n; ++i) r = std::max(r, v[i]);
  return r;
}

// The masked forms, with every lane taken: GCC 12's plain forms pass an
// undefined operand that -Wuninitialized reports.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) inline __m512i max_u32x16(__m512i a, __m512i b) {
  return _mm512_mask_max_epu32(a, static_cast<__mmask16>(0xffff), a, b);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) uint32_t max_avx512(const uint32_t* v, size_t n) {
  __m512i a = _mm512_setzero_si512(), b = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a = max_u32x16(a, _mm512_loadu_si512(v + i));
    b = max_u32x16(b, _mm512_loadu_si512(v + i + 16));
  }
  if (i + 16 <= n) {
    a = max_u32x16(a, _mm512_loadu_si512(v + i));
    i += 16;
  }
  const __mmask16 rest = static_cast<__mmask16>((1u << (n - i)) - 1);
  alignas(64) uint32_t lanes[16];
  _mm512_store_si512(lanes, max_u32x16(max_u32x16(a, b), _mm512_maskz_loadu_epi32(rest, v + i)));
  return *std::max_element(lanes, lanes + 16);
}

void check_indices(const uint32_t* v, size_t n, size_t dictionary_size) {
  const SimdLevel level = simd_level();
  const uint32_t m = level >= SimdLevel::kAvx512 ? max_avx512(v, n)
                     : level >= SimdLevel::kAvx2 ? max_avx2(v, n)
                                                 : max_scalar(v, n);
  if (m >= dictionary_size) fail_index(v, n, dictionary_size);
}

// Bit-packed indices of `bit_width` bits are below 2^bit_width: a
// dictionary of at least that many entries needs no check of them. (A
// repeated index is checked once a run, however wide.)
bool packed_always_in_range(int bit_width, size_t dictionary_size) {
  return bit_width < 32 && (uint64_t{1} << bit_width) <= dictionary_size;
}

// Gathers of 4- and 8-byte entries, by bit pattern.
template <class U>
void gather_scalar(const U* dict, const uint32_t* idx, size_t n, U* out) {
  for (size_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) void gather32_avx512(const uint32_t* dict,
                                                                               const uint32_t* idx, size_t n,
                                                                               uint32_t* out) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i ix = _mm512_loadu_si512(idx + i);
    _mm512_storeu_si512(out + i, _mm512_i32gather_epi32(ix, dict, 4));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) void gather64_avx512(const uint64_t* dict,
                                                                               const uint32_t* idx, size_t n,
                                                                               uint64_t* out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i));
    _mm512_storeu_si512(out + i, _mm512_i32gather_epi64(ix, dict, 8));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

__attribute__((target("avx2,bmi2"))) void gather32_avx2(const uint32_t* dict, const uint32_t* idx, size_t n,
                                                        uint32_t* out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_i32gather_epi32(reinterpret_cast<const int*>(dict), ix, 4));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

// Eight-byte entries at AVX2: four plain loads joined into one 32-byte
// store. vpgatherdq is slower than loads on AMD's cores of this level (and
// Intel's microcode against Gather Data Sampling slows that generation's
// gathers too); storing each value apart is slower again when the output
// lies 2-4 KiB past the index block modulo 4 KiB, where each store is taken
// for a write to the indices the next loads read. (The 4-byte hardware
// gather held its own against loads there.)
__attribute__((target("avx2,bmi2"))) void gather64_avx2(const uint64_t* dict, const uint32_t* idx, size_t n,
                                                        uint64_t* out) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(dict + idx[i]));
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(dict + idx[i + 1]));
    const __m128i c = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(dict + idx[i + 2]));
    const __m128i d = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(dict + idx[i + 3]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_set_m128i(_mm_unpacklo_epi64(c, d), _mm_unpacklo_epi64(a, b)));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

// Small dictionaries live in registers: a lane permute replaces the gather
// (16 entries of 4 bytes in one zmm, 32 in two; 8 or 16 of 8 bytes).
// Indices are already checked against the dictionary size.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) void permute32_avx512(const uint32_t* dict, size_t size,
                                                                                const uint32_t* idx, size_t n,
                                                                                uint32_t* out) {
  const __m512i d0 = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(size >= 16 ? 0xffff : (1u << size) - 1), dict);
  const __m512i d1 = size > 16 ? _mm512_maskz_loadu_epi32(
                                     static_cast<__mmask16>(size >= 32 ? 0xffff : (1u << (size - 16)) - 1), dict + 16)
                               : _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_si512(out + i, _mm512_permutex2var_epi32(d0, _mm512_loadu_si512(idx + i), d1));
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) void permute64_avx512(const uint64_t* dict, size_t size,
                                                                                const uint32_t* idx, size_t n,
                                                                                uint64_t* out) {
  const __m512i d0 = _mm512_maskz_loadu_epi64(static_cast<__mmask8>(size >= 8 ? 0xff : (1u << size) - 1), dict);
  const __m512i d1 =
      size > 8 ? _mm512_maskz_loadu_epi64(static_cast<__mmask8>(size >= 16 ? 0xff : (1u << (size - 8)) - 1), dict + 8)
               : _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i ix = _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i)));
    _mm512_storeu_si512(out + i, _mm512_permutex2var_epi64(d0, ix, d1));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

// The dictionary's first 32 * Registers bytes in Registers ymm registers,
// zero past its end.
template <int Registers>
__attribute__((target("avx2,bmi2"))) void load_registers(const void* dict, size_t bytes, __m256i* d) {
  alignas(32) uint8_t entries[32 * Registers] = {};
  std::memcpy(entries, dict, std::min(bytes, sizeof(entries)));
  for (int r = 0; r < Registers; ++r) d[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(entries + 32 * r));
}

// Each lane takes the 32-bit element its index names among the registers'
// 8 * Registers: the low 3 bits within a register, bits 3 and 4 among them.
template <int Registers>
__attribute__((target("avx2,bmi2"))) __m256i select_lanes(const __m256i* d, __m256i lane) {
  __m256 v = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(d[0], lane));
  if constexpr (Registers >= 2) {
    // blendv takes each lane's sign bit: bit 3 of the index shifted there.
    const __m256 bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(lane, 28));
    v = _mm256_blendv_ps(v, _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(d[1], lane)), bit3);
    if constexpr (Registers == 4) {
      const __m256 high = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(d[2], lane)),
                                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(d[3], lane)), bit3);
      v = _mm256_blendv_ps(v, high, _mm256_castsi256_ps(_mm256_slli_epi32(lane, 27)));
    }
  }
  return _mm256_castps_si256(v);
}

// AVX2 has lane permutes of 32-bit elements only, across one ymm of 8: a
// dictionary of up to 8 4-byte entries is one register, up to 32 takes
// four. An 8-byte entry is a pair of 32-bit lanes, so up to 8 of them fit
// two registers. Larger sets need more blends than loads would cost.
template <int Registers>
__attribute__((target("avx2,bmi2"))) void permute32_avx2(const uint32_t* dict, size_t size, const uint32_t* idx,
                                                         size_t n, uint32_t* out) {
  __m256i d[Registers];
  load_registers<Registers>(dict, size * sizeof(uint32_t), d);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), select_lanes<Registers>(d, ix));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

template <int Registers>
__attribute__((target("avx2,bmi2"))) void permute64_avx2(const uint64_t* dict, size_t size, const uint32_t* idx,
                                                         size_t n, uint64_t* out) {
  __m256i d[Registers];
  load_registers<Registers>(dict, size * sizeof(uint64_t), d);
  // Entry k's halves are 32-bit lanes 2k and 2k + 1.
  const __m256i odd = _mm256_set1_epi64x(int64_t{1} << 32);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i twice =
        _mm256_slli_epi32(_mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(idx + i))), 1);
    const __m256i lanes = _mm256_or_si256(twice, _mm256_add_epi64(_mm256_slli_epi64(twice, 32), odd));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), select_lanes<Registers>(d, lanes));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}

constexpr size_t kPermute32Entries = 32;
constexpr size_t kPermute64Entries = 16;
// A ymm register holds this many entries of 4 or 8 bytes; AVX2 permutes
// take up to four registers of 4-byte entries and two of 8-byte ones.
constexpr size_t kYmm32Entries = 8;
constexpr size_t kYmm64Entries = 4;

// Whether the gathers above run; PARQ_DICT_GATHER=scalar makes them one load
// and store per value instead (benchmarks).
bool gather_kernels() {
  static const bool use = [] {
    const char* env = std::getenv("PARQ_DICT_GATHER");
    return env == nullptr || std::strcmp(env, "scalar") != 0;
  }();
  return use;
}

}  // namespace

namespace detail {

void check_dictionary_indices(const uint32_t* idx, size_t n, size_t dictionary_size) {
  check_indices(idx, n, dictionary_size);
}

void gather(const uint32_t* dict, size_t size, const uint32_t* idx, size_t n, uint32_t* out) {
  const SimdLevel level = simd_level();
  if (level == SimdLevel::kAvx512 && size <= kPermute32Entries) return permute32_avx512(dict, size, idx, n, out);
  if (level == SimdLevel::kAvx512 && gather_kernels()) return gather32_avx512(dict, idx, n, out);
  if (level == SimdLevel::kAvx2) {
    if (size <= kYmm32Entries) return permute32_avx2<1>(dict, size, idx, n, out);
    if (size <= 2 * kYmm32Entries) return permute32_avx2<2>(dict, size, idx, n, out);
    if (size <= 4 * kYmm32Entries) return permute32_avx2<4>(dict, size, idx, n, out);
    if (gather_kernels()) return gather32_avx2(dict, idx, n, out);
  }
  gather_scalar(dict, idx, n, out);
}

void gather(const uint64_t* dict, size_t size, const uint32_t* idx, size_t n, uint64_t* out) {
  const SimdLevel level = simd_level();
  if (level == SimdLevel::kAvx512 && size <= kPermute64Entries) return permute64_avx512(dict, size, idx, n, out);
  if (level == SimdLevel::kAvx512 && gather_kernels()) return gather64_avx512(dict, idx, n, out);
  if (level == SimdLevel::kAvx2) {
    if (size <= kYmm64Entries) return permute64_avx2<1>(dict, size, idx, n, out);
    if (size <= 2 * kYmm64Entries) return permute64_avx2<2>(dict, size, idx, n, out);
    if (gather_kernels()) return gather64_avx2(dict, idx, n, out);
  }
  gather_scalar(dict, idx, n, out);
}

}  // namespace detail

void DictionaryDecoder::reset(const uint8_t* data, size_t size) {
  if (size == 0) throw Error("RLE_DICTIONARY: the data page has no bit width byte (byte 0 of 0)");
  if (data[0] > 32)
    throw Error("RLE_DICTIONARY: index bit width " + std::to_string(data[0]) + " at byte 0 is above 32");
  indices_.reset(data + 1, size - 1, data[0]);
  repeated_ = false;
  piece_pos_ = piece_end_ = 0;
}

bool DictionaryDecoder::refill() {
  const size_t got = indices_.next_piece(block_, kBlock, repeated_, repeat_index_);
  piece_pos_ = 0;
  piece_end_ = got;
  return got != 0;
}

// Feeds pieces of the index stream to `emit(indices or nullptr, index, take,
// done)`, which returns how many values it produced.
template <class Emit>
size_t DictionaryDecoder::run(size_t n, size_t dictionary_size, Emit&& emit) {
  size_t done = 0;
  while (done < n) {
    if (piece_pos_ == piece_end_ && !refill()) break;
    const size_t take = std::min(n - done, piece_end_ - piece_pos_);
    size_t made;
    if (repeated_) {
      if (repeat_index_ >= dictionary_size) fail_index(&repeat_index_, 1, dictionary_size);
      made = emit(nullptr, repeat_index_, take, done);
    } else {
      const uint32_t* idx = block_ + piece_pos_;
      if (!packed_always_in_range(indices_.bit_width(), dictionary_size)) check_indices(idx, take, dictionary_size);
      made = emit(idx, 0u, take, done);
    }
    piece_pos_ += made;
    done += made;
    if (made < take) break;
  }
  return done;
}

template <class T>
size_t DictionaryDecoder::decode(std::span<const T> dictionary, T* out, size_t n) {
  const T* dict = dictionary.data();
  return run(n, dictionary.size(), [&](const uint32_t* idx, uint32_t index, size_t take, size_t done) {
    if (idx == nullptr) {
      if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        detail::fill_run(out + done, take, dict[index]);
      } else {
        std::fill_n(out + done, take, dict[index]);
      }
    } else {
      detail::gather_typed(dict, dictionary.size(), idx, take, out + done);
    }
    return take;
  });
}

template size_t DictionaryDecoder::decode(std::span<const int32_t>, int32_t*, size_t);
template size_t DictionaryDecoder::decode(std::span<const int64_t>, int64_t*, size_t);
template size_t DictionaryDecoder::decode(std::span<const float>, float*, size_t);
template size_t DictionaryDecoder::decode(std::span<const double>, double*, size_t);
template size_t DictionaryDecoder::decode(std::span<const Int96>, Int96*, size_t);

size_t DictionaryDecoder::decode(const uint8_t* dictionary, size_t dictionary_size, size_t width, uint8_t* out,
                                 size_t n) {
  return run(n, dictionary_size, [&](const uint32_t* idx, uint32_t index, size_t take, size_t done) {
    uint8_t* dst = out + done * width;
    for (size_t i = 0; i < take; ++i, dst += width)
      std::memcpy(dst, dictionary + (idx == nullptr ? index : idx[i]) * width, width);
    return take;
  });
}

size_t DictionaryDecoder::decode(const ByteArrayDictionaryTable& dictionary, ByteArrayBatch& out, size_t n) {
  const size_t longest = dictionary.longest();
  if (longest != 0 && longest <= 32 && out.fits(n * longest)) {
    // Room for the whole call at once: growing run by run copied the
    // batch's strings again at every doubling.
    out.data_buffer().reserve_more(n * longest);
    out.offsets_buffer().reserve_more(n * sizeof(int32_t));
  }
  return run(n, dictionary.size(), [&](const uint32_t* idx, uint32_t index, size_t take, size_t) {
    return detail::append_entries(dictionary, idx, index, take, out);
  });
}

// What is left of a buffered piece first; then the stream's pieces go
// straight to `out`, bit-packed ones unpacked there rather than into the
// block and copied. A dictionary_size above what 32-bit indices reach
// checks nothing: the caller checks the indices it keeps.
size_t DictionaryDecoder::decode_indices(uint32_t* out, size_t n, size_t dictionary_size) {
  const bool check = dictionary_size <= UINT32_MAX;
  const bool check_packed = check && !packed_always_in_range(indices_.bit_width(), dictionary_size);
  size_t done = 0;
  if (piece_pos_ < piece_end_) {
    const size_t take = std::min(n, piece_end_ - piece_pos_);
    if (repeated_) {
      if (check && repeat_index_ >= dictionary_size) fail_index(&repeat_index_, 1, dictionary_size);
      detail::fill_run(out, take, repeat_index_);
    } else {
      if (check_packed) check_indices(block_ + piece_pos_, take, dictionary_size);
      std::memcpy(out, block_ + piece_pos_, take * sizeof(uint32_t));
    }
    piece_pos_ += take;
    done = take;
  }
  while (done < n) {
    bool repeated = false;
    uint32_t index = 0;
    const size_t got = indices_.next_piece(out + done, n - done, repeated, index);
    if (got == 0) break;
    if (repeated) {
      if (check && index >= dictionary_size) fail_index(&index, 1, dictionary_size);
      detail::fill_run(out + done, got, index);
    } else if (check_packed) {
      check_indices(out + done, got, dictionary_size);
    }
    done += got;
  }
  return done;
}

size_t DictionaryDecoder::skip(size_t n) {
  const size_t buffered = std::min(n, piece_end_ - piece_pos_);
  piece_pos_ += buffered;
  return buffered + indices_.skip(n - buffered);
}

}  // namespace parq::encoding
