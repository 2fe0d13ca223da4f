// Dictionary encoding of fixed-width values (INT32, INT64, INT96, FLOAT,
// DOUBLE) and the index side every dictionary encoder shares; see
// encoding/dictionary_encoder.h. Byte arrays are in
// dictionary_encoder_bytes.cc.
#include "parq/encoding/dictionary_encoder.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "encoding/hash_table.h"

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
  // slots pointer and mask stay in registers across the loop and change only
  // when an insert grows the table.
  Slot* slots = t.map.slots();
  size_t mask = t.map.mask();
  size_t i = 0;
  auto run = [&](auto prefetch) {
    for (; i < n; ++i) {
      if constexpr (decltype(prefetch)::value) {
        // A table past the caches costs a miss a lookup; asking for the
        // slot of a value some way ahead overlaps the misses.
        if (i + kPrefetchDistance < n) {
          Key ahead = load_key<Key>(values + i + kPrefetchDistance);
          __builtin_prefetch(&slots[t.map.hasher()(ahead) & mask]);
        }
      }
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
        continue;
      }
      while (slots[pos].index_plus_one != 0 && !(slots[pos].key == key)) pos = (pos + 1) & mask;
      if (slots[pos].index_plus_one != 0) {
        out[i] = slots[pos].index_plus_one - 1;
        continue;
      }
      if (!fits(sizeof(Key))) {
        limit_reached_ = true;
        return;
      }
      t.keys.append_value(key);
      out[i] = t.map.insert(&slots[pos], key, t.keys.template data_as<Key>());
      count_entry(sizeof(Key));
      slots = t.map.slots();
      mask = t.map.mask();
    }
  };
  if (t.map.capacity() * sizeof(Slot) > kCachedTableBytes) {
    run(std::true_type{});
  } else {
    run(std::false_type{});
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
