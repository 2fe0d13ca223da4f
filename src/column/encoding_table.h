// The encoding table: which encodings each physical type allows for its
// values, and the decoder of each allowed (physical type, encoding) pair.
// The value reader makes its decoders here and the value writer checks its
// encodings here, so that reading and writing agree on one list.
//
// A decoder turns the values section of data pages into dense values, all
// of them or those a selection keeps; the calls are per batch, never per
// value. Dictionary decoders of one column
// share the column's dictionary, which the dictionary page fills.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "parq/encoding/byte_array_batch.h"
#include "parq/format/metadata.h"
#include "parq/util/buffer.h"

namespace parq {

// Dense values of a leaf: fixed-width values (BOOLEAN as one byte each) in
// `fixed`, byte arrays in `bytes`.
struct LeafValues {
  Buffer fixed;
  encoding::ByteArrayBatch bytes;
  int64_t count = 0;
  // The batch goes on past the page being read: its values are decoded
  // into room reserved for all of them, not viewed in the page (a view
  // would be copied out when the next page's values follow it).
  bool spans_pages = false;

  void clear() {
    fixed.clear();
    bytes.clear();
    count = 0;
    spans_pages = false;
  }
};

// A column chunk's dictionary page, decoded once for every dictionary
// encoded page after it.
class ColumnDictionary {
 public:
  virtual ~ColumnDictionary() = default;
  // Replaces the entries with the PLAIN values of a dictionary page;
  // returns how many it decoded, fewer than num_values when the page ends.
  virtual size_t load(const uint8_t* data, size_t size, size_t num_values) = 0;
};

// The values of one (physical type, encoding) pair, a page at a time.
class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;
  // A data page's values section holding `num_values` non-null values.
  virtual void reset(const uint8_t* data, size_t size, size_t num_values) = 0;
  // Appends up to n values to `out` (not its count); returns how many,
  // fewer when the page ends or `out.bytes` is full. Fixed-width decoders
  // grow `out.fixed` by n values whatever they return.
  virtual size_t read(size_t n, LeafValues& out) = 0;
  // Passes over up to n values, without producing them where the encoding
  // allows; returns how many.
  virtual size_t skip(size_t n) = 0;
  // Passes over the next n values and appends to `out` (not its count)
  // those whose keep[i] is non-zero, `kept` of them, decoding no more of
  // the others than the encoding needs to reach past them. Returns n, or
  // fewer when the page ends (`out` then holds some of the kept values).
  // Throws parq::Error when `out.bytes` would pass 2^31-1 bytes.
  virtual size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) = 0;
};

// What the decoders of one column share with their column.
struct DecoderContext {
  // Bytes per FIXED_LEN_BYTE_ARRAY value; unused by other types.
  size_t type_length = 0;
  // From make_column_dictionary for the same type; null for BOOLEAN.
  const ColumnDictionary* dictionary = nullptr;
  // What keeps the current page's bytes alive (null: nothing does beyond
  // the page). With it, a PLAIN fixed-width read into an empty `out` may
  // make `out.fixed` a view of the page instead of a copy.
  const std::shared_ptr<const void>* page_owner = nullptr;
};

// Whether `encoding` is valid for the values of a `physical` column.
bool encoding_applies(format::Type physical, format::Encoding encoding);

// The decoder of the pair, or null when encoding_applies is false. Throws
// parq::Error for a FIXED_LEN_BYTE_ARRAY width of 0.
std::unique_ptr<ValueDecoder> make_value_decoder(format::Type physical, format::Encoding encoding,
                                                 const DecoderContext& context);

// An empty dictionary for the type; null for BOOLEAN, which has none.
std::unique_ptr<ColumnDictionary> make_column_dictionary(format::Type physical, size_t type_length);

}  // namespace parq
