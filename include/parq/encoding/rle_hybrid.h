// The RLE/bit-packing hybrid (Encodings.md, "Run Length Encoding /
// Bit-Packing Hybrid"): definition and repetition levels, dictionary indices
// and RLE-encoded booleans.
//
//   run := bit-packed-run | rle-run
//   bit-packed-run := varint((groups << 1) | 1), groups * 8 values packed LSB first
//   rle-run := varint(count << 1), the value in ceil(bit_width / 8) bytes, little-endian
//
// The stream here is the runs alone; the 4-byte length prefix of v1 page
// levels and the bit-width byte of dictionary indices are read by the caller
// (read_length_prefix helps with the former).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "parq/util/buffer.h"

namespace parq::encoding {

class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width) { reset(data, size, bit_width); }

  // bit_width 0..32; throws parq::Error outside that range.
  void reset(const uint8_t* data, size_t size, int bit_width);

  // Decode up to n values; returns how many were produced, fewer than n only
  // when the stream ends. A value wider than the output type is an error
  // (levels above 32767, say), as is a run that claims more bytes than remain.
  size_t decode(uint32_t* out, size_t n);
  size_t decode(int16_t* out, size_t n);
  size_t decode(uint8_t* out, size_t n);  // booleans, 0 or 1

  // Skips up to n values; returns how many were skipped.
  size_t skip(size_t n);

  // For consumers that treat runs differently (a dictionary gather fills a
  // repeated index with one value): up to n values of the current run. A
  // repeat sets `repeated` and `value` and writes nothing; bit-packed values
  // go to `out`. Returns the count, 0 at the end of the stream.
  size_t next_piece(uint32_t* out, size_t n, bool& repeated, uint32_t& value);

  // When the values from here on start with a repeat: up to n of them,
  // consumed at once, their value in `value`. 0 (nothing consumed) at
  // bit-packed values or the end of the stream.
  size_t next_repeat(size_t n, uint32_t& value);

  // Width 1 only: when the values from here on start with bit-packed ones:
  // up to n of them, consumed at once, with how many are 1 in `ones` (a
  // count of set bits, not a decode). 0 (nothing consumed) at a repeat,
  // the end of the stream or another width.
  size_t next_packed_bits(size_t n, size_t& ones);

  // Whether the values from here on start with a repeat of `value` at least
  // n long, so that a caller may take them without decoding (a page of
  // levels that is one run). Reads the next run's header when no run is
  // under way; consumes no values.
  bool repeats(uint32_t value, size_t n);

  int bit_width() const { return bit_width_; }
  // Bytes consumed by the runs started so far.
  size_t position() const { return static_cast<size_t>(pos_ - begin_); }

 private:
  template <class T>
  size_t decode_into(T* out, size_t n);
  void unpack_packed(uint32_t* out, size_t n);
  bool next_run();
  [[noreturn]] void fail(const char* what) const;

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  // The current run: RLE (repeat value_ for remaining_ more values) or
  // bit-packed (remaining_ values left, packed_ points at the next one's group).
  bool rle_ = true;
  uint32_t value_ = 0;
  size_t remaining_ = 0;
  const uint8_t* packed_ = nullptr;
  size_t packed_index_ = 0;  // index within the run's first unconsumed group of 8
};

class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width = 0) { reset(bit_width); }

  // Starts a new stream; bit_width 0..32.
  void reset(int bit_width);

  void put(const uint32_t* values, size_t n);
  void put(const int16_t* values, size_t n);
  void put(const uint8_t* values, size_t n);
  // put() without its range check, for values the caller knows fit
  // bit_width (the dictionary encoder's indices); a value that does not fit
  // corrupts the stream.
  void put_within_width(const uint32_t* values, size_t n);

  // Appends the runs of everything put since reset() to `out` and resets.
  void flush(Buffer& out);
  // The same behind the 4-byte little-endian length of v1 page levels.
  void flush_with_length_prefix(Buffer& out);

  // An upper bound of the bytes flush() would append now.
  size_t max_encoded_size() const;

  int bit_width() const { return bit_width_; }

 private:
  template <class T>
  void put_values(const T* values, size_t n);
  void put_span(const uint32_t* values, size_t n);
  void commit_group(const uint32_t* group);
  void append_literal_groups(const uint32_t* values, size_t groups);
  void close_literal_run();
  void end_rle_run();
  [[noreturn]] void fail_width(const uint32_t* values, size_t n) const;

  int bit_width_ = 0;
  Buffer out_;
  // Values of a group of 8 not yet committed to a run (the group starts
  // where the last run ended).
  uint32_t pending_[8] = {};
  size_t num_pending_ = 0;
  // An RLE run in progress (repeat_count_ >= 8) and its value; runs start on
  // group boundaries and extend as far as the value repeats.
  uint32_t repeat_value_ = 0;
  size_t repeat_count_ = 0;
  // Open bit-packed run: where its header byte is reserved and how many
  // groups of 8 it holds so far.
  size_t literal_header_at_ = SIZE_MAX;
  size_t literal_groups_ = 0;
};

// Reads the 4-byte little-endian length that prefixes v1 page levels and
// returns the runs it covers; throws when it reaches past `data`.
std::span<const uint8_t> read_length_prefix(std::span<const uint8_t> data);

// The number of bits needed for values up to max_value (0 for 0).
constexpr int bit_width_for(uint64_t max_value) {
  int w = 0;
  while (max_value != 0) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

}  // namespace parq::encoding
