// Dictionary encoding (Encodings.md, "Dictionary Encoding": RLE_DICTIONARY,
// and the deprecated PLAIN_DICTIONARY which has the same bytes): each value
// becomes the index of its entry in a per-column-chunk dictionary, entries
// numbered in order of first appearance.
//
//   dictionary page := the entries, PLAIN-encoded
//   data page       := one byte bit width, then the page's indices in the
//                      RLE/bit-packing hybrid at that width
//
// The writer's strategy is "dictionary first, fall back once it outgrows its
// limit": put() admits a new entry only while the dictionary stays within
// DictionaryLimits, and stops at the first value that would cross them,
// returning how many values it consumed. The caller then writes the indices
// buffered so far (write_indices), the dictionary page, and encodes the rest
// of the column chunk another way.
//
// Values are compared by bytes: floats and doubles by bit pattern, so -0.0
// and 0.0 are two entries and every NaN payload is its own entry (as the
// Arrow and parquet-java writers do, and as readers must reproduce bit for
// bit anyway).
//
// Not thread-safe; one encoder per column writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/encoding/types.h"
#include "parq/util/buffer.h"

namespace parq::encoding {

struct DictionaryLimits {
  // Bytes of the dictionary page (its PLAIN encoding). 1 MiB is the default
  // of the Arrow and parquet-java writers.
  size_t max_bytes = size_t{1} << 20;
  // Entries; above INT32_MAX is taken as INT32_MAX, since readers hold
  // indices in int32.
  size_t max_entries = INT32_MAX;
};

// What every dictionary encoder shares: the sizes, the limits and the
// current page's indices.
class DictionaryEncoderBase {
 public:
  size_t num_entries() const { return num_entries_; }
  // The size of the PLAIN-encoded dictionary page write_dictionary_page
  // would append now.
  size_t dictionary_byte_size() const { return dictionary_bytes_; }
  const DictionaryLimits& limits() const { return limits_; }
  // Whether a put() stopped at a value the limits left no room for; the
  // caller falls back from there on.
  bool limit_reached() const { return limit_reached_; }
  // Whether one more entry of `entry_bytes` PLAIN bytes fits the limits.
  bool fits(size_t entry_bytes) const {
    return num_entries_ < limits_.max_entries && entry_bytes <= limits_.max_bytes - dictionary_bytes_;
  }

  // Indices put since the last write_indices (the current data page).
  size_t num_buffered_indices() const { return indices_.size() / sizeof(uint32_t); }
  std::span<const uint32_t> buffered_indices() const { return {indices_.data_as<uint32_t>(), num_buffered_indices()}; }
  // Drops the buffered indices unwritten (a writer that packs them itself).
  void clear_indices() { indices_.clear(); }
  // Drops the last n buffered indices (values the caller moves to another
  // page); their entries stay in the dictionary.
  void drop_last_indices(size_t n) { indices_.resize(indices_.size() - n * sizeof(uint32_t)); }

  // The bit width of the indices byte: 0 with no entries, 1 with one entry
  // (not 0: the Arrow C++ and arrow-rs writers never write 0 for a non-empty
  // dictionary, so no reader is left untested by it), else the bits of the
  // largest index.
  int index_bit_width() const;

  // Appends the data page body: the bit width byte, then the buffered
  // indices RLE/bit-packed at that width. Clears the indices; the dictionary
  // stays.
  void write_indices(Buffer& out);

 protected:
  explicit DictionaryEncoderBase(DictionaryLimits limits);
  void reset_base();
  // Reserves room for n indices and returns where they go; finish_indices
  // gives back the part a put did not use.
  uint32_t* begin_indices(size_t n) { return reinterpret_cast<uint32_t*>(indices_.extend(n * sizeof(uint32_t))); }
  void finish_indices(size_t reserved, size_t used) { indices_.resize(indices_.size() - (reserved - used) * 4); }
  void count_entry(size_t entry_bytes) {
    ++num_entries_;
    dictionary_bytes_ += entry_bytes;
  }

  Buffer indices_;
  RleBitPackedEncoder rle_;
  DictionaryLimits limits_;
  size_t num_entries_ = 0;
  size_t dictionary_bytes_ = 0;
  bool limit_reached_ = false;
};

// INT32, INT64, INT96, FLOAT and DOUBLE: T is int32_t, int64_t, Int96, float
// or double.
template <class T>
class DictionaryEncoder : public DictionaryEncoderBase {
 public:
  explicit DictionaryEncoder(DictionaryLimits limits = {});
  ~DictionaryEncoder();
  DictionaryEncoder(DictionaryEncoder&&) noexcept;
  DictionaryEncoder& operator=(DictionaryEncoder&&) noexcept;

  // Buffers the index of each of values[0, n), adding new entries while they
  // fit the limits. Returns how many values it took: n, or fewer when
  // values[returned] would have crossed a limit (limit_reached() is then
  // true).
  size_t put(const T* values, size_t n);

  // Appends the dictionary page body: the entries PLAIN-encoded (4, 8 or 12
  // little-endian bytes each), in index order.
  void write_dictionary_page(Buffer& out) const;

  // Empties the dictionary and the indices; the limits stay.
  void reset();

 private:
  struct Table;
  std::unique_ptr<Table> table_;
};

extern template class DictionaryEncoder<int32_t>;
extern template class DictionaryEncoder<int64_t>;
extern template class DictionaryEncoder<Int96>;
extern template class DictionaryEncoder<float>;
extern template class DictionaryEncoder<double>;

// BYTE_ARRAY. Entries are stored once, in an arena laid out as the PLAIN
// page itself (4-byte little-endian length, then the bytes).
class ByteArrayDictionaryEncoder : public DictionaryEncoderBase {
 public:
  explicit ByteArrayDictionaryEncoder(DictionaryLimits limits = {});
  ~ByteArrayDictionaryEncoder();
  ByteArrayDictionaryEncoder(ByteArrayDictionaryEncoder&&) noexcept;
  ByteArrayDictionaryEncoder& operator=(ByteArrayDictionaryEncoder&&) noexcept;

  // Value i is data[offsets[i], offsets[i + 1]); offsets[0] need not be 0, so
  // a batch is resumed after k consumed values with put(offsets + k, data,
  // n - k). Returns how many values it took, as DictionaryEncoder::put.
  // Throws parq::Error on decreasing offsets.
  size_t put(const int32_t* offsets, const uint8_t* data, size_t n);
  size_t put(const ByteArrayBatch& batch) { return put(batch.offsets(), batch.data(), batch.size()); }

  // Appends the entries PLAIN-encoded, in index order.
  void write_dictionary_page(Buffer& out) const;
  // Entry i's bytes (i < num_entries()), valid until the next put or reset.
  std::string_view entry(size_t i) const;

  void reset();

 private:
  struct Table;
  std::unique_ptr<Table> table_;
};

// FIXED_LEN_BYTE_ARRAY of `width` bytes per value.
class FixedLenByteArrayDictionaryEncoder : public DictionaryEncoderBase {
 public:
  // Throws parq::Error if width is negative.
  explicit FixedLenByteArrayDictionaryEncoder(int width, DictionaryLimits limits = {});
  ~FixedLenByteArrayDictionaryEncoder();
  FixedLenByteArrayDictionaryEncoder(FixedLenByteArrayDictionaryEncoder&&) noexcept;
  FixedLenByteArrayDictionaryEncoder& operator=(FixedLenByteArrayDictionaryEncoder&&) noexcept;

  int width() const { return width_; }

  // values holds n * width() bytes. Returns how many values it took, as
  // DictionaryEncoder::put.
  size_t put(const uint8_t* values, size_t n);

  // Appends the entries back to back, width() bytes each, in index order.
  void write_dictionary_page(Buffer& out) const;

  void reset();

 private:
  struct Table;
  int width_;
  std::unique_ptr<Table> table_;
};

}  // namespace parq::encoding
