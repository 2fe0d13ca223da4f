// ValueReader: decodes the values section of data pages, whatever their
// encoding, into the dense (non-null) values of one leaf column.
//
// One implementation per physical type, chosen once per column; the
// encoding is chosen once per page. Calls are per batch, never per value.
#pragma once

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

  void clear() {
    fixed.clear();
    bytes.clear();
    count = 0;
  }
};

class ValueReader {
 public:
  virtual ~ValueReader() = default;

  // The dictionary page's values (PLAIN encoded).
  virtual void set_dictionary(const uint8_t* data, size_t size, size_t num_values) = 0;

  // A data page's values section holding `num_values` non-null values.
  virtual void begin_page(format::Encoding encoding, const uint8_t* data, size_t size, size_t num_values) = 0;

  // Appends exactly `n` values to `out`; throws when the page holds fewer.
  virtual void read(size_t n, LeafValues& out) = 0;

  // What keeps the current page's bytes alive (null: nothing does beyond
  // the page). With it, a read of PLAIN fixed-width values into an empty
  // `out` may make `out.fixed` a view of the page instead of a copy.
  void set_page_owner(std::shared_ptr<const void> owner) { page_owner_ = std::move(owner); }

 protected:
  std::shared_ptr<const void> page_owner_;
};

// `column` names the column in error messages.
std::unique_ptr<ValueReader> make_value_reader(format::Type physical, int32_t type_length, const std::string& column);

}  // namespace parq
