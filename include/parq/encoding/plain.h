// PLAIN encoding (Encodings.md, "Plain"): the default encoding of every
// physical type and the layout of dictionary pages. A column reader hands the
// decompressed value bytes of a data page (after the levels) to one of these
// decoders; a writer appends values to an encoder and flushes the page body.
//
//   BOOLEAN               bit-packed, LSB first, one bit per value
//   INT32/INT64/FLOAT/DOUBLE/INT96  values back to back, little-endian
//   BYTE_ARRAY            4-byte little-endian length, then the bytes
//   FIXED_LEN_BYTE_ARRAY  `width` bytes per value, back to back
//
// Decoders are told how many values the page holds; a page too short for that
// count is rejected by reset() (fixed-width types) or by the decode() call
// that reaches the bad bytes (byte arrays, whose sizes are only known as they
// are read). Nothing is ever read outside [data, data + size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/types.h"
#include "parq/util/buffer.h"

namespace parq::encoding {

namespace detail {
// Hands an encoder's bytes to the caller: a swap when `out` is empty (the
// usual case, no copy), an append otherwise. `from` is left empty.
inline void move_or_append(Buffer& from, Buffer& out) {
  if (out.empty()) {
    Buffer spare = std::move(out);
    out = std::move(from);
    from = std::move(spare);
  } else {
    out.append(from.data(), from.size());
  }
  from.clear();
}
}  // namespace detail

// INT32, INT64, INT96, FLOAT, DOUBLE (T = int32_t, int64_t, Int96, float,
// double; uint32_t and uint64_t are accepted too).
template <class T>
class PlainDecoder {
 public:
  PlainDecoder() = default;
  PlainDecoder(const uint8_t* data, size_t size, size_t num_values) { reset(data, size, num_values); }

  // Throws parq::Error when `size` holds fewer than num_values values.
  void reset(const uint8_t* data, size_t size, size_t num_values);
  // Decodes up to n values; returns how many, fewer only at the end.
  size_t decode(T* out, size_t n);
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }
  // Where the next value's bytes are (what decode() copies from).
  const uint8_t* position() const { return data_ + index_ * sizeof(T); }

 private:
  const uint8_t* data_ = nullptr;
  size_t num_values_ = 0;
  size_t index_ = 0;
};

template <class T>
class PlainEncoder {
 public:
  void put(const T* values, size_t n);
  // Appends everything put since the last flush to `out` and starts afresh.
  void flush(Buffer& out);
  size_t estimated_size() const { return out_.size(); }

 private:
  Buffer out_;
};

// BOOLEAN: decodes to one byte per value, 0 or 1.
class PlainBooleanDecoder {
 public:
  PlainBooleanDecoder() = default;
  PlainBooleanDecoder(const uint8_t* data, size_t size, size_t num_values) { reset(data, size, num_values); }

  void reset(const uint8_t* data, size_t size, size_t num_values);
  size_t decode(uint8_t* out, size_t n);
  size_t decode(bool* out, size_t n) { return decode(reinterpret_cast<uint8_t*>(out), n); }
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t num_values_ = 0;
  size_t index_ = 0;  // in bits
};

// BOOLEAN: any non-zero byte is true.
class PlainBooleanEncoder {
 public:
  void put(const uint8_t* values, size_t n);
  void put(const bool* values, size_t n) { put(reinterpret_cast<const uint8_t*>(values), n); }
  void flush(Buffer& out);
  size_t estimated_size() const { return out_.size(); }

 private:
  Buffer out_;
  size_t num_values_ = 0;  // since the last flush; the last byte of out_ is partial unless a multiple of 8
};

// BYTE_ARRAY: appends to a ByteArrayBatch.
class PlainByteArrayDecoder {
 public:
  PlainByteArrayDecoder() = default;
  PlainByteArrayDecoder(const uint8_t* data, size_t size, size_t num_values) { reset(data, size, num_values); }

  void reset(const uint8_t* data, size_t size, size_t num_values);
  // Appends up to n values to `out`; returns how many. Fewer than n means the
  // page ended or the batch is full (ByteArrayBatch::fits): start a new one.
  // A length running past the page, or a page ending before num_values
  // values, throws parq::Error.
  size_t decode(ByteArrayBatch& out, size_t n);
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }

 private:
  [[noreturn]] void fail(const uint8_t* at, const char* what) const;

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t num_values_ = 0;
  size_t index_ = 0;
  bool long_values_ = false;  // seen values of 33 to 64 bytes, in any page
};

class PlainByteArrayEncoder {
 public:
  void put(const ByteArrayBatch& values);
  // offsets.size() - 1 values; value i is data[offsets[i], offsets[i+1]).
  // Offsets that decrease or leave `data` throw parq::Error.
  void put(std::span<const int32_t> offsets, std::span<const uint8_t> data);
  void put(const std::string_view* values, size_t n);
  void flush(Buffer& out);
  size_t estimated_size() const { return out_.size(); }

 private:
  Buffer out_;
};

// FIXED_LEN_BYTE_ARRAY: `width` contiguous bytes per value.
class PlainFixedLenByteArrayDecoder {
 public:
  explicit PlainFixedLenByteArrayDecoder(size_t width);

  void reset(const uint8_t* data, size_t size, size_t num_values);
  size_t decode(uint8_t* out, size_t n);
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }
  size_t width() const { return width_; }

 private:
  size_t width_;
  const uint8_t* data_ = nullptr;
  size_t num_values_ = 0;
  size_t index_ = 0;
};

class PlainFixedLenByteArrayEncoder {
 public:
  explicit PlainFixedLenByteArrayEncoder(size_t width);

  void put(const uint8_t* values, size_t n);
  void flush(Buffer& out);
  size_t estimated_size() const { return out_.size(); }
  size_t width() const { return width_; }

 private:
  size_t width_;
  Buffer out_;
};

extern template class PlainDecoder<int32_t>;
extern template class PlainDecoder<int64_t>;
extern template class PlainDecoder<uint32_t>;
extern template class PlainDecoder<uint64_t>;
extern template class PlainDecoder<Int96>;
extern template class PlainDecoder<float>;
extern template class PlainDecoder<double>;
extern template class PlainEncoder<int32_t>;
extern template class PlainEncoder<int64_t>;
extern template class PlainEncoder<uint32_t>;
extern template class PlainEncoder<uint64_t>;
extern template class PlainEncoder<Int96>;
extern template class PlainEncoder<float>;
extern template class PlainEncoder<double>;

}  // namespace parq::encoding
