// ValueWriter: encodes one column chunk's non-null values into data page
// bodies with the encoding chosen for the column (the writer-side twin of
// value_reader.h). One virtual call per page slice, never per value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "parq/encoding/dictionary_encoder.h"
#include "parq/format/metadata.h"
#include "parq/schema/schema.h"
#include "parq/util/buffer.h"

namespace parq {

// Dense non-null values in physical storage: `fixed` holds count * width
// bytes (BOOLEAN: one byte 0/1 per value); BYTE_ARRAY value i is
// data[offsets[i], offsets[i + 1]).
struct DenseValues {
  const uint8_t* fixed = nullptr;
  const int32_t* offsets = nullptr;
  const uint8_t* data = nullptr;
  int64_t count = 0;
};

class ValueWriter {
 public:
  virtual ~ValueWriter() = default;

  // The encoding `encoding` for `column`, or parq::Error naming the column
  // when it does not apply to the physical type. RLE_DICTIONARY (or
  // PLAIN_DICTIONARY) makes a dictionary writer with `limits`.
  static std::unique_ptr<ValueWriter> make(const ColumnDescriptor& column, format::Encoding encoding,
                                           const encoding::DictionaryLimits& limits = {});

  virtual format::Encoding encoding() const = 0;
  // Encodes values [begin, begin + n) of `values`; returns how many it
  // took: n, or fewer when a dictionary reached its limits.
  virtual size_t put(const DenseValues& values, size_t begin, size_t n) = 0;
  // About the bytes flush() would append now.
  virtual size_t estimated_size() const = 0;
  // Appends the data page body of the values put since the last flush.
  virtual void flush(Buffer& out) = 0;

  // Dictionary writers only.
  virtual bool is_dictionary() const { return false; }
  // Forgets the last n values put into the current page (they move to the
  // fallback's first page); their dictionary entries stay.
  virtual void drop_last(size_t n) { (void)n; }
  virtual size_t dictionary_entries() const { return 0; }
  // Bytes of the dictionary page write_dictionary would append now.
  virtual size_t dictionary_bytes() const { return 0; }
  // The indices put into the current page, in order.
  virtual std::span<const uint32_t> page_indices() const { return {}; }
  // Entry i of a BYTE_ARRAY dictionary; empty for other writers.
  virtual std::string_view byte_array_entry(size_t i) const {
    (void)i;
    return {};
  }
  virtual void write_dictionary(Buffer& out) const { (void)out; }
  // Empties the dictionary for the next column chunk.
  virtual void reset() {}
};

// The encoding a column falls back to (or starts with, without a
// dictionary) when none is configured: PLAIN for v1 pages; for v2 pages
// DELTA_BINARY_PACKED for INT32/INT64, DELTA_BYTE_ARRAY for byte arrays, RLE
// for BOOLEAN, PLAIN otherwise.
format::Encoding default_fallback_encoding(format::Type physical, int page_version);

// Whether dictionary encoding applies (every type but BOOLEAN).
bool dictionary_applies(format::Type physical);

}  // namespace parq
