// BIT_PACKED (deprecated, Encodings.md "Bit-packed"): repetition and
// definition levels in old v1 pages. Values are packed back to back from the
// most significant bit of each byte down (the reverse of the hybrid's bit
// order), the last byte padded with zeros; there is no header, so the count
// comes from the page.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/util/buffer.h"

namespace parq::encoding {

class BitPackedDecoder {
 public:
  BitPackedDecoder() = default;
  BitPackedDecoder(const uint8_t* data, size_t size, int bit_width) { reset(data, size, bit_width); }

  // bit_width 0..32; throws parq::Error outside that range.
  void reset(const uint8_t* data, size_t size, int bit_width);

  // Decode up to n values; returns how many were produced, fewer than n when
  // the bytes run out (width 0 never runs out). A value above 32767 for the
  // int16_t levels output is an error.
  size_t decode(int16_t* out, size_t n);
  size_t decode(uint32_t* out, size_t n);
  size_t skip(size_t n);

  // Values the remaining bytes hold.
  size_t remaining() const;

 private:
  template <class T>
  size_t decode_into(T* out, size_t n);

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int bit_width_ = 0;
  size_t next_ = 0;  // index of the next value
};

// Appends packed_size(n, bit_width) bytes; values must fit bit_width (else
// parq::Error).
void encode_bit_packed(const uint32_t* values, size_t n, int bit_width, Buffer& out);
void encode_bit_packed(const int16_t* values, size_t n, int bit_width, Buffer& out);

}  // namespace parq::encoding
