// DELTA_BYTE_ARRAY (Encodings.md, "Delta Strings") for BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY: front compression. Each value is a prefix of the
// previous value plus a suffix; the prefix lengths are one
// DELTA_BINARY_PACKED stream, the suffixes a DELTA_LENGTH_BYTE_ARRAY stream
// after it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/delta_binary_packed.h"
#include "parq/encoding/delta_length_byte_array.h"
#include "parq/util/buffer.h"

namespace parq::encoding {

class DeltaByteArrayDecoder {
 public:
  DeltaByteArrayDecoder() = default;
  DeltaByteArrayDecoder(const uint8_t* data, size_t size) { reset(data, size); }

  // Throws parq::Error when either header is malformed or the two streams
  // disagree on the value count.
  void reset(const uint8_t* data, size_t size);

  // BYTE_ARRAY: appends up to n values; fewer at the end of the stream or
  // when out is full (ByteArrayBatch::fits).
  size_t decode(ByteArrayBatch& out, size_t n);
  // FIXED_LEN_BYTE_ARRAY: up to n values of exactly `width` bytes each into
  // out (n * width bytes); a value of another length is an error.
  size_t decode(uint8_t* out, size_t n, size_t width);
  size_t skip(size_t n);

  size_t total_count() const { return suffixes_.total_count(); }
  size_t remaining() const { return suffixes_.remaining(); }

 private:
  static constexpr size_t kChunk = 1024;
  // The next up to n values' prefix lengths, suffix lengths and suffix
  // bytes (count 0 only at the end), and moving past the first `count` of
  // them once rebuilt; the last one rebuilt becomes the next prefix source.
  struct Pieces {
    const int32_t* prefix;
    const int32_t* suffix;
    const uint8_t* bytes;
    size_t count;
  };
  Pieces next_pieces(size_t n);
  void consume(size_t count, size_t suffix_bytes, const uint8_t* last, size_t last_len);
  int64_t reserved_bytes(const int32_t* prefix, const int32_t* suffix, size_t count) const;
  [[noreturn]] void bad_prefix(size_t i, int32_t prefix, size_t previous) const;
  [[noreturn]] void bad_width(size_t i, size_t length, size_t width) const;

  DeltaBinaryPackedDecoder<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  const uint8_t* end_ = nullptr;  // of the input: bounds over-reading copies
  int32_t chunk_[kChunk];         // prefix lengths taken from the stream
  size_t chunk_pos_ = 0;
  size_t chunk_len_ = 0;
  Buffer previous_;  // the last value produced: the next one's prefix source
  ByteArrayBatch skipped_;
};

class DeltaByteArrayEncoder {
 public:
  // BYTE_ARRAY: n values; offsets has n + 1 entries indexing data.
  void put(const int32_t* offsets, const uint8_t* data, size_t n);
  void put(const ByteArrayBatch& values) { put(values.offsets(), values.data(), values.size()); }
  // FIXED_LEN_BYTE_ARRAY: n values of `width` bytes each.
  void put(const uint8_t* values, size_t n, size_t width);

  // Appends the encoded values put since the last flush, then starts afresh.
  void flush(Buffer& out);
  size_t estimated_size() const {
    return prefixes_.estimated_size() + suffix_lengths_.estimated_size() + suffixes_.size();
  }

 private:
  void put_one(const uint8_t* value, size_t length, int32_t& prefix, int32_t& suffix);
  // Values come from next(i) and lie before input_end, which bounds the
  // encoder's 16-byte reads.
  template <class Next>
  void put_values(size_t n, const uint8_t* input_end, Next next);

  DeltaBinaryPackedEncoder<int32_t> prefixes_;
  DeltaBinaryPackedEncoder<int32_t> suffix_lengths_;
  Buffer suffixes_;
  Buffer previous_;
};

}  // namespace parq::encoding
