// ByteArrayBatch: byte array values in the Arrow binary layout, the form every
// BYTE_ARRAY decoder produces: n+1 int32 offsets (offsets[0] = 0) and the
// concatenated bytes. Decoders that would overflow 2^31-1 data bytes (or a
// lower limit the batch was given) stop early and report how many values
// they produced; the batch remembers that it refused a value, so that its
// reader can tell a full batch from a short page and throw
// ByteArrayBatchFull, on which the read starts again with smaller batches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "parq/error.h"
#include "parq/util/buffer.h"

namespace parq::encoding {

inline constexpr int64_t kMaxByteArrayBatchBytes = INT32_MAX;

// A batch's byte-array data would pass its limit: the caller reads fewer
// rows at a time.
class ByteArrayBatchFull : public Error {
 public:
  explicit ByteArrayBatchFull(const std::string& message) : Error(message, ErrorKind::kLimit) {}
  // The same error, placed by a layer that knows more of where it is.
  explicit ByteArrayBatchFull(const Error& placed) : Error(placed) {}
};

class ByteArrayBatch {
 public:
  // The leading zero offset is written with the first value (or the first
  // raw access): every leaf of a batch holds a ByteArrayBatch, and one
  // allocation for each, most of them never used, was a share of reads of
  // small batches.
  ByteArrayBatch() = default;

  size_t size() const { return offsets_.empty() ? 0 : offsets_.size() / sizeof(int32_t) - 1; }
  const int32_t* offsets() const { return offsets_.empty() ? &kNoOffsets : offsets_.data_as<int32_t>(); }
  const uint8_t* data() const { return data_.data(); }
  size_t data_size() const { return data_.size(); }
  std::string_view value(size_t i) const {
    const int32_t* o = offsets();
    return {reinterpret_cast<const char*>(data_.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
  }

  void clear() {
    if (!offsets_.empty()) offsets_.resize(sizeof(int32_t));
    data_.clear();
    refused_ = false;
  }
  // Whether `bytes` more data bytes still fit the limit (by default what
  // int32 offsets can address); a false answer is remembered.
  bool fits(size_t bytes) const {
    const bool ok = data_.size() <= limit_ && bytes <= limit_ - data_.size();
    refused_ |= !ok;
    return ok;
  }
  bool refused() const { return refused_; }
  // Lowers the limit (tests of full batches); kept across clear().
  void set_limit(size_t bytes) { limit_ = std::min(bytes, static_cast<size_t>(kMaxByteArrayBatchBytes)); }
  void append(std::string_view v) {
    data_.append(v);
    offsets_buffer().append_value(static_cast<int32_t>(data_.size()));
  }

  // Raw access for decoders that fill offsets and data in bulk: the
  // offsets start with the leading zero.
  Buffer& offsets_buffer() {
    if (offsets_.empty()) offsets_.append_value<int32_t>(0);
    return offsets_;
  }
  Buffer& data_buffer() { return data_; }

 private:
  Buffer offsets_;
  Buffer data_;
  size_t limit_ = static_cast<size_t>(kMaxByteArrayBatchBytes);
  mutable bool refused_ = false;
  static constexpr int32_t kNoOffsets = 0;
};

}  // namespace parq::encoding
