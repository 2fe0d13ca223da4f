// Group varint: the variable-length integer format of the early Parquet
// draft, kept as a library codec (not a Parquet page encoding). Lengths come
// first, in a lead, so a decoder knows where every value starts without
// testing continuation bits.
//
//   uint32: groups of 4 values. One lead byte of four 2-bit fields, each the
//           byte length minus 1 of a value, the FIRST value in the top two
//           bits; then the values, little-endian, in 1..4 bytes each.
//   uint64: groups of 5 values. Two lead bytes read as a big-endian 16-bit
//           word: bit 15 unused (must be 0), then five 3-bit fields (length
//           minus 1, 1..8 bytes), the FIRST value in bits 14..12; then the
//           values, little-endian.
//
// An incomplete last group is padded with zeros (each taking one byte); the
// decoder is told the true count and drops the padding.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/util/buffer.h"

namespace parq::encoding {

// Appends the encoding of n values to out.
void group_var_int_encode(const uint32_t* values, size_t n, Buffer& out);
void group_var_int_encode(const uint64_t* values, size_t n, Buffer& out);

// The most bytes n values can take.
constexpr size_t group_var_int_max_size(size_t n, size_t value_bytes) {
  size_t group = value_bytes == 4 ? 4 : 5;
  size_t lead = value_bytes == 4 ? 1 : 2;
  return (n + group - 1) / group * (lead + group * value_bytes);
}

// Decodes n values from data[0, size); returns the bytes consumed (whole
// groups). Throws parq::Error when the data ends inside a group.
size_t group_var_int_decode(const uint8_t* data, size_t size, size_t n, uint32_t* out);
size_t group_var_int_decode(const uint8_t* data, size_t size, size_t n, uint64_t* out);

// The batch API the page encodings share, over the functions above.
template <class T>
class GroupVarIntDecoder {
 public:
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  static constexpr size_t kGroup = sizeof(T) == 4 ? 4 : 5;

  void reset(const uint8_t* data, size_t size, size_t num_values);
  size_t decode(T* out, size_t n);
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }

 private:
  void refill();

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t num_values_ = 0;
  size_t index_ = 0;
  // A group decoded in full of which a call used only the front.
  T group_[5] = {};
  size_t group_used_ = 0;
  size_t group_size_ = 0;
};

template <class T>
class GroupVarIntEncoder {
 public:
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  static constexpr size_t kGroup = sizeof(T) == 4 ? 4 : 5;

  void put(const T* values, size_t n);
  // Appends everything put since the last flush, the last group padded.
  void flush(Buffer& out);
  size_t estimated_size() const { return out_.size() + group_var_int_max_size(num_pending_, sizeof(T)); }

 private:
  Buffer out_;
  T pending_[5] = {};  // an incomplete group waits for more values
  size_t num_pending_ = 0;
};

extern template class GroupVarIntDecoder<uint32_t>;
extern template class GroupVarIntDecoder<uint64_t>;
extern template class GroupVarIntEncoder<uint32_t>;
extern template class GroupVarIntEncoder<uint64_t>;

}  // namespace parq::encoding
