// Logical type resolution (LogicalType or legacy ConvertedType), the
// applicability rules of LogicalTypes.md, and the printed notation.
#include "parq/schema/logical_type.h"

#include <cmath>
#include <limits>

namespace parq {
namespace {

using format::LogicalType;
using format::Type;

format::TimeUnit millis() { return format::TimeUnit{.MILLIS = format::MilliSeconds{}}; }
format::TimeUnit micros() { return format::TimeUnit{.MICROS = format::MicroSeconds{}}; }

LogicalType integer(int8_t bits, bool is_signed) { return LogicalType{.INTEGER = format::IntType{bits, is_signed}}; }

bool has_unit(const format::TimeUnit& u) { return u.MILLIS || u.MICROS || u.NANOS; }

const char* unit_name(const format::TimeUnit& u) {
  if (u.MILLIS) return "MILLIS";
  if (u.MICROS) return "MICROS";
  if (u.NANOS) return "NANOS";
  return "?";
}

const char* bool_name(bool b) { return b ? "true" : "false"; }

const char* algorithm_name(format::EdgeInterpolationAlgorithm a) { return format::to_string(a); }

std::string geography_to_string(const format::GeographyType& g) {
  if (!g.crs && !g.algorithm) return "GEOGRAPHY";
  // Both parameters print once either is set, so the positions stay fixed.
  std::string crs = g.crs.value_or("OGC:CRS84");
  const char* algo = algorithm_name(g.algorithm.value_or(format::EdgeInterpolationAlgorithm::SPHERICAL));
  return "GEOGRAPHY(" + crs + "," + algo + ")";
}

// The names without parameters, in the union's member order.
const char* plain_name(const LogicalType& t) {
  if (t.STRING) return "STRING";
  if (t.MAP) return "MAP";
  if (t.LIST) return "LIST";
  if (t.ENUM) return "ENUM";
  if (t.DATE) return "DATE";
  if (t.UNKNOWN) return "UNKNOWN";
  if (t.JSON) return "JSON";
  if (t.BSON) return "BSON";
  if (t.UUID) return "UUID";
  if (t.FLOAT16) return "FLOAT16";
  if (t.FILE) return "FILE";
  return nullptr;
}

bool is_fixed(Type physical, int32_t type_length, int32_t width) {
  return physical == Type::FIXED_LEN_BYTE_ARRAY && type_length == width;
}

bool integer_applies(const format::IntType& i, Type physical) {
  switch (i.bit_width) {
    case 8:
    case 16:
    case 32:
      return physical == Type::INT32;
    case 64:
      return physical == Type::INT64;
    default:
      return false;
  }
}

bool time_applies(const format::TimeType& t, Type physical) {
  if (t.unit.MILLIS) return physical == Type::INT32;
  if (t.unit.MICROS || t.unit.NANOS) return physical == Type::INT64;
  return false;
}

bool decimal_storage(Type physical) {
  return physical == Type::INT32 || physical == Type::INT64 || physical == Type::BYTE_ARRAY ||
         physical == Type::FIXED_LEN_BYTE_ARRAY;
}

bool is_byte_array_annotation(const LogicalType& t) {
  return t.STRING || t.ENUM || t.JSON || t.BSON || t.GEOMETRY || t.GEOGRAPHY;
}

}  // namespace

bool has_logical_type(const LogicalType& t) {
  return t.STRING || t.MAP || t.LIST || t.ENUM || t.DECIMAL || t.DATE || t.TIME || t.TIMESTAMP || t.INTEGER ||
         t.UNKNOWN || t.JSON || t.BSON || t.UUID || t.FLOAT16 || t.VARIANT || t.GEOMETRY || t.GEOGRAPHY || t.FILE;
}

LogicalType logical_type_from_converted(format::ConvertedType converted, int32_t scale, int32_t precision) {
  using C = format::ConvertedType;
  switch (converted) {
    case C::UTF8:
      return LogicalType{.STRING = format::StringType{}};
    case C::MAP:
      return LogicalType{.MAP = format::MapType{}};
    case C::LIST:
      return LogicalType{.LIST = format::ListType{}};
    case C::ENUM:
      return LogicalType{.ENUM = format::EnumType{}};
    case C::DECIMAL:
      return LogicalType{.DECIMAL = format::DecimalType{scale, precision}};
    case C::DATE:
      return LogicalType{.DATE = format::DateType{}};
    case C::TIME_MILLIS:
      return LogicalType{.TIME = format::TimeType{true, millis()}};
    case C::TIME_MICROS:
      return LogicalType{.TIME = format::TimeType{true, micros()}};
    case C::TIMESTAMP_MILLIS:
      return LogicalType{.TIMESTAMP = format::TimestampType{true, millis()}};
    case C::TIMESTAMP_MICROS:
      return LogicalType{.TIMESTAMP = format::TimestampType{true, micros()}};
    case C::UINT_8:
      return integer(8, false);
    case C::UINT_16:
      return integer(16, false);
    case C::UINT_32:
      return integer(32, false);
    case C::UINT_64:
      return integer(64, false);
    case C::INT_8:
      return integer(8, true);
    case C::INT_16:
      return integer(16, true);
    case C::INT_32:
      return integer(32, true);
    case C::INT_64:
      return integer(64, true);
    case C::JSON:
      return LogicalType{.JSON = format::JsonType{}};
    case C::BSON:
      return LogicalType{.BSON = format::BsonType{}};
    case C::MAP_KEY_VALUE:  // handled by the nested-type rules, not an annotation of values
    case C::INTERVAL:       // no LogicalType counterpart
      break;
  }
  return LogicalType{};
}

LogicalType resolve_logical_type(const format::SchemaElement& e) {
  if (e.logical_type && has_logical_type(*e.logical_type)) return *e.logical_type;
  if (!e.converted_type) return LogicalType{};
  return logical_type_from_converted(*e.converted_type, e.scale.value_or(0), e.precision.value_or(0));
}

std::string logical_type_to_string(const LogicalType& t) {
  if (const char* name = plain_name(t)) return name;
  if (t.DECIMAL)
    return "DECIMAL(" + std::to_string(t.DECIMAL->precision) + "," + std::to_string(t.DECIMAL->scale) + ")";
  if (t.INTEGER) return "INTEGER(" + std::to_string(t.INTEGER->bit_width) + "," + bool_name(t.INTEGER->is_signed) + ")";
  if (t.TIME) return std::string("TIME(") + unit_name(t.TIME->unit) + "," + bool_name(t.TIME->is_adjusted_to_utc) + ")";
  if (t.TIMESTAMP)
    return std::string("TIMESTAMP(") + unit_name(t.TIMESTAMP->unit) + "," + bool_name(t.TIMESTAMP->is_adjusted_to_utc) +
           ")";
  if (t.VARIANT) {
    if (!t.VARIANT->specification_version) return "VARIANT";
    return "VARIANT(" + std::to_string(*t.VARIANT->specification_version) + ")";
  }
  if (t.GEOMETRY) return t.GEOMETRY->crs ? "GEOMETRY(" + *t.GEOMETRY->crs + ")" : "GEOMETRY";
  if (t.GEOGRAPHY) return geography_to_string(*t.GEOGRAPHY);
  return "";
}

bool logical_type_applies_to_primitive(const LogicalType& t, Type physical, int32_t type_length) {
  if (!has_logical_type(t) || t.UNKNOWN) return true;
  if (is_byte_array_annotation(t)) return physical == Type::BYTE_ARRAY;
  if (t.UUID) return is_fixed(physical, type_length, 16);
  if (t.FLOAT16) return is_fixed(physical, type_length, 2);
  if (t.DECIMAL) return decimal_storage(physical);
  if (t.DATE) return physical == Type::INT32;
  if (t.TIME) return time_applies(*t.TIME, physical);
  if (t.TIMESTAMP) return physical == Type::INT64 && has_unit(t.TIMESTAMP->unit);
  if (t.INTEGER) return integer_applies(*t.INTEGER, physical);
  return false;  // LIST, MAP, VARIANT, FILE annotate groups
}

bool logical_type_applies_to_group(const LogicalType& t) {
  return !has_logical_type(t) || t.LIST || t.MAP || t.VARIANT || t.FILE;
}

int32_t max_decimal_precision(Type physical, int32_t type_length) {
  switch (physical) {
    case Type::INT32:
      return 9;
    case Type::INT64:
      return 18;
    case Type::BYTE_ARRAY:
      return std::numeric_limits<int32_t>::max();
    case Type::FIXED_LEN_BYTE_ARRAY: {
      if (type_length <= 0) return 0;
      // floor(log10(2^(8n-1) - 1)) == floor((8n-1) * log10(2)): 2^k is never a
      // power of ten, so subtracting one never crosses a digit boundary.
      double digits = std::floor((8.0 * type_length - 1.0) * std::log10(2.0));
      if (digits >= std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
      return static_cast<int32_t>(digits);
    }
    default:
      return 0;
  }
}

}  // namespace parq
