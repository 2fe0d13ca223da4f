// Encoding VARIANT values (apache/parquet-format VariantEncoding.md) into a
// byte buffer, with field ids from a metadata dictionary the caller keeps.
//
// Objects and arrays are written in one pass, element by element: begin,
// then each field (or element) followed by its value, then end. The end puts
// the header (count, ids, offsets) in front of the values already written,
// choosing the narrowest widths that hold them, and orders an object's ids
// and offsets by field name as the spec requires; the values themselves stay
// where they were written, which the spec allows. Nothing is allocated per
// value once the writer's stacks have grown to the deepest nesting.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "parq/util/buffer.h"
#include "parq/variant/variant.h"

namespace parq::variant {

// A metadata dictionary of `keys`, which must be sorted and unique (it is
// marked sorted), appended to `out` with the narrowest offsets that hold
// them. Throws parq::Error (kInvalidArgument) past 4 GiB of keys.
void write_metadata(std::span<const std::string_view> keys, Buffer& out);

class ValueWriter {
 public:
  // Appends to `out`, which must outlive the writer.
  explicit ValueWriter(Buffer& out) : out_(&out) {}

  void null();
  void boolean(bool value);
  void int8(int8_t value);
  void int16(int16_t value);
  void int32(int32_t value);
  void int64(int64_t value);
  void float32(float value);
  void float64(double value);
  // kDecimal4, kDecimal8 or kDecimal16; the unscaled value must fit the width.
  void decimal(Type type, const Decimal& value);
  void date(int32_t days);
  // kTimestampMicros, kTimestampNtzMicros, kTimestampNanos,
  // kTimestampNtzNanos or kTimeNtzMicros: a count of its unit.
  void temporal(Type type, int64_t count);
  void string(std::string_view value);  // a short string below 64 bytes
  void binary(std::span<const uint8_t> value);
  void uuid(const uint8_t* big_endian16);
  // A value already encoded (and validated) against the same metadata.
  void encoded(std::span<const uint8_t> value);
  // A parsed value, as it is encoded.
  void encoded(const Value& value);

  void begin_object();
  // The next value written is field `id`, whose key is `name`; `name` must
  // stay valid until end_object().
  void field(uint32_t id, std::string_view name);
  // Takes back the field last begun and whatever was written for it.
  void drop_field();
  // Throws parq::Error (kCorrupt) when two fields have the same name.
  void end_object();

  void begin_array();
  void element();  // the next value written is the array's next element
  void end_array();

  // Whether every begin has had its end.
  bool complete() const { return frames_.empty(); }

 private:
  struct Entry {
    uint32_t id;
    std::string_view name;
    size_t start;  // where its value starts in the buffer
  };
  struct Frame {
    size_t start;        // where the first value starts
    size_t first_entry;  // in entries_
    bool object;
  };

  void header(uint8_t primitive_id, size_t data_bytes, const void* data);
  void end(bool object);

  Buffer* out_;
  std::vector<Entry> entries_;
  std::vector<Frame> frames_;
  std::vector<Entry> sorted_;  // end_object's scratch
};

}  // namespace parq::variant
