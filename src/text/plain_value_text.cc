// One PLAIN-encoded value rendered by its column's type (FORMAT.md's table):
// resolving a ValueType to a ValueFormat once, then one switch per value; see
// parq/text/value_text.h.
#include <bit>
#include <cstring>
#include <string>

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/value_text.h"

namespace parq::text {
namespace {

using format::Type;

template <typename T>
T load_le(const char* p) {
  std::make_unsigned_t<T> v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    v |= static_cast<decltype(v)>(uint64_t{static_cast<uint8_t>(p[i])} << (8 * i));
  }
  return static_cast<T>(v);
}

const uint8_t* bytes_of(std::string_view plain) { return reinterpret_cast<const uint8_t*>(plain.data()); }

// A value's width as the schema gives it, -1 for BYTE_ARRAY (any length);
// a type no schema check vetted is an error here, not a width.
int32_t value_width(Type physical, int32_t type_length) {
  if (physical < Type::BOOLEAN || physical > Type::FIXED_LEN_BYTE_ARRAY)
    throw Error("unknown physical type " + std::to_string(static_cast<int32_t>(physical)));
  if (physical == Type::BYTE_ARRAY) return -1;
  if (physical == Type::FIXED_LEN_BYTE_ARRAY && type_length < 0)
    throw Error("FIXED_LEN_BYTE_ARRAY has negative type_length " + std::to_string(type_length));
  return plain_width(physical, type_length);
}

// The format a logical type gives on integer / binary physical types, or
// nullopt when it does not apply there (the values then read as physical).

std::optional<ValueFormat> integer_format(const format::LogicalType& logical, bool is64) {
  ValueFormat f;
  if (logical.INTEGER) {
    f.kind = logical.INTEGER->is_signed ? (is64 ? ValueKind::kInt64 : ValueKind::kInt32)
                                        : (is64 ? ValueKind::kUInt64 : ValueKind::kUInt32);
  } else if (logical.DECIMAL) {
    f.kind = is64 ? ValueKind::kDecimal64 : ValueKind::kDecimal32;
    f.scale = logical.DECIMAL->scale;
  } else if (logical.DATE && !is64) {
    f.kind = ValueKind::kDate;
  } else if (logical.TIME && time_unit_of(logical.TIME->unit)) {
    f.kind = is64 ? ValueKind::kTime64 : ValueKind::kTime32;
    f.unit = *time_unit_of(logical.TIME->unit);
  } else if (logical.TIMESTAMP && time_unit_of(logical.TIMESTAMP->unit)) {
    f.kind = is64 ? ValueKind::kTimestamp64 : ValueKind::kTimestamp32;
    f.unit = *time_unit_of(logical.TIMESTAMP->unit);
    f.adjusted_to_utc = logical.TIMESTAMP->is_adjusted_to_utc;
  } else {
    return std::nullopt;
  }
  return f;
}

std::optional<ValueFormat> binary_format(const ValueType& type) {
  const format::LogicalType& logical = type.logical;
  const bool fixed = type.physical == Type::FIXED_LEN_BYTE_ARRAY;
  ValueFormat f;
  if (fixed && type.type_length == 12 && type.converted == format::ConvertedType::INTERVAL) {
    f.kind = ValueKind::kInterval;
  } else if (logical.STRING || logical.ENUM || logical.JSON) {
    f.kind = ValueKind::kString;
  } else if (logical.DECIMAL) {
    f.kind = ValueKind::kDecimalBytes;
    f.scale = logical.DECIMAL->scale;
  } else if (logical.UUID && fixed && type.type_length == 16) {
    f.kind = ValueKind::kUuid;
  } else if (logical.FLOAT16 && fixed && type.type_length == 2) {
    f.kind = ValueKind::kFloat16;
  } else {
    return std::nullopt;
  }
  return f;
}

ValueKind physical_kind(Type physical) {
  switch (physical) {
    case Type::BOOLEAN:
      return ValueKind::kBoolean;
    case Type::INT32:
      return ValueKind::kInt32;
    case Type::INT64:
      return ValueKind::kInt64;
    case Type::INT96:
      return ValueKind::kInt96Timestamp;
    case Type::FLOAT:
      return ValueKind::kFloat;
    case Type::DOUBLE:
      return ValueKind::kDouble;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      break;
  }
  return ValueKind::kBase64;
}

// The bytes a value of `f` must have, -1 for any. Kinds that read a fixed
// number of bytes say so themselves, so that a hand-made ValueFormat with a
// wrong width cannot make them read past the value.
int64_t expected_width(const ValueFormat& f) {
  switch (f.kind) {
    case ValueKind::kBoolean:
      return 1;
    case ValueKind::kFloat16:
      return 2;
    case ValueKind::kInt32:
    case ValueKind::kUInt32:
    case ValueKind::kFloat:
    case ValueKind::kDecimal32:
    case ValueKind::kDate:
    case ValueKind::kTime32:
    case ValueKind::kTimestamp32:
      return 4;
    case ValueKind::kInt64:
    case ValueKind::kUInt64:
    case ValueKind::kDouble:
    case ValueKind::kDecimal64:
    case ValueKind::kTime64:
    case ValueKind::kTimestamp64:
      return 8;
    case ValueKind::kInt96Timestamp:
    case ValueKind::kInterval:
      return 12;
    case ValueKind::kUuid:
      return 16;
    case ValueKind::kDecimalBytes:
    case ValueKind::kString:
    case ValueKind::kBase64:
      break;
  }
  return f.width;
}

[[noreturn]] void throw_bad_width(const ValueFormat& f, int64_t expected, size_t actual) {
  throw Error(std::string("PLAIN ") + format::to_string(f.physical) + " value must be " + std::to_string(expected) +
              " bytes, got " + std::to_string(actual));
}

}  // namespace

ValueFormat value_format_of(const ValueType& type) {
  std::optional<ValueFormat> logical;
  switch (type.physical) {
    case Type::INT32:
    case Type::INT64:
      logical = integer_format(type.logical, type.physical == Type::INT64);
      break;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      logical = binary_format(type);
      break;
    default:
      break;
  }
  ValueFormat f = logical.value_or(ValueFormat{});
  if (!logical) f.kind = physical_kind(type.physical);
  f.physical = type.physical;
  f.width = value_width(type.physical, type.type_length);
  return f;
}

void append_plain_value(std::string& out, const ValueFormat& f, std::string_view plain) {
  const int64_t width = expected_width(f);
  if (width >= 0 && plain.size() != static_cast<uint64_t>(width)) {
    throw_bad_width(f, width, plain.size());
  }
  const char* p = plain.data();
  switch (f.kind) {
    case ValueKind::kBoolean:
      // PLAIN booleans are bit-packed: the value is bit 0 of the byte.
      out.append((p[0] & 1) ? "true" : "false");
      return;
    case ValueKind::kInt32:
      return append_integer(out, load_le<int32_t>(p));
    case ValueKind::kUInt32:
      return append_unsigned(out, load_le<uint32_t>(p));
    case ValueKind::kInt64:
      return append_integer(out, load_le<int64_t>(p));
    case ValueKind::kUInt64:
      return append_unsigned(out, load_le<uint64_t>(p));
    case ValueKind::kFloat:
      return append_double(out, std::bit_cast<float>(load_le<uint32_t>(p)));
    case ValueKind::kDouble:
      return append_double(out, std::bit_cast<double>(load_le<uint64_t>(p)));
    case ValueKind::kFloat16:
      return append_double(out, float16_to_double(load_le<uint16_t>(p)));
    case ValueKind::kInt96Timestamp:
      return append_int96_timestamp(out, bytes_of(plain));
    case ValueKind::kDecimal32:
      return append_decimal(out, load_le<int32_t>(p), f.scale);
    case ValueKind::kDecimal64:
      return append_decimal(out, load_le<int64_t>(p), f.scale);
    case ValueKind::kDecimalBytes:
      return append_decimal_be(out, bytes_of(plain), plain.size(), f.scale);
    case ValueKind::kDate:
      return append_date(out, load_le<int32_t>(p));
    case ValueKind::kTime32:
      return append_time(out, load_le<int32_t>(p), f.unit);
    case ValueKind::kTime64:
      return append_time(out, load_le<int64_t>(p), f.unit);
    case ValueKind::kTimestamp32:
      return append_timestamp(out, load_le<int32_t>(p), f.unit, f.adjusted_to_utc);
    case ValueKind::kTimestamp64:
      return append_timestamp(out, load_le<int64_t>(p), f.unit, f.adjusted_to_utc);
    case ValueKind::kString:
      return append_json_string(out, plain);
    case ValueKind::kUuid:
      return append_uuid(out, bytes_of(plain));
    case ValueKind::kInterval:
      return append_interval(out, bytes_of(plain));
    case ValueKind::kBase64:
      return append_base64(out, plain);
  }
  throw Error("unknown value kind " + std::to_string(static_cast<int>(f.kind)));
}

void append_plain_value(std::string& out, const ValueType& type, std::string_view plain) {
  append_plain_value(out, value_format_of(type), plain);
}

std::string bound_text(const ValueType& type, std::string_view plain) {
  std::string out;
  try {
    append_plain_value(out, type, plain);
  } catch (const Error&) {
    out.clear();
    append_base64(out, plain);
  }
  return out;
}

}  // namespace parq::text
