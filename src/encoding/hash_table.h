// Open-addressing hash tables behind the dictionary encoders: value -> dense
// index (0, 1, 2, ... in order of first appearance). Linear probing over a
// power-of-two array kept at most half full, so a miss ends at an empty slot
// after a probe or two.
//
// Two shapes:
//  - FixedKeyTable: keys of 4, 8 or 12 bytes live in the slot itself, so a hit
//    costs one cache line and one compare; growing re-hashes the keys, which
//    is as cheap as reading a stored hash would be.
//  - HashedIndexTable: for byte strings. A slot holds 32 bits of the hash and
//    the index; the caller keeps the values (an arena) and every entry's full
//    hash, so growing never touches the values and a probe compares the
//    bytes only when the 32-bit tags match.
//
// Private to src/encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

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

// 4- and 8-byte keys: 32x32 -> 64 multiplies, one per 32-bit half, folded
// to 32 bits, then one more multiply-fold so that keys differing only in
// high bits still spread over the low (slot) bits. Those are the operations
// vpmuludq offers, so the dictionary encoder's AVX-512 probe hashes 8 keys
// at once to the same slots (encoding/dictionary_encoder.cc has the vector
// form; the two must agree).
inline constexpr uint32_t kSeed32A = 0x85ebca6bu;
inline constexpr uint32_t kSeed32B = 0xc2b2ae35u;
inline constexpr uint32_t kMul32A = 0x9e3779b1u;
inline constexpr uint32_t kMul32B = 0x7feb352du;
inline constexpr uint32_t kMul32C = 0x846ca68bu;
inline uint64_t fold32(uint64_t p) { return p ^ (p >> 32); }
inline uint64_t finish32(uint64_t h) { return fold32(uint64_t{static_cast<uint32_t>(h)} * kMul32C); }
inline uint64_t hash_key(uint32_t k) { return finish32(fold32(uint64_t{k ^ kSeed32A} * kMul32A)); }
inline uint64_t hash_key(uint64_t k) {
  return finish32(fold32(uint64_t{static_cast<uint32_t>(k) ^ kSeed32A} * kMul32A +
                         uint64_t{static_cast<uint32_t>(k >> 32) ^ kSeed32B} * kMul32B));
}
inline uint64_t hash_key(const Int96& k) {
  uint64_t lo = uint64_t{k.words[0]} | (uint64_t{k.words[1]} << 32);
  return fold_multiply(lo ^ kSeedA, uint64_t{k.words[2]} ^ kSeedB);
}

// Hash of a byte string: XXH3 when the header is there, otherwise a simple
// word-at-a-time multiply-fold (same quality class for table indexing, a bit
// slower on long strings).
inline uint64_t hash_bytes(const uint8_t* p, size_t n) {
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

// Tables that fit in L1/L2 are kept at most a quarter full, larger ones at
// most half: in a small table nearly every lookup is a hit, and a hit past
// its first slot is a branch the predictor cannot learn, which costs more
// than the memory; in a large one each extra slot is a cache miss.
inline constexpr size_t kSparseTableBytes = size_t{64} << 10;

inline bool over_load(size_t size, size_t slots, size_t slot_bytes) {
  size_t limit = slots * slot_bytes <= kSparseTableBytes ? slots / 4 : slots / 2;
  return size > limit;
}

// Key -> index, keys stored in the slots. `Key` is compared with ==, so
// floating-point values go in as their bit patterns.
template <class Key, class Hasher = KeyHasher>
class FixedKeyTable {
 public:
  struct Slot {
    Key key;
    uint32_t index_plus_one;  // 0: empty
  };

  FixedKeyTable() { clear(); }

  size_t size() const { return size_; }
  size_t capacity() const { return mask_ + 1; }

  void clear() {
    size_ = 0;
    allocate(kInitialSlots);
  }

  // Where `key` is, or the empty slot where it would go. The probe loop is
  // written out in the encoder's put loop for speed; this is for the rest.
  Slot* find(const Key& key) const {
    size_t pos = hasher_(key) & mask_;
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
    if (over_load(size_, capacity(), sizeof(Slot))) rebuild(capacity() * 2, keys_in_order);
    return index;
  }

  Slot* slots() const { return const_cast<Slot*>(slots_.template data_as<Slot>()); }
  size_t mask() const { return mask_; }
  const Hasher& hasher() const { return hasher_; }

 private:
  void allocate(size_t slots) {
    slots_.resize(slots * sizeof(Slot));
    std::memset(slots_.data(), 0, slots_.size());
    mask_ = slots - 1;
  }

  void rebuild(size_t slots, const Key* keys_in_order) {
    allocate(slots);
    Slot* s = slots_.template data_as<Slot>();
    for (size_t i = 0; i < size_; ++i) {
      const Key& k = keys_in_order[i];
      size_t pos = hasher_(k) & mask_;
      while (s[pos].index_plus_one != 0) pos = (pos + 1) & mask_;
      s[pos].key = k;
      s[pos].index_plus_one = static_cast<uint32_t>(i + 1);
    }
  }

  Buffer slots_;
  size_t mask_ = 0;
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
