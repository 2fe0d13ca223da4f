// DELTA_BINARY_PACKED (Encodings.md, "Delta Encoding") for INT32 and INT64,
// and the length streams embedded in DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY.
//
//   stream := header block*
//   header := uleb(block size) uleb(miniblocks per block) uleb(total count) zigzag(first value)
//   block  := zigzag(min delta) byte(bit width) * miniblocks, miniblock*
//
// Deltas are taken modulo 2^32 / 2^64 (wrap-around), as the spec requires.
// Only the miniblocks that hold values are present in the last block; their
// padding and the widths of absent miniblocks are ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "parq/util/buffer.h"
#include "parq/util/cpu.h"

namespace parq::encoding {

struct DeltaBinaryPackedLayout {
  uint32_t block_size = 128;  // a multiple of 128
  uint32_t miniblocks = 4;    // block_size / miniblocks is a multiple of 32
};

template <class T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  DeltaBinaryPackedDecoder() = default;
  DeltaBinaryPackedDecoder(const uint8_t* data, size_t size) { reset(data, size); }

  // Reads the header; throws parq::Error when it is malformed or promises more
  // values than `size` bytes could hold. Bytes past the stream's end are left
  // alone (DELTA_LENGTH_BYTE_ARRAY keeps its data there).
  void reset(const uint8_t* data, size_t size);

  // Decodes up to n values; fewer only at the end of the stream.
  size_t decode(T* out, size_t n);
  size_t skip(size_t n);

  // The header's total value count, and what decode() has yet to produce.
  size_t total_count() const { return total_; }
  size_t remaining() const { return remaining_; }
  // Bytes the whole stream occupies, header to the last miniblock that holds
  // values: where the byte data of DELTA_LENGTH_BYTE_ARRAY starts. Walks the
  // block headers (not the values) and throws when the stream is truncated or
  // a used miniblock is wider than T.
  size_t encoded_size() const;

 private:
  using U = std::make_unsigned_t<T>;
  static constexpr size_t kGroup = 32;  // miniblock sizes are multiples of this

  void next_miniblock();
  void read_block_header();
  void refill_group();
  size_t decode_groups(T* out, size_t groups);
  [[noreturn]] void fail(const char* what, const uint8_t* at) const;

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;  // next unread byte (block header or miniblock)
  const uint8_t* end_ = nullptr;
  uint64_t block_size_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t miniblock_size_ = 0;
  size_t total_ = 0;
  size_t remaining_ = 0;
  size_t unpacked_left_ = 0;  // values not yet taken from miniblocks
  bool first_pending_ = false;
  U last_ = 0;
  U min_delta_ = 0;
  // The current block's bit widths and which miniblock comes next.
  SimdLevel level_ = SimdLevel::kScalar;
  const uint8_t* widths_ = nullptr;
  uint64_t miniblock_index_ = 0;
  // The current miniblock: packed bytes of its next 32-value group, width,
  // and values it still holds (padding excluded).
  const uint8_t* packed_ = nullptr;
  int width_ = 0;
  size_t miniblock_left_ = 0;
  // A group decoded ahead when a call ends inside it.
  U group_[kGroup];
  size_t group_pos_ = 0;
  size_t group_len_ = 0;
};

template <class T>
class DeltaBinaryPackedEncoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  // Throws parq::Error for a layout the spec does not allow.
  explicit DeltaBinaryPackedEncoder(DeltaBinaryPackedLayout layout = {});

  void put(const T* values, size_t n);
  // Appends the stream of everything put since the last flush, then starts
  // a new one with the same layout.
  void flush(Buffer& out);
  // An upper bound of the bytes flush() would append now.
  size_t estimated_size() const;
  size_t count() const { return count_; }

 private:
  using U = std::make_unsigned_t<T>;
  void write_block(size_t n);

  DeltaBinaryPackedLayout layout_;
  size_t miniblock_size_ = 0;
  Buffer blocks_;  // encoded blocks; the header is written at flush()
  Buffer deltas_;  // block_size U: deltas of the block being filled
  size_t pending_ = 0;
  size_t count_ = 0;
  U first_ = 0;
  U last_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;
extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace parq::encoding
