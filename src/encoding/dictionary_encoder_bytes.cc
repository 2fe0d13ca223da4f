// Dictionary encoding of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values; see
// encoding/dictionary_encoder.h. Each entry's bytes are stored once, in an
// arena that is already the PLAIN dictionary page, and its 64-bit hash is
// kept beside it so the table grows without re-hashing strings.
#include <algorithm>
#include <cstring>
#include <string>

#include "encoding/hash_table.h"
#include "parq/encoding/dictionary_encoder.h"
#include "parq/error.h"
#include "util/byte_copy.h"

namespace parq::encoding {

namespace {

constexpr size_t kLengthPrefix = 4;
// As for fixed-width values: tables larger than about L2 prefetch the slot
// of a value some way ahead.
constexpr size_t kCachedTableBytes = size_t{1} << 20;
constexpr size_t kPrefetchDistance = 16;

template <class T>
const T* as(const Buffer& b) {
  return b.data_as<T>();
}

}  // namespace

// ---- BYTE_ARRAY ----------------------------------------------------------------

struct ByteArrayDictionaryEncoder::Table {
  HashedIndexTable map;
  Buffer arena;   // the PLAIN page: per entry a 4-byte length, then the bytes
  Buffer starts;  // uint64 per entry: where its length prefix is in arena
  Buffer hashes;  // uint64 per entry

  uint32_t add(HashedIndexTable::Slot* at, uint64_t hash, const uint8_t* p, uint32_t len) {
    starts.append_value<uint64_t>(arena.size());
    uint8_t* dst = arena.extend(kLengthPrefix + len);
    std::memcpy(dst, &len, sizeof(len));
    if (len != 0) std::memcpy(dst + kLengthPrefix, p, len);
    hashes.append_value(hash);
    return map.insert(at, hash, as<uint64_t>(hashes));
  }

  void clear() {
    map.clear();
    arena.clear();
    starts.clear();
    hashes.clear();
  }
};

ByteArrayDictionaryEncoder::ByteArrayDictionaryEncoder(DictionaryLimits limits)
    : DictionaryEncoderBase(limits), table_(std::make_unique<Table>()) {}
ByteArrayDictionaryEncoder::~ByteArrayDictionaryEncoder() = default;

std::string_view ByteArrayDictionaryEncoder::entry(size_t i) const {
  const uint64_t start = table_->starts.data_as<uint64_t>()[i];
  uint32_t len;
  std::memcpy(&len, table_->arena.data() + start, sizeof(len));
  return {reinterpret_cast<const char*>(table_->arena.data() + start + kLengthPrefix), len};
}
ByteArrayDictionaryEncoder::ByteArrayDictionaryEncoder(ByteArrayDictionaryEncoder&&) noexcept = default;
ByteArrayDictionaryEncoder& ByteArrayDictionaryEncoder::operator=(ByteArrayDictionaryEncoder&&) noexcept = default;

namespace {

// What the byte-array lookup reads, as the caller holds it in locals.
struct StringTableView {
  const HashedIndexTable::Slot* slots;
  size_t mask;
  const uint8_t* arena;
  const uint64_t* starts;

  bool entry_equals(uint32_t entry, const uint8_t* p, uint32_t len) const {
    const uint8_t* e = arena + starts[entry];
    uint32_t elen;
    std::memcpy(&elen, e, sizeof(elen));
    return elen == len && hashing::bytes_equal(e + kLengthPrefix, p, len);
  }
};

// A string of up to 16 bytes as two little-endian words, zero past its
// length: hashing::hash_short's input. Reads 16 bytes from p.
struct ShortWords {
  uint64_t lo, hi;
  bool operator==(const ShortWords&) const = default;
};

inline ShortWords short_words(const uint8_t* p, uint32_t len) {
  // The low `bits` bits of x (all of it from 64 on), without a branch.
  auto low_bits = [](uint64_t x, size_t bits) {
    return x & (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << (bits & 63)) - 1);
  };
  return {low_bits(bytes::load_u64(p), size_t{8} * len),
          len > 8 ? low_bits(bytes::load_u64(p + 8), size_t{8} * (len - 8)) : 0};
}

// The hot loop, as for fixed-width keys: values found in their home slot
// (tag and bytes equal) get their index, until the first that is not (away
// from home, new, or offsets that decrease). Returns how many it did.
// Values of up to 16 bytes with 16 readable bytes after their start (input
// up to input_end; the arena has a Buffer's padding) are hashed and compared
// as two masked words, without branching on their length.
template <bool kPrefetch>
[[gnu::always_inline]] inline size_t find_strings_at_home(const int32_t* offsets, const uint8_t* data, size_t n,
                                                          const uint8_t* input_end, const StringTableView& t,
                                                          uint32_t* out) {
  for (size_t i = 0; i < n; ++i) {
    if constexpr (kPrefetch) {
      if (i + kPrefetchDistance < n) {
        const size_t j = i + kPrefetchDistance;
        const int32_t b = offsets[j], e = offsets[j + 1];
        if (e >= b) __builtin_prefetch(&t.slots[hashing::hash_bytes(data + b, static_cast<size_t>(e - b)) & t.mask]);
      }
    }
    const int32_t begin = offsets[i], end = offsets[i + 1];
    if (end < begin) [[unlikely]]
      return i;
    const uint8_t* p = data + begin;
    const uint32_t len = static_cast<uint32_t>(end - begin);
    if (len <= hashing::kShortString && input_end - p >= 16) [[likely]] {
      const ShortWords words = short_words(p, len);
      const uint64_t hash = hashing::hash_short(words.lo, words.hi, len);
      const HashedIndexTable::Slot& s = t.slots[hash & t.mask];
      if (s.tag != HashedIndexTable::tag_of(hash) || s.index_plus_one == 0) [[unlikely]]
        return i;
      const uint8_t* e = t.arena + t.starts[s.index_plus_one - 1];
      // One branch for both compares (ints, so clang does not read `|` as a slip for `||`).
      if (static_cast<int>(bytes::load_u32(e) != len) |
          static_cast<int>(!(short_words(e + kLengthPrefix, len) == words))) [[unlikely]]
        return i;
      out[i] = s.index_plus_one - 1;
      continue;
    }
    const uint64_t hash = hashing::hash_bytes(p, len);
    const HashedIndexTable::Slot& s = t.slots[hash & t.mask];
    if (s.tag != HashedIndexTable::tag_of(hash) || s.index_plus_one == 0 ||
        !t.entry_equals(s.index_plus_one - 1, p, len)) [[unlikely]]
      return i;
    out[i] = s.index_plus_one - 1;
  }
  return n;
}

size_t find_strings_at_home_cached(const int32_t* offsets, const uint8_t* data, size_t n, const uint8_t* input_end,
                                   const StringTableView& t, uint32_t* out) {
  return find_strings_at_home<false>(offsets, data, n, input_end, t, out);
}

size_t find_strings_at_home_prefetch(const int32_t* offsets, const uint8_t* data, size_t n, const uint8_t* input_end,
                                     const StringTableView& t, uint32_t* out) {
  return find_strings_at_home<true>(offsets, data, n, input_end, t, out);
}

}  // namespace

size_t ByteArrayDictionaryEncoder::put(const int32_t* offsets, const uint8_t* data, size_t n) {
  Table& t = *table_;
  uint32_t* out = begin_indices(n);
  // Everything the probe reads is held in locals, refreshed after an
  // insert: through t the compiler would reload each pointer per value.
  auto view_of = [&t] { return StringTableView{t.map.slots(), t.map.mask(), t.arena.data(), as<uint64_t>(t.starts)}; };
  StringTableView view = view_of();
  // Tables past the caches prefetch; chosen again when an insert grows one.
  auto choose_run = [&t] {
    return t.map.capacity() * sizeof(HashedIndexTable::Slot) > kCachedTableBytes ? &find_strings_at_home_prefetch
                                                                                 : &find_strings_at_home_cached;
  };
  auto find_run = choose_run();
  // The values' bytes end at the largest offset; decreasing offsets are
  // caught value by value, so the first and last bound what may be read.
  const uint8_t* input_end = data + (n > 0 ? std::max(offsets[0], offsets[n]) : 0);
  size_t i = 0;
  while (true) {
    i += find_run(offsets + i, data, n - i, input_end, view, out + i);
    if (i == n) break;
    // Away from home, new, or bad offsets.
    const int32_t begin = offsets[i];
    const int32_t end = offsets[i + 1];
    if (end < begin) {
      finish_indices(n, i);
      throw Error("dictionary encoder: byte array offsets decrease at value " + std::to_string(i) + " (" +
                      std::to_string(begin) + " then " + std::to_string(end) + ")",
                  ErrorKind::kInvalidArgument);
    }
    const uint8_t* p = data + begin;
    const uint32_t len = static_cast<uint32_t>(end - begin);
    const uint64_t hash = hashing::hash_bytes(p, len);
    size_t pos;
    uint32_t index = HashedIndexTable::probe(
        view.slots, view.mask, hash, [&](uint32_t entry) { return view.entry_equals(entry, p, len); }, &pos);
    if (index == UINT32_MAX) {
      if (!fits(kLengthPrefix + len)) {
        limit_reached_ = true;
        break;
      }
      index = t.add(&t.map.slots()[pos], hash, p, len);
      count_entry(kLengthPrefix + len);
      view = view_of();
      find_run = choose_run();
    }
    out[i++] = index;
  }
  finish_indices(n, i);
  return i;
}

void ByteArrayDictionaryEncoder::write_dictionary_page(Buffer& out) const {
  out.append(table_->arena.data(), table_->arena.size());
}

void ByteArrayDictionaryEncoder::reset() {
  reset_base();
  table_->clear();
}

// ---- FIXED_LEN_BYTE_ARRAY ------------------------------------------------------

struct FixedLenByteArrayDictionaryEncoder::Table {
  HashedIndexTable map;
  Buffer arena;   // the PLAIN page: the entries back to back
  Buffer hashes;  // uint64 per entry

  void clear() {
    map.clear();
    arena.clear();
    hashes.clear();
  }
};

FixedLenByteArrayDictionaryEncoder::FixedLenByteArrayDictionaryEncoder(int width, DictionaryLimits limits)
    : DictionaryEncoderBase(limits), width_(width), table_(std::make_unique<Table>()) {
  if (width < 0)
    throw Error("dictionary encoder: fixed-length byte array width " + std::to_string(width) + " < 0",
                ErrorKind::kInvalidArgument);
}
FixedLenByteArrayDictionaryEncoder::~FixedLenByteArrayDictionaryEncoder() = default;
FixedLenByteArrayDictionaryEncoder::FixedLenByteArrayDictionaryEncoder(FixedLenByteArrayDictionaryEncoder&&) noexcept =
    default;
FixedLenByteArrayDictionaryEncoder& FixedLenByteArrayDictionaryEncoder::operator=(
    FixedLenByteArrayDictionaryEncoder&&) noexcept = default;

size_t FixedLenByteArrayDictionaryEncoder::put(const uint8_t* values, size_t n) {
  Table& t = *table_;
  const size_t w = static_cast<size_t>(width_);
  uint32_t* out = begin_indices(n);
  const HashedIndexTable::Slot* slots = t.map.slots();
  size_t mask = t.map.mask();
  const uint8_t* arena = t.arena.data();
  const bool prefetch = t.map.capacity() * sizeof(HashedIndexTable::Slot) > kCachedTableBytes;
  size_t i = 0;
  for (; i < n; ++i) {
    if (prefetch && i + kPrefetchDistance < n)
      __builtin_prefetch(&slots[hashing::hash_bytes(values + (i + kPrefetchDistance) * w, w) & mask]);
    const uint8_t* p = values + i * w;
    uint64_t hash = hashing::hash_bytes(p, w);
    size_t pos;
    uint32_t index = HashedIndexTable::probe(
        slots, mask, hash, [&](uint32_t entry) { return hashing::bytes_equal(arena + entry * w, p, w); }, &pos);
    if (index == UINT32_MAX) {
      if (!fits(w)) {
        limit_reached_ = true;
        break;
      }
      t.arena.append(p, w);
      t.hashes.append_value(hash);
      index = t.map.insert(&t.map.slots()[pos], hash, as<uint64_t>(t.hashes));
      count_entry(w);
      slots = t.map.slots();
      mask = t.map.mask();
      arena = t.arena.data();
    }
    out[i] = index;
  }
  finish_indices(n, i);
  return i;
}

void FixedLenByteArrayDictionaryEncoder::write_dictionary_page(Buffer& out) const {
  out.append(table_->arena.data(), table_->arena.size());
}

void FixedLenByteArrayDictionaryEncoder::reset() {
  reset_base();
  table_->clear();
}

}  // namespace parq::encoding
