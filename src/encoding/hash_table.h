// Open-addressing hash tables behind the dictionary encoders: value -> dense
// index (0, 1, 2, ... in order of first appearance). Linear probing over a
// power-of-two array kept at most half full (far less while small, see
// over_load), so a miss ends at an empty slot after a probe or two.
//
// Two shapes:
//  - FixedKeyTable: keys of 4, 8 or 12 bytes live in the slot itself, so a hit
//    costs one cache line and one compare; growing re-hashes the keys, which
//    is as cheap as reading a stored hash would be. Small tables are kept
//    very sparse, so that nearly every key sits in its home slot and the
//    encoder's lookup is one load, one compare and a branch that is almost
//    always taken the same way.
//  - HashedIndexTable: for byte strings. A slot holds 32 bits of the hash and
//    the index; the caller keeps the values (an arena) and every entry's full
//    hash, so growing never touches the values and a probe compares the
//    bytes only when the 32-bit tags match.
//
// Private to src/encoding.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "parq/encoding/types.h"
#include "parq/util/buffer.h"

#if __has_include(<xxhash.h>)
// Header-only: XXH3's short-input paths inline into the probe loop, and
// nothing needs linking.
#define XXH_INLINE_ALL
#include <xxhash.h>
#define PARQ_HAVE_XXHASH 1
#endif

namespace parq::encoding::hashing {

// 64x64 -> 128 multiply folded to 64 bits: every input bit reaches every
// output bit, so keys that differ only in high bits (multiples of 2^k) still
// land in different slots of a power-of-two table.
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
}

inline constexpr uint64_t kSeedA = 0x9e3779b97f4a7c15ull;
inline constexpr uint64_t kSeedB = 0xd6e8feb86659fd93ull;

// FixedKeyTable's keys as one 64-bit word: 4- and 8-byte keys are their
// own word, since the table multiplies the word by an odd constant and takes
// the slot from the product's high bits, which every key bit reaches (keys
// that differ only in high bits, multiples of 2^k, still spread). So the
// hash of an int costs one multiply on the encoder's hottest path.
inline uint64_t hash_key(uint32_t k) { return k; }
inline uint64_t hash_key(uint64_t k) { return k; }
inline uint64_t hash_key(const Int96& k) {
  uint64_t lo = uint64_t{k.words[0]} | (uint64_t{k.words[1]} << 32);
  return fold_multiply(lo ^ kSeedA, uint64_t{k.words[2]} ^ kSeedB);
}

// Strings of up to 16 bytes hash from their bytes as two zero-padded
// little-endian words and their length, with one 64x64 -> 128 multiply.
// Written this way the dictionary encoder's hot loop can load both words
// unconditionally and mask them (no branch on the length, which varies from
// value to value in columns like TPC-H's ship modes), and get the same hash
// as hash_bytes.
inline constexpr size_t kShortString = 16;
inline uint64_t hash_short(uint64_t lo, uint64_t hi, size_t n) { return fold_multiply(lo ^ kSeedA ^ n, hi ^ kSeedB); }

// Hash of a byte string: hash_short up to 16 bytes; longer ones XXH3 when
// the header is there, otherwise a simple word-at-a-time multiply-fold (same
// quality class for table indexing, a bit slower on long strings).
inline uint64_t hash_bytes(const uint8_t* p, size_t n) {
  if (n <= kShortString) {
    uint64_t words[2] = {0, 0};
    if (n != 0) std::memcpy(words, p, n);  // p may be null for an empty string
    return hash_short(words[0], words[1], n);
  }
#ifdef PARQ_HAVE_XXHASH
  return XXH3_64bits(p, n);
#else
  uint64_t h = kSeedA ^ (n * kSeedB);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = fold_multiply(h ^ w, kSeedB);
  }
  if (i < n) {
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i);
    h = fold_multiply(h ^ w, kSeedA);
  }
  return fold_multiply(h, kSeedB);
#endif
}

// Whether n bytes at a and b are equal. Dictionary strings are mostly short:
// up to 16 bytes this is two overlapping word compares, no call, and never a
// read outside [a, a + n) or [b, b + n).
inline bool bytes_equal(const uint8_t* a, const uint8_t* b, size_t n) {
  auto load64 = [](const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load32 = [](const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    if (n > 16) return std::memcmp(a, b, n) == 0;
    return ((load64(a) ^ load64(b)) | (load64(a + n - 8) ^ load64(b + n - 8))) == 0;
  }
  if (n >= 4) return ((load32(a) ^ load32(b)) | (load32(a + n - 4) ^ load32(b + n - 4))) == 0;
  if (n == 0) return true;
  // 1 to 3 bytes: first, middle and last cover them all.
  return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
}

}  // namespace parq::encoding::hashing

namespace parq::encoding {

// The default hasher of FixedKeyTable; tests substitute degenerate ones to
// force long probe chains.
struct KeyHasher {
  template <class Key>
  uint64_t operator()(const Key& k) const {
    return hashing::hash_key(k);
  }
};

inline constexpr size_t kInitialSlots = 64;

// How full a table may get. The encoders' lookups are one load, one
// compare and a branch on whether the value sits in its home slot; a value
// pushed further along costs a mispredicted branch, some 20 cycles, each
// time it is looked up, and with linear probing about half the load factor
// of the values sit away from home. So:
//  - up to kVerySparseTableBytes a table is kept 1/64 full (FixedKeyTable
//    also tries other multipliers, kMultipliers, when a key lands away from
//    home, for one that puts every key at home: a dictionary of a hundred
//    values then almost always has none away);
//  - up to kSparseTableBytes it is kept 1/8 full (about one value in
//    sixteen away), then half full, where each extra slot is a cache miss.
// Only the slots that hold values are ever touched, so the empty ones cost
// address space rather than cache.
inline constexpr size_t kVerySparseTableBytes = size_t{128} << 10;
inline constexpr size_t kSparseTableBytes = size_t{1} << 20;

inline bool over_load(size_t size, size_t slots, size_t slot_bytes) {
  const size_t bytes = slots * slot_bytes;
  if (bytes <= kVerySparseTableBytes) return size > slots / 64;
  if (bytes <= kSparseTableBytes) return size > slots / 8;
  return size > slots / 2;
}

// Odd multipliers with well-mixed bits (MurmurHash3's and SplitMix64's
// finalisers, then random odd numbers; not the golden ratio, which common
// generators already multiply by).
inline constexpr uint64_t kMultipliers[] = {
    0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull,
    0xd6e8feb86659fd93ull, 0xa0761d6478bd642full, 0xe7037ed1a0b428dbull, 0x8ebc6af09c88c6e3ull,
};
static_assert(
    [] {
      for (uint64_t m : kMultipliers)
        if ((m >> 63) == 0 || (m & 1) == 0) return false;
      return true;
    }(),
    "FixedKeyTable's empty-slot keys need odd multipliers with the top bit set");

// Key -> index, keys stored in the slots. `Key` is compared with ==, so
// floating-point values go in as their bit patterns. A key's home slot is
// the high bits of hasher(key) * multiplier().
template <class Key, class Hasher = KeyHasher>
class FixedKeyTable {
 public:
  struct Slot {
    Key key;
    uint32_t index_plus_one;  // 0: empty
  };

  // For integer keys hashed as themselves, an empty slot's key never equals
  // a key whose home it is: empty slots hold 0, whose home is slot 0, except
  // slot 0 itself, which holds 1 (whose home is not 0: every multiplier has
  // its top bit set). So a lookup that finds its key at home need not also
  // test that the slot is in use.
  static constexpr bool kEmptyNeverMatchesAtHome =
      std::is_same_v<Hasher, KeyHasher> && (std::is_same_v<Key, uint32_t> || std::is_same_v<Key, uint64_t>);

  FixedKeyTable() { clear(); }

  size_t size() const { return size_; }
  size_t capacity() const { return mask_ + 1; }

  void clear() {
    size_ = 0;
    multiplier_ = kMultipliers[0];
    allocate(kInitialSlots);
  }

  // The home slot of a key whose hasher() word is `word`.
  static size_t home_of(uint64_t word, uint64_t multiplier, int shift) {
    return static_cast<size_t>((word * multiplier) >> shift);
  }
  size_t home(const Key& key) const { return home_of(hasher_(key), multiplier_, shift_); }

  // Where `key` is, or the empty slot where it would go. The home-slot test
  // is written out in the encoder's put loop for speed; this is for the
  // rest.
  Slot* find(const Key& key) const {
    size_t pos = home(key);
    Slot* slots = this->slots();
    while (slots[pos].index_plus_one != 0 && !(slots[pos].key == key)) pos = (pos + 1) & mask_;
    return &slots[pos];
  }

  // Fills the empty slot `at` (from find or a probe) with the next index and
  // returns that index. `keys_in_order` holds every key by index, this one
  // included: the table is rebuilt from it when it grows.
  uint32_t insert(Slot* at, const Key& key, const Key* keys_in_order) {
    uint32_t index = static_cast<uint32_t>(size_);
    at->key = key;
    at->index_plus_one = index + 1;
    ++size_;
    if (over_load(size_, capacity(), sizeof(Slot))) {
      rebuild(capacity() * 2, keys_in_order);
    } else if (at != &slots()[home(key)] && capacity() * sizeof(Slot) <= kVerySparseTableBytes) {
      rehome(keys_in_order);
    }
    return index;
  }

  Slot* slots() const { return const_cast<Slot*>(slots_.template data_as<Slot>()); }
  uint64_t multiplier() const { return multiplier_; }
  int shift() const { return shift_; }
  // How many keys sit away from their home slot.
  size_t away_from_home() const {
    size_t away = 0;
    for (size_t i = 0; i <= mask_; ++i) away += slots()[i].index_plus_one != 0 && home(slots()[i].key) != i;
    return away;
  }

 private:
  void allocate(size_t slots) {
    slots_.resize(slots * sizeof(Slot));
    std::memset(slots_.data(), 0, slots_.size());
    mask_ = slots - 1;
    shift_ = 64 - std::countr_zero(slots);
    if constexpr (kEmptyNeverMatchesAtHome) this->slots()[0].key = 1;
  }

  // Empties a slot, keeping the invariant above.
  void empty_slot(size_t pos) {
    slots()[pos] = Slot{};
    if constexpr (kEmptyNeverMatchesAtHome) {
      if (pos == 0) slots()[0].key = 1;
    }
  }

  void rebuild(size_t slots, const Key* keys_in_order) {
    allocate(slots);
    place_all(keys_in_order, nullptr);
  }

  // Places every key in an emptied table by linear probing; returns how
  // many landed away from home, and notes where each went in *filled.
  size_t place_all(const Key* keys_in_order, std::vector<size_t>* filled) {
    Slot* s = slots();
    size_t away = 0;
    for (size_t i = 0; i < size_; ++i) {
      size_t pos = home(keys_in_order[i]);
      away += s[pos].index_plus_one != 0;
      while (s[pos].index_plus_one != 0) pos = (pos + 1) & mask_;
      s[pos] = Slot{keys_in_order[i], static_cast<uint32_t>(i + 1)};
      if (filled != nullptr) filled->push_back(pos);
    }
    return away;
  }

  // Tries the multipliers for one that leaves no key away from home (at
  // this size such a one usually exists); keeps the best found. Only the
  // slots holding keys are cleared between tries, not the whole table.
  void rehome(const Key* keys_in_order) {
    std::vector<size_t> filled;
    filled.reserve(size_);
    for (size_t i = 0; i < size_; ++i) filled.push_back(static_cast<size_t>(find(keys_in_order[i]) - slots()));
    auto place_with = [&](uint64_t m) {
      for (size_t pos : filled) empty_slot(pos);
      filled.clear();
      multiplier_ = m;
      return place_all(keys_in_order, &filled);
    };
    size_t best_away = SIZE_MAX;
    uint64_t best = multiplier_;
    for (uint64_t m : kMultipliers) {
      const size_t away = place_with(m);
      if (away == 0) return;
      if (away < best_away) best_away = away, best = m;
    }
    place_with(best);
  }

  Buffer slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  uint64_t multiplier_ = kMultipliers[0];
  size_t size_ = 0;
  [[no_unique_address]] Hasher hasher_;
};

// 64-bit hash -> index for values the caller stores. The slot's tag is the
// hash's high 32 bits and its position comes from the low bits, so a tag
// match between different values is a 1 in 2^32 event, independent of the
// table size.
class HashedIndexTable {
 public:
  struct Slot {
    uint32_t tag;
    uint32_t index_plus_one;  // 0: empty
  };

  HashedIndexTable() { clear(); }

  size_t size() const { return size_; }
  size_t capacity() const { return mask_ + 1; }

  void clear() {
    size_ = 0;
    allocate(kInitialSlots);
  }

  static uint32_t tag_of(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  // The index of the value with `hash` for which equal(index) holds, or
  // UINT32_MAX with *empty set to the slot where it would go.
  template <class Equal>
  uint32_t find(uint64_t hash, Equal&& equal, Slot** empty) const {
    size_t pos;
    uint32_t index = probe(slots(), mask_, hash, equal, &pos);
    if (index == UINT32_MAX) *empty = &slots()[pos];
    return index;
  }

  // find() over `slots` and `mask` as the caller holds them (in locals, in
  // a hot loop): the index, or UINT32_MAX with *pos the empty slot.
  template <class Equal>
  static uint32_t probe(const Slot* slots, size_t mask, uint64_t hash, Equal&& equal, size_t* pos) {
    const uint32_t tag = tag_of(hash);
    for (size_t at = hash & mask;; at = (at + 1) & mask) {
      const Slot& s = slots[at];
      if (s.index_plus_one == 0) {
        *pos = at;
        return UINT32_MAX;
      }
      if (s.tag == tag && equal(s.index_plus_one - 1)) return s.index_plus_one - 1;
    }
  }

  // Fills the empty slot `at` with the next index and returns it.
  // `hashes_in_order` holds every entry's hash by index, this one included.
  uint32_t insert(Slot* at, uint64_t hash, const uint64_t* hashes_in_order) {
    uint32_t index = static_cast<uint32_t>(size_);
    at->tag = tag_of(hash);
    at->index_plus_one = index + 1;
    ++size_;
    if (over_load(size_, capacity(), sizeof(Slot))) rebuild(capacity() * 2, hashes_in_order);
    return index;
  }

  Slot* slots() const { return const_cast<Slot*>(slots_.data_as<Slot>()); }
  size_t mask() const { return mask_; }

 private:
  void allocate(size_t slots) {
    slots_.resize(slots * sizeof(Slot));
    std::memset(slots_.data(), 0, slots_.size());
    mask_ = slots - 1;
  }

  void rebuild(size_t slots, const uint64_t* hashes_in_order) {
    allocate(slots);
    Slot* s = this->slots();
    for (size_t i = 0; i < size_; ++i) {
      uint64_t h = hashes_in_order[i];
      size_t pos = h & mask_;
      while (s[pos].index_plus_one != 0) pos = (pos + 1) & mask_;
      s[pos] = Slot{tag_of(h), static_cast<uint32_t>(i + 1)};
    }
  }

  Buffer slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace parq::encoding
