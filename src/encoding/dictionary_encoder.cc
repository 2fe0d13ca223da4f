// Dictionary encoding of fixed-width values (INT32, INT64, INT96, FLOAT,
// DOUBLE) and the index side every dictionary encoder shares; see
// encoding/dictionary_encoder.h. Byte arrays are in
// dictionary_encoder_bytes.cc.
#include "parq/encoding/dictionary_encoder.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "encoding/hash_table.h"
#include "parq/util/cpu.h"

namespace parq::encoding {

// ---- shared: limits and indices ----------------------------------------------

DictionaryEncoderBase::DictionaryEncoderBase(DictionaryLimits limits) : limits_(limits) {
  limits_.max_entries = std::min<size_t>(limits_.max_entries, INT32_MAX);
}

void DictionaryEncoderBase::reset_base() {
  indices_.clear();
  num_entries_ = 0;
  dictionary_bytes_ = 0;
  limit_reached_ = false;
}

int DictionaryEncoderBase::index_bit_width() const {
  if (num_entries_ <= 1) return static_cast<int>(num_entries_);
  return bit_width_for(num_entries_ - 1);
}

void DictionaryEncoderBase::write_indices(Buffer& out) {
  int width = index_bit_width();
  out.append_value(static_cast<uint8_t>(width));
  rle_.reset(width);
  rle_.put(indices_.data_as<uint32_t>(), num_buffered_indices());
  rle_.flush(out);
  indices_.clear();
}

// ---- fixed-width values --------------------------------------------------------

namespace {

// The table key of each type: its bit pattern, so that floating-point
// values compare as bytes (-0.0 != 0.0, NaN == the same NaN). The keys in
// index order are the PLAIN dictionary page as they stand.
template <class T>
using KeyOf = std::conditional_t<
    std::is_same_v<T, Int96>, Int96,
    std::conditional_t<sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 8, uint64_t, void>>>;

// Tables larger than this (about L2) prefetch; smaller ones would only pay
// for the extra hash.
constexpr size_t kCachedTableBytes = size_t{1} << 20;
constexpr size_t kPrefetchDistance = 16;

template <class Key>
inline Key load_key(const void* p) {
  Key k;
  std::memcpy(&k, p, sizeof(Key));
  return k;
}

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,bmi2")))

// AVX-512 lookups of 4- and 8-byte keys at their home slot, 8 keys a step:
// hashing::hash_key in vector form, a gather of the home slots, a compare.
// out[i] gets the index of every key found there or in the slot after; bit
// i of the miss bitmap marks the others, which the caller probes one by one
// (they may sit further along, or be new). The slot layouts are
// FixedKeyTable's: {uint32 key, uint32 index + 1} and {uint64 key, uint32
// index + 1, 4 bytes of padding}.
PARQ_AVX512 inline __m512i vector_hash(__m512i k, bool wide) {
  using namespace hashing;
  __m512i p = _mm512_mul_epu32(_mm512_xor_si512(k, _mm512_set1_epi64(kSeed32A)), _mm512_set1_epi64(kMul32A));
  if (wide) {
    __m512i hi = _mm512_srli_epi64(k, 32);
    p = _mm512_add_epi64(p, _mm512_mul_epu32(_mm512_xor_si512(hi, _mm512_set1_epi64(kSeed32B)),
                                             _mm512_set1_epi64(kMul32B)));
  }
  p = _mm512_mul_epu32(_mm512_xor_si512(p, _mm512_srli_epi64(p, 32)), _mm512_set1_epi64(kMul32C));
  return _mm512_xor_si512(p, _mm512_srli_epi64(p, 32));
}

// The lanes of `lanes` whose key is in the slot at `at`: their indices go
// to `index`.
template <class Key>
PARQ_AVX512 inline __mmask8 probe_avx512(__mmask8 lanes, __m512i at, __m512i k, const void* slots, __m512i& index) {
  if constexpr (sizeof(Key) == 4) {
    __m512i slot = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes, at, slots, 8);
    __m512i got = _mm512_srli_epi64(slot, 32);
    __mmask8 h = _mm512_mask_cmpeq_epi64_mask(lanes, _mm512_and_si512(slot, _mm512_set1_epi64(0xffffffff)), k) &
                 _mm512_test_epi64_mask(got, got);
    index = _mm512_mask_mov_epi64(index, h, got);
    return h;
  } else {
    __m512i off = _mm512_slli_epi64(at, 1);  // 16-byte slots
    __m512i slot_key = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes, off, slots, 8);
    __m512i got = _mm512_cvtepu32_epi64(
        _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), lanes, off, static_cast<const uint8_t*>(slots) + 8, 8));
    __mmask8 h = _mm512_mask_cmpeq_epi64_mask(lanes, slot_key, k) & _mm512_test_epi64_mask(got, got);
    index = _mm512_mask_mov_epi64(index, h, got);
    return h;
  }
}

template <class Key>
PARQ_AVX512 void find_home_avx512(const Key* keys, size_t n, const void* slots, size_t mask, uint32_t* out,
                                  uint64_t* misses) {
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8);
  const __m512i maskv = _mm512_set1_epi64(static_cast<long long>(mask));
  const __m512i one = _mm512_set1_epi64(1);
  std::memset(misses, 0, (n + 63) / 64 * sizeof(uint64_t));
  size_t i = 0;
  // A key one slot past its home is common enough (about one lookup in ten
  // at the table's load) that a second masked gather for the lanes that
  // missed beats sending them to the scalar probe, which mispredicts.
  for (; i + 8 <= n; i += 8) {
    __m512i k, pos, index;
    __mmask8 hit;
    if constexpr (sizeof(Key) == 4) {
      k = _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + i)));
    } else {
      k = _mm512_loadu_si512(keys + i);
    }
    pos = _mm512_and_si512(vector_hash(k, sizeof(Key) == 8), maskv);
    index = _mm512_setzero_si512();
    hit = probe_avx512<Key>(0xff, pos, k, slots, index);
    // Unconditionally: a branch on "all hit" would mispredict often.
    hit |= probe_avx512<Key>(static_cast<__mmask8>(~hit), _mm512_and_si512(_mm512_add_epi64(pos, one), maskv), k,
                             slots, index);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi64_epi32(_mm512_sub_epi64(index, one)));
    misses[i / 64] |= uint64_t{static_cast<uint8_t>(~hit)} << (i % 64);
  }
  for (; i < n; ++i) misses[i / 64] |= uint64_t{1} << (i % 64);
}

}  // namespace

template <class T>
struct DictionaryEncoder<T>::Table {
  using Key = KeyOf<T>;
  FixedKeyTable<Key> map;
  Buffer keys;  // index order
};

template <class T>
DictionaryEncoder<T>::DictionaryEncoder(DictionaryLimits limits)
    : DictionaryEncoderBase(limits), table_(std::make_unique<Table>()) {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, Int96> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>,
                "DictionaryEncoder<T>: T is one of int32_t, int64_t, Int96, float, double");
}

template <class T>
DictionaryEncoder<T>::~DictionaryEncoder() = default;
template <class T>
DictionaryEncoder<T>::DictionaryEncoder(DictionaryEncoder&&) noexcept = default;
template <class T>
DictionaryEncoder<T>& DictionaryEncoder<T>::operator=(DictionaryEncoder&&) noexcept = default;

template <class T>
size_t DictionaryEncoder<T>::put(const T* values, size_t n) {
  using Key = typename Table::Key;
  using Slot = typename FixedKeyTable<Key>::Slot;
  Table& t = *table_;
  uint32_t* out = begin_indices(n);
  // The probe is spelled out here rather than called through find(): the
  // slots pointer and mask stay in locals across the loop and change only
  // when an insert grows the table.
  Slot* slots = t.map.slots();
  size_t mask = t.map.mask();
  // Looks values[i] up, adding it when new; false when it would cross the
  // limits.
  auto lookup = [&](size_t i) {
    Key key = load_key<Key>(values + i);
    size_t pos = t.map.hasher()(key) & mask;
    // The first two slots are checked without a branch between them: a
    // key one slot past its home is common, and guessing which costs a
    // mispredict. The key is in at most one slot, so masking picks it. (An
    // empty first slot means the key is absent, as nothing is deleted; the
    // second then cannot match.)
    const Slot& a = slots[pos];
    const Slot& b = slots[(pos + 1) & mask];
    uint32_t hit = (a.index_plus_one & -static_cast<uint32_t>(a.key == key)) |
                   (b.index_plus_one & -static_cast<uint32_t>(b.key == key));
    if (hit != 0) {
      out[i] = hit - 1;
      return true;
    }
    while (slots[pos].index_plus_one != 0 && !(slots[pos].key == key)) pos = (pos + 1) & mask;
    if (slots[pos].index_plus_one != 0) {
      out[i] = slots[pos].index_plus_one - 1;
      return true;
    }
    if (!fits(sizeof(Key))) {
      limit_reached_ = true;
      return false;
    }
    t.keys.append_value(key);
    out[i] = t.map.insert(&slots[pos], key, t.keys.template data_as<Key>());
    count_entry(sizeof(Key));
    slots = t.map.slots();
    mask = t.map.mask();
    return true;
  };
  size_t i = 0;
  const bool large = t.map.capacity() * sizeof(Slot) > kCachedTableBytes;
  if constexpr (sizeof(Key) == 4 || sizeof(Key) == 8) {
    if (!large && simd_level() >= SimdLevel::kAvx512) {
      // A block at a time: the lookups that hit near home in vector form,
      // then the rest in order (so new entries are numbered as they first
      // appear). Long blocks keep the gathers of many steps in flight
      // between the mispredicts the scalar probes bring.
      constexpr size_t kBlock = 1024;
      uint64_t misses[kBlock / 64];
      while (i < n) {
        const size_t k = std::min(kBlock, n - i);
        find_home_avx512(reinterpret_cast<const Key*>(values + i), k, slots, mask, out + i, misses);
        for (size_t w = 0; w < (k + 63) / 64; ++w) {
          for (uint64_t m = misses[w]; m != 0; m &= m - 1) {
            size_t j = i + w * 64 + static_cast<size_t>(std::countr_zero(m));
            if (!lookup(j)) {
              finish_indices(n, j);
              return j;
            }
          }
        }
        i += k;
        // A table that outgrew the caches goes on with prefetching below.
        if (t.map.capacity() * sizeof(Slot) > kCachedTableBytes) break;
      }
    }
  }
  for (; i < n; ++i) {
    if (large && i + kPrefetchDistance < n) {
      // A table past the caches costs a miss a lookup; asking for the slot
      // of a value some way ahead overlaps the misses.
      Key ahead = load_key<Key>(values + i + kPrefetchDistance);
      __builtin_prefetch(&slots[t.map.hasher()(ahead) & mask]);
    }
    if (!lookup(i)) break;
  }
  finish_indices(n, i);
  return i;
}

template <class T>
void DictionaryEncoder<T>::write_dictionary_page(Buffer& out) const {
  out.append(table_->keys.data(), table_->keys.size());
}

template <class T>
void DictionaryEncoder<T>::reset() {
  reset_base();
  table_->map.clear();
  table_->keys.clear();
}

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<Int96>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;

}  // namespace parq::encoding
