// VARIANT values (apache/parquet-format VariantEncoding.md): a metadata
// dictionary of field names and a self-describing value, both binary.
//
// Metadata::parse and Value::parse validate everything they hand out once,
// up front: the header bytes, every offset and length against the bytes,
// field ids against the dictionary, object keys unique and sorted, decimal
// scales, nesting depth. A dictionary marked sorted that is not (DuckDB
// writes such) reads as unsorted. After that the accessors read without checks.
// Validation visits each nested value once and refuses encodings whose
// offsets make values share bytes (a value that would take more visits than
// it has bytes), so its time is linear in the input whatever the input.
// Strings are not checked for UTF-8 (the text layer replaces bad bytes, as
// it does for string columns).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace parq::variant {

class Metadata {
 public:
  // Throws parq::Error (kCorrupt) naming what is wrong.
  static Metadata parse(std::span<const uint8_t> bytes);

  size_t size() const { return count_; }
  std::string_view key(size_t i) const;
  bool sorted() const { return sorted_; }
  // The id of a key (binary search when the dictionary says it is sorted).
  std::optional<uint32_t> find(std::string_view key) const;
  // Bytes the metadata takes from the start of what was parsed.
  size_t encoded_size() const { return size_; }

 private:
  uint32_t offset(size_t i) const;

  // Reads offsets in place, so that parsing a row's metadata allocates nothing.
  const uint8_t* offsets_ = nullptr;  // size() + 1 of offset_width_ bytes
  std::span<const uint8_t> strings_;
  size_t count_ = 0;
  size_t size_ = 0;
  uint8_t offset_width_ = 1;
  bool sorted_ = false;
};

enum class Type : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,
  kDate,                // days since 1970-01-01
  kTimestampMicros,     // adjusted to UTC
  kTimestampNtzMicros,  // local
  kFloat,
  kBinary,
  kString,  // long and short strings alike
  kTimeNtzMicros,
  kTimestampNanos,
  kTimestampNtzNanos,
  kUuid,
  kObject,
  kArray,
};

const char* to_string(Type type);

struct Decimal {
  // The unscaled value as 16 bytes, little-endian two's complement
  // (decimal4 and decimal8 sign-extended), and its scale (0..38).
  std::array<uint8_t, 16> unscaled{};
  uint8_t scale = 0;
};

class Value {
 public:
  // The value at the start of `bytes` (which it need not fill). Throws
  // parq::Error (kCorrupt) naming what is wrong and the byte offset.
  static Value parse(const Metadata& metadata, std::span<const uint8_t> bytes);

  Type type() const { return type_; }
  // Bytes the encoding takes, from its header byte.
  size_t encoded_size() const { return size_; }
  std::span<const uint8_t> encoded() const { return bytes_; }

  bool boolean() const;  // kBoolean
  // kInt8..kInt64, kDate, timestamps and times (their counts).
  int64_t integer() const;
  double real() const;  // kDouble, kFloat (widened)
  Decimal decimal() const;
  std::string_view string() const;          // kString
  std::span<const uint8_t> binary() const;  // kBinary
  std::array<uint8_t, 16> uuid() const;     // kUuid, in stored (big-endian) order

  // Objects and arrays: their elements.
  size_t size() const { return count_; }
  Value element(size_t i) const;                // kArray
  std::string_view field_name(size_t i) const;  // kObject, in key order
  uint32_t field_id(size_t i) const { return read_id(i); }
  Value field_value(size_t i) const;  // kObject
  std::optional<Value> field(std::string_view name) const;

  const Metadata& metadata() const { return *metadata_; }

 private:
  struct Budget;
  static Value parse_at(const Metadata& metadata, std::span<const uint8_t> bytes, size_t base, int depth,
                        Budget* budget);
  uint32_t read_offset(size_t i) const;
  uint32_t read_id(size_t i) const;

  const Metadata* metadata_ = nullptr;
  std::span<const uint8_t> bytes_;  // the whole encoding (encoded_size())
  Type type_ = Type::kNull;
  size_t size_ = 0;
  // Objects and arrays: element count, byte widths, where ids, offsets and
  // the fields start within bytes_.
  size_t count_ = 0;
  uint8_t id_width_ = 0, offset_width_ = 0;
  size_t ids_at_ = 0, offsets_at_ = 0, fields_at_ = 0;
};

}  // namespace parq::variant
