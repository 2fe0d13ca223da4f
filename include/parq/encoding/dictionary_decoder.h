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
  // fit() (the caller starts a new batch and calls again). `lengths` is
  // dictionary.lengths(), computed once per dictionary: entries of up to 32
  // bytes are copied as whole vectors, entries all of one length without
  // reading their offsets.
  size_t decode(const ByteArrayBatch& dictionary, ByteArrayBatch::Lengths lengths, ByteArrayBatch& out, size_t n);
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
