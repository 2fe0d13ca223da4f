// Dictionary encoding of fixed-width values (INT32, INT64, INT96, FLOAT,
// DOUBLE) and the index side every dictionary encoder shares; see
// encoding/dictionary_encoder.h. Byte arrays are in
// dictionary_encoder_bytes.cc.
#include "parq/encoding/dictionary_encoder.h"

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
  // Every index is below num_entries_, so fits the width: no range check.
  rle_.put_within_width(indices_.data_as<uint32_t>(), num_buffered_indices());
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

// The encoder's hot loop: looks values up in their home slots, writing
// each one's index, until the first that is not there (away from home, or
// new). Returns how many it did. With kPrefetch (tables past the caches) it
// asks early for the slot of the value kPrefetchDistance ahead.
template <class Key, class Slot, bool kPrefetch>
[[gnu::always_inline]] inline size_t find_at_home(const uint8_t* values, size_t n, const Slot* slots,
                                                  uint64_t multiplier, int shift, uint32_t* out) {
  auto home = [&](const Key& key) { return FixedKeyTable<Key>::home_of(hashing::hash_key(key), multiplier, shift); };
  for (size_t i = 0; i < n; ++i) {
    if constexpr (kPrefetch) {
      if (i + kPrefetchDistance < n)
        __builtin_prefetch(&slots[home(load_key<Key>(values + (i + kPrefetchDistance) * sizeof(Key)))]);
    }
    const Key key = load_key<Key>(values + i * sizeof(Key));
    const Slot& s = slots[home(key)];
    if constexpr (FixedKeyTable<Key>::kEmptyNeverMatchesAtHome) {
      if (!(s.key == key)) [[unlikely]]
        return i;
    } else {
      if (!(s.key == key) || s.index_plus_one == 0) [[unlikely]]
        return i;
    }
    out[i] = s.index_plus_one - 1;
  }
  return n;
}

// BMI2's shrx takes the shift count in any register, where plain x86-64
// shifts by cl only, at two extra micro-ops: about a fifth of the loop.
template <class Key, class Slot, bool kPrefetch>
__attribute__((target("bmi2"))) size_t find_at_home_bmi2(const uint8_t* values, size_t n, const Slot* slots,
                                                         uint64_t multiplier, int shift, uint32_t* out) {
  return find_at_home<Key, Slot, kPrefetch>(values, n, slots, multiplier, shift, out);
}

template <class Key, class Slot, bool kPrefetch>
size_t find_at_home_portable(const uint8_t* values, size_t n, const Slot* slots, uint64_t multiplier, int shift,
                             uint32_t* out) {
  return find_at_home<Key, Slot, kPrefetch>(values, n, slots, multiplier, shift, out);
}

template <class Slot>
using FindAtHome = size_t (*)(const uint8_t*, size_t, const Slot*, uint64_t, int, uint32_t*);

template <class Key, class Slot>
FindAtHome<Slot> choose_find_at_home(bool prefetch) {
  // Every CPU with AVX2 has BMI2.
  const bool bmi2 = simd_level() >= SimdLevel::kAvx2;
  if (prefetch) return bmi2 ? find_at_home_bmi2<Key, Slot, true> : find_at_home_portable<Key, Slot, true>;
  return bmi2 ? find_at_home_bmi2<Key, Slot, false> : find_at_home_portable<Key, Slot, false>;
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

// The lookup is a scalar loop on purpose. Most values are found in their
// home slot (the table is sparse while small, see encoding/hash_table.h), so
// a hit is a multiply, a shift, one load and a compare. AVX-512 gathers were
// tried: eight lanes a gather cost more than eight scalar loads on the
// Xeons this was measured on, and a second gather for keys one slot past
// home cost more again.
template <class T>
size_t DictionaryEncoder<T>::put(const T* values, size_t n) {
  using Key = typename Table::Key;
  using Slot = typename FixedKeyTable<Key>::Slot;
  Table& t = *table_;
  uint32_t* out = begin_indices(n);
  // The table's fields are copied to locals, which change only when an
  // insert grows the table: through t the compiler would reload them for
  // every value.
  Slot* slots = t.map.slots();
  int shift = t.map.shift();
  uint64_t multiplier = t.map.multiplier();
  const auto* bytes = reinterpret_cast<const uint8_t*>(values);
  // Tables past the caches prefetch; chosen again when an insert grows one.
  auto choose_run = [&t] {
    return choose_find_at_home<Key, Slot>(t.map.capacity() * sizeof(Slot) > kCachedTableBytes);
  };
  auto find_run = choose_run();
  size_t i = 0;
  while (true) {
    i += find_run(bytes + i * sizeof(Key), n - i, slots, multiplier, shift, out + i);
    if (i == n) break;
    // Away from home, or new.
    const Key key = load_key<Key>(values + i);
    Slot* slot = t.map.find(key);
    if (slot->index_plus_one == 0) {
      if (!fits(sizeof(Key))) {
        limit_reached_ = true;
        break;
      }
      t.keys.append_value(key);
      out[i] = t.map.insert(slot, key, t.keys.template data_as<Key>());
      count_entry(sizeof(Key));
      slots = t.map.slots();
      shift = t.map.shift();
      multiplier = t.map.multiplier();
      find_run = choose_run();
    } else {
      out[i] = slot->index_plus_one - 1;
    }
    ++i;
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
