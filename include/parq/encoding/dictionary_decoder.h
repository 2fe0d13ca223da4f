// DictionaryDecoder: the values of a PLAIN_DICTIONARY / RLE_DICTIONARY data
// page. The page's value section is one byte of index bit width then
// RLE/bit-packing hybrid runs of indices into the column chunk's dictionary;
// decoding gathers the dictionary entries. Indices are checked against the
// dictionary size once per block (the block's maximum), and a repeated index
// is checked once and filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/encoding/types.h"

namespace parq::encoding {

// A BYTE_ARRAY dictionary as DictionaryDecoder gathers from it, built once
// per dictionary page: the entries, the longest one's length, whether all
// have that length (codes, flags), and for entries of up to 32 bytes in a
// dictionary that stays in cache, a copy of each in a zero-padded slot of 8,
// 16 or 32 bytes with its length beside it. Appending a value from its slot
// is one load and one store of the slot and one load of the length; from the
// entries themselves it took two offset loads on the way to the copy.
class ByteArrayDictionaryTable {
 public:
  ByteArrayDictionaryTable() = default;
  explicit ByteArrayDictionaryTable(ByteArrayBatch entries);

  const ByteArrayBatch& entries() const { return entries_; }
  size_t size() const { return entries_.size(); }
  size_t longest() const { return longest_; }
  bool uniform() const { return uniform_; }
  // The slots (slot_bytes() apart) and the entries' lengths; slot_bytes()
  // is 0 where there are none.
  size_t slot_bytes() const { return slot_bytes_; }
  const uint8_t* slots() const { return slots_.data(); }
  const uint32_t* slot_lengths() const { return slot_lengths_.data_as<uint32_t>(); }

 private:
  ByteArrayBatch entries_;
  size_t longest_ = 0;
  bool uniform_ = false;
  size_t slot_bytes_ = 0;
  Buffer slots_;
  Buffer slot_lengths_;
};

class DictionaryDecoder {
 public:
  DictionaryDecoder() = default;
  DictionaryDecoder(const uint8_t* data, size_t size) { reset(data, size); }

  // The page's value section. Throws parq::Error when it is empty or the bit
  // width is above 32.
  void reset(const uint8_t* data, size_t size);

  // Decode up to n values; each returns how many were produced, fewer than
  // n only when the indices end (or, for byte arrays, when `out` is full).
  // An index outside the dictionary throws parq::Error.
  // T: int32_t, int64_t, float, double, Int96.
  template <class T>
  size_t decode(std::span<const T> dictionary, T* out, size_t n);
  // FIXED_LEN_BYTE_ARRAY: entries of `width` bytes, contiguous, in and out.
  size_t decode(const uint8_t* dictionary, size_t dictionary_size, size_t width, uint8_t* out, size_t n);
  // BYTE_ARRAY: appends to `out`, stopping before a value that would not
  // fit() (the caller starts a new batch and calls again).
  size_t decode(const ByteArrayDictionaryTable& dictionary, ByteArrayBatch& out, size_t n);
  // The indices alone, checked against dictionary_size.
  size_t decode_indices(uint32_t* out, size_t n, size_t dictionary_size);

  size_t skip(size_t n);

  int bit_width() const { return indices_.bit_width(); }

 private:
  static constexpr size_t kBlock = 512;

  template <class Emit>
  size_t run(size_t n, size_t dictionary_size, Emit&& emit);
  bool refill();

  RleBitPackedDecoder indices_;
  // The piece of the index stream being consumed: a repeat of one index, or
  // unpacked indices in block_.
  bool repeated_ = false;
  uint32_t repeat_index_ = 0;
  size_t piece_pos_ = 0;
  size_t piece_end_ = 0;
  alignas(64) uint32_t block_[kBlock];
};

}  // namespace parq::encoding
