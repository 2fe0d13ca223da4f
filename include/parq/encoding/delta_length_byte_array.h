// DELTA_LENGTH_BYTE_ARRAY (Encodings.md, "Delta-length byte array") for
// BYTE_ARRAY: every value's length as one DELTA_BINARY_PACKED stream, then
// all the values' bytes back to back.
//
// The decoder takes lengths from the stream a chunk at a time, checks the
// whole chunk at once (no negative length, none past the data) and turns it
// into Arrow offsets with a prefix sum and the bytes with one memcpy.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/delta_binary_packed.h"
#include "parq/util/buffer.h"

namespace parq::encoding {

class DeltaLengthByteArrayDecoder {
 public:
  DeltaLengthByteArrayDecoder() = default;
  DeltaLengthByteArrayDecoder(const uint8_t* data, size_t size) { reset(data, size); }

  // The value count is the length stream's; throws parq::Error when its
  // header is malformed or truncated.
  void reset(const uint8_t* data, size_t size);

  // Appends up to n values to out; fewer at the end of the stream or when
  // out is full (ByteArrayBatch::fits).
  size_t decode(ByteArrayBatch& out, size_t n);
  size_t skip(size_t n);

  size_t total_count() const { return lengths_.total_count(); }
  size_t remaining() const { return remaining_; }

  // Lower level, for DELTA_BYTE_ARRAY's suffixes: up to n of the next
  // lengths (none only at the end) and where their bytes start. Valid until
  // consume(), which moves past `count` values holding `bytes` bytes.
  struct Run {
    const int32_t* lengths;
    size_t count;
    const uint8_t* bytes;
  };
  Run peek(size_t n);
  void consume(size_t count, size_t bytes);

 private:
  static constexpr size_t kChunk = 1024;
  void refill();

  DeltaBinaryPackedDecoder<int32_t> lengths_;
  const uint8_t* begin_ = nullptr;
  const uint8_t* bytes_ = nullptr;  // the next value's bytes
  const uint8_t* end_ = nullptr;
  size_t remaining_ = 0;
  // The chunk of lengths taken from the stream, and running byte totals:
  // ends_[i] = bytes of values 0..i of the chunk.
  int32_t chunk_[kChunk];
  int64_t ends_[kChunk];
  size_t chunk_pos_ = 0;
  size_t chunk_len_ = 0;
};

class DeltaLengthByteArrayEncoder {
 public:
  // Appends n values; offsets has n + 1 entries indexing data.
  void put(const int32_t* offsets, const uint8_t* data, size_t n);
  void put(const ByteArrayBatch& values) { put(values.offsets(), values.data(), values.size()); }

  // Appends the encoded values put since the last flush, then starts afresh.
  void flush(Buffer& out);
  size_t estimated_size() const { return lengths_.estimated_size() + data_.size(); }

 private:
  DeltaBinaryPackedEncoder<int32_t> lengths_;
  Buffer data_;
};

}  // namespace parq::encoding
