// ValueReader: decodes the values section of data pages, whatever their
// encoding, into the dense (non-null) values of one leaf column.
//
// The decoder of each page's encoding comes from the encoding table, made
// the first time a page of the column has that encoding and kept for the
// pages after. Calls are per batch, never per value.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "encoding_table.h"
#include "parq/format/metadata.h"

namespace parq {

class ValueReader {
 public:
  // `column` names the column in error messages. Throws parq::Error for a
  // FIXED_LEN_BYTE_ARRAY width below 1.
  ValueReader(format::Type physical, int32_t type_length, std::string column);
  // The decoders hold on to the page owner member: the reader stays put.
  ValueReader(const ValueReader&) = delete;
  ValueReader& operator=(const ValueReader&) = delete;

  // The dictionary page's values (PLAIN encoded).
  void set_dictionary(const uint8_t* data, size_t size, size_t num_values);

  // A data page's values section holding `num_values` non-null values.
  void begin_page(format::Encoding encoding, const uint8_t* data, size_t size, size_t num_values);

  // Appends exactly `n` values to `out`; throws when the page holds fewer.
  void read(size_t n, LeafValues& out);

  // Passes over exactly `n` values; throws when the page holds fewer.
  void skip(size_t n);

  // Passes over exactly `n` values, appending to `out` those whose keep[i]
  // is non-zero (`kept` of them, as the caller counted); throws when the
  // page holds fewer.
  void read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out);

  // What keeps the current page's bytes alive (null: nothing does beyond
  // the page). With it, a read of PLAIN fixed-width values into an empty
  // `out` may make `out.fixed` a view of the page instead of a copy.
  void set_page_owner(std::shared_ptr<const void> owner) { page_owner_ = std::move(owner); }

 private:
  [[noreturn]] void short_page(size_t wanted, size_t got) const;
  [[noreturn]] void batch_full() const;

  format::Type physical_;
  std::string column_;
  std::unique_ptr<ColumnDictionary> dictionary_;
  bool has_dictionary_ = false;
  std::shared_ptr<const void> page_owner_;
  DecoderContext context_;
  // Indexed by encoding; encodings are small numbers.
  std::array<std::unique_ptr<ValueDecoder>, 16> decoders_;
  ValueDecoder* current_ = nullptr;
  // Of the page's values, those not yet read or skipped. Decoders of bit
  // packed runs cannot tell the padding of the last run from values.
  size_t page_left_ = 0;
};

}  // namespace parq
