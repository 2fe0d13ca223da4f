// BYTE_STREAM_SPLIT (Encodings.md, "Byte Stream Split"): FLOAT, DOUBLE,
// INT32, INT64 and FIXED_LEN_BYTE_ARRAY (FLOAT16 is FLBA(2)). A page of N
// values of W bytes is W streams of N bytes: stream b holds byte b of every
// value. Compressors then see the slowly-changing high bytes together.
//
// The decoder learns N from the page size (it must be a multiple of W) and
// can start anywhere, so skip() is free. The encoder buffers values until
// flush(), since every stream's length depends on the final count. The
// transposition kernels are public because bitshuffle uses them too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/util/buffer.h"

namespace parq::encoding {

// values (n * width bytes) -> width streams, stream b at out + b * stride
// (stride >= n). SIMD kernels for width 2, 4 and 8, a portable loop otherwise.
void byte_stream_split_encode(const uint8_t* values, size_t n, size_t width, uint8_t* out, size_t stride);
// The inverse: value i byte b is streams[b * stride + i], for i < n.
void byte_stream_split_decode(const uint8_t* streams, size_t stride, size_t n, size_t width, uint8_t* out);

// Any width >= 1; T is only the output element type (float, double, int32_t,
// int64_t, or uint8_t for FIXED_LEN_BYTE_ARRAY with width bytes per value).
class ByteStreamSplitDecoder {
 public:
  explicit ByteStreamSplitDecoder(size_t width);

  // Throws parq::Error unless size is a multiple of the width, or when
  // num_values exceeds size / width. num_values below that (a page whose
  // tail is unused) is allowed; the streams are still size / width long.
  void reset(const uint8_t* data, size_t size, size_t num_values);
  // Writes up to n values of width bytes each.
  size_t decode(uint8_t* out, size_t n);
  size_t decode(float* out, size_t n) { return decode_typed(out, n); }
  size_t decode(double* out, size_t n) { return decode_typed(out, n); }
  size_t decode(int32_t* out, size_t n) { return decode_typed(out, n); }
  size_t decode(int64_t* out, size_t n) { return decode_typed(out, n); }
  size_t skip(size_t n);
  size_t remaining() const { return num_values_ - index_; }
  size_t width() const { return width_; }

 private:
  template <class T>
  size_t decode_typed(T* out, size_t n) {
    check_type_width(sizeof(T));
    return decode(reinterpret_cast<uint8_t*>(out), n);
  }
  void check_type_width(size_t bytes) const;

  size_t width_;
  const uint8_t* data_ = nullptr;
  size_t stride_ = 0;  // values in the page = stream length
  size_t num_values_ = 0;
  size_t index_ = 0;
};

class ByteStreamSplitEncoder {
 public:
  explicit ByteStreamSplitEncoder(size_t width);

  // values: n records of width bytes.
  void put(const uint8_t* values, size_t n);
  void put(const float* values, size_t n) { put_typed(values, n); }
  void put(const double* values, size_t n) { put_typed(values, n); }
  void put(const int32_t* values, size_t n) { put_typed(values, n); }
  void put(const int64_t* values, size_t n) { put_typed(values, n); }
  // Appends the streams of everything put since the last flush.
  void flush(Buffer& out);
  size_t estimated_size() const { return pending_.size(); }
  size_t width() const { return width_; }

 private:
  template <class T>
  void put_typed(const T* values, size_t n) {
    check_type_width(sizeof(T));
    put(reinterpret_cast<const uint8_t*>(values), n);
  }
  void check_type_width(size_t bytes) const;

  size_t width_;
  Buffer pending_;  // values as put, transposed at flush
};

}  // namespace parq::encoding
