// Schema building from Fields; see field.h.
#include "parq/schema/field.h"

#include "parq/error.h"
#include "parq/schema/logical_type.h"

namespace parq {
namespace {

using format::ConvertedType;
using format::LogicalType;
using format::Type;

format::TimeUnit unit_of(TimeUnitKind unit) {
  format::TimeUnit u;
  switch (unit) {
    case TimeUnitKind::kMillis:
      u.MILLIS.emplace();
      break;
    case TimeUnitKind::kMicros:
      u.MICROS.emplace();
      break;
    case TimeUnitKind::kNanos:
      u.NANOS.emplace();
      break;
  }
  return u;
}

LogicalType annotation(void (*set)(LogicalType&)) {
  LogicalType t;
  set(t);
  return t;
}

// The fewest FIXED_LEN_BYTE_ARRAY bytes whose signed range holds `precision`
// decimal digits.
int32_t decimal_bytes(int32_t precision) {
  for (int32_t n = 1; n < 1 << 16; ++n)
    if (max_decimal_precision(Type::FIXED_LEN_BYTE_ARRAY, n) >= precision) return n;
  return 1 << 16;
}

std::optional<ConvertedType> converted_time(bool utc, const format::TimeUnit& unit, ConvertedType millis,
                                            ConvertedType micros) {
  // LogicalTypes.md: the legacy types mean UTC-adjusted values only.
  if (!utc) return std::nullopt;
  if (unit.MILLIS) return millis;
  if (unit.MICROS) return micros;
  return std::nullopt;
}

std::optional<ConvertedType> converted_integer(const format::IntType& t) {
  switch (t.bit_width) {
    case 8:
      return t.is_signed ? ConvertedType::INT_8 : ConvertedType::UINT_8;
    case 16:
      return t.is_signed ? ConvertedType::INT_16 : ConvertedType::UINT_16;
    case 32:
      return t.is_signed ? ConvertedType::INT_32 : ConvertedType::UINT_32;
    case 64:
      return t.is_signed ? ConvertedType::INT_64 : ConvertedType::UINT_64;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ConvertedType> converted_type_for(const LogicalType& t) {
  if (t.STRING) return ConvertedType::UTF8;
  if (t.ENUM) return ConvertedType::ENUM;
  if (t.JSON) return ConvertedType::JSON;
  if (t.BSON) return ConvertedType::BSON;
  if (t.DECIMAL) return ConvertedType::DECIMAL;
  if (t.DATE) return ConvertedType::DATE;
  if (t.LIST) return ConvertedType::LIST;
  if (t.MAP) return ConvertedType::MAP;
  if (t.INTEGER) return converted_integer(*t.INTEGER);
  if (t.TIME)
    return converted_time(t.TIME->is_adjusted_to_utc, t.TIME->unit, ConvertedType::TIME_MILLIS,
                          ConvertedType::TIME_MICROS);
  if (t.TIMESTAMP)
    return converted_time(t.TIMESTAMP->is_adjusted_to_utc, t.TIMESTAMP->unit, ConvertedType::TIMESTAMP_MILLIS,
                          ConvertedType::TIMESTAMP_MICROS);
  return std::nullopt;
}

Field Field::primitive(std::string name, Type physical, int32_t type_length) {
  Field f(std::move(name));
  f.physical_ = physical;
  f.type_length_ = type_length;
  return f;
}

Field& Field::logical_type(const LogicalType& logical) {
  logical_ = logical;
  converted_ = converted_type_for(logical);
  return *this;
}

Field Field::integer(std::string name, int bits, bool is_signed) {
  Field f = primitive(std::move(name), bits == 64 ? Type::INT64 : Type::INT32);
  LogicalType t;
  t.INTEGER = format::IntType{static_cast<int8_t>(bits), is_signed};
  f.logical_type(t);
  return f;
}

Field Field::string(std::string name) {
  Field f = binary(std::move(name));
  f.logical_type(annotation([](LogicalType& t) { t.STRING.emplace(); }));
  return f;
}

Field Field::enumeration(std::string name) {
  Field f = binary(std::move(name));
  f.logical_type(annotation([](LogicalType& t) { t.ENUM.emplace(); }));
  return f;
}

Field Field::json(std::string name) {
  Field f = binary(std::move(name));
  f.logical_type(annotation([](LogicalType& t) { t.JSON.emplace(); }));
  return f;
}

Field Field::bson(std::string name) {
  Field f = binary(std::move(name));
  f.logical_type(annotation([](LogicalType& t) { t.BSON.emplace(); }));
  return f;
}

Field Field::uuid(std::string name) {
  Field f = fixed(std::move(name), 16);
  f.logical_type(annotation([](LogicalType& t) { t.UUID.emplace(); }));
  return f;
}

Field Field::float16(std::string name) {
  Field f = fixed(std::move(name), 2);
  f.logical_type(annotation([](LogicalType& t) { t.FLOAT16.emplace(); }));
  return f;
}

Field Field::date(std::string name) {
  Field f = int32(std::move(name));
  f.logical_type(annotation([](LogicalType& t) { t.DATE.emplace(); }));
  return f;
}

Field Field::time(std::string name, TimeUnitKind unit, bool utc) {
  Field f = primitive(std::move(name), unit == TimeUnitKind::kMillis ? Type::INT32 : Type::INT64);
  LogicalType t;
  t.TIME = format::TimeType{utc, unit_of(unit)};
  f.logical_type(t);
  return f;
}

Field Field::timestamp(std::string name, TimeUnitKind unit, bool utc) {
  Field f = int64(std::move(name));
  LogicalType t;
  t.TIMESTAMP = format::TimestampType{utc, unit_of(unit)};
  f.logical_type(t);
  return f;
}

Field Field::decimal(std::string name, int32_t precision, int32_t scale, std::optional<Type> physical) {
  Type storage = physical.value_or(precision <= 9    ? Type::INT32
                                   : precision <= 18 ? Type::INT64
                                                     : Type::FIXED_LEN_BYTE_ARRAY);
  Field f = primitive(std::move(name), storage, storage == Type::FIXED_LEN_BYTE_ARRAY ? decimal_bytes(precision) : 0);
  LogicalType t;
  t.DECIMAL = format::DecimalType{scale, precision};
  f.logical_type(t);
  return f;
}

Field Field::interval(std::string name) {
  Field f = fixed(std::move(name), 12);
  f.converted_ = ConvertedType::INTERVAL;
  return f;
}

Field Field::group(std::string name, std::vector<Field> children) {
  Field f(std::move(name));
  f.children_ = std::move(children);
  return f;
}

Field Field::list(std::string name, Field element) {
  Field repeated = group("list", {std::move(element)});
  repeated.repeated();
  Field f = group(std::move(name), {std::move(repeated)});
  f.logical_type(annotation([](LogicalType& t) { t.LIST.emplace(); }));
  return f;
}

Field Field::map(std::string name, Field key, Field value) {
  key.required();
  Field entries = group("key_value", {std::move(key), std::move(value)});
  entries.repeated();
  Field f = group(std::move(name), {std::move(entries)});
  f.logical_type(annotation([](LogicalType& t) { t.MAP.emplace(); }));
  return f;
}

void Field::append_elements(std::vector<format::SchemaElement>& out) const {
  format::SchemaElement e;
  e.name = name_;
  e.repetition_type = repetition_;
  e.field_id = field_id_;
  if (physical_) {
    e.type = *physical_;
    if (*physical_ == Type::FIXED_LEN_BYTE_ARRAY) e.type_length = type_length_;
  } else {
    e.num_children = static_cast<int32_t>(children_.size());
  }
  if (has_logical_type(logical_)) e.logical_type = logical_;
  e.converted_type = converted_;
  if (logical_.DECIMAL) {
    e.scale = logical_.DECIMAL->scale;
    e.precision = logical_.DECIMAL->precision;
  }
  out.push_back(std::move(e));
  for (const Field& child : children_) child.append_elements(out);
}

Schema make_schema(const std::vector<Field>& fields, const std::string& root_name) {
  std::vector<format::SchemaElement> elements(1);
  elements[0].name = root_name;
  elements[0].num_children = static_cast<int32_t>(fields.size());
  for (const Field& f : fields) f.append_elements(elements);
  Schema schema = Schema::from_elements(elements);
  // from_elements drops annotations that do not fit (files from the wild
  // need that leniency); a schema being built must not lose them silently.
  for (size_t i = 1; i < elements.size(); ++i) {
    const format::SchemaElement& e = elements[i];
    if (e.logical_type && !has_logical_type(schema.node(i).logical_type()))
      throw Error("field \"" + e.name + "\": annotation " + logical_type_to_string(*e.logical_type) +
                  " does not apply to this " + (e.type ? std::string(format::to_string(*e.type)) : "group"));
  }
  return schema;
}

}  // namespace parq
