// Building a schema to write: a tree of Fields, turned into the footer's
// element list (and validated) by make_schema.
//
//   Schema s = make_schema({
//       Field::int64("id").required(),
//       Field::string("name"),
//       Field::list("tags", Field::string("element")),
//       Field::map("attrs", Field::string("key"), Field::float64("value")),
//       Field::group("point", {Field::float64("x"), Field::float64("y")}),
//   });
//
// Fields are OPTIONAL unless made required() or repeated(). LIST and MAP use
// the three-level form LogicalTypes.md requires of writers:
//
//   <list-repetition> group <name> (LIST) { repeated group list { <element> } }
//   <map-repetition> group <name> (MAP) {
//     repeated group key_value { required <key>; <value> } }
//
// so the element and value fields keep their own repetition, and a map key is
// always made required. Each annotation also sets the legacy ConvertedType
// where one exists (UTF8, DECIMAL, TIMESTAMP_MILLIS, INT_8, ...), so that
// readers older than LogicalType see the same types; TIMESTAMP/TIME in NANOS,
// or not adjusted to UTC, have no converted equivalent and get none, as the
// spec asks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parq/format/metadata.h"
#include "parq/schema/schema.h"

namespace parq {

enum class TimeUnitKind { kMillis, kMicros, kNanos };

class Field {
 public:
  // A leaf of any physical type, without annotation.
  static Field primitive(std::string name, format::Type physical, int32_t type_length = 0);

  static Field boolean(std::string name) { return primitive(std::move(name), format::Type::BOOLEAN); }
  static Field int32(std::string name) { return primitive(std::move(name), format::Type::INT32); }
  static Field int64(std::string name) { return primitive(std::move(name), format::Type::INT64); }
  static Field int96(std::string name) { return primitive(std::move(name), format::Type::INT96); }
  static Field float32(std::string name) { return primitive(std::move(name), format::Type::FLOAT); }
  static Field float64(std::string name) { return primitive(std::move(name), format::Type::DOUBLE); }
  static Field binary(std::string name) { return primitive(std::move(name), format::Type::BYTE_ARRAY); }
  static Field fixed(std::string name, int32_t width) {
    return primitive(std::move(name), format::Type::FIXED_LEN_BYTE_ARRAY, width);
  }
  // INTEGER(bits, signed) on INT32 (bits 8, 16, 32) or INT64 (bits 64).
  static Field integer(std::string name, int bits, bool is_signed);
  static Field string(std::string name);  // BYTE_ARRAY (STRING)
  static Field enumeration(std::string name);
  static Field json(std::string name);
  static Field bson(std::string name);
  static Field uuid(std::string name);                                      // FIXED_LEN_BYTE_ARRAY(16)
  static Field float16(std::string name);                                   // FIXED_LEN_BYTE_ARRAY(2)
  static Field date(std::string name);                                      // INT32 days
  static Field time(std::string name, TimeUnitKind unit, bool utc = true);  // MILLIS on INT32, else INT64
  static Field timestamp(std::string name, TimeUnitKind unit, bool utc = true);
  // DECIMAL on INT32 (precision <= 9), INT64 (<= 18) or else
  // FIXED_LEN_BYTE_ARRAY of the fewest bytes that hold the precision;
  // `physical` picks another storage (BYTE_ARRAY, a wider FLBA via
  // with_type_length).
  static Field decimal(std::string name, int32_t precision, int32_t scale,
                       std::optional<format::Type> physical = std::nullopt);
  // FIXED_LEN_BYTE_ARRAY(12) with the legacy INTERVAL converted type.
  static Field interval(std::string name);

  static Field group(std::string name, std::vector<Field> children);
  static Field list(std::string name, Field element);
  static Field map(std::string name, Field key, Field value);

  Field& required() { return repetition(format::FieldRepetitionType::REQUIRED); }
  Field& optional() { return repetition(format::FieldRepetitionType::OPTIONAL); }
  Field& repeated() { return repetition(format::FieldRepetitionType::REPEATED); }
  Field& repetition(format::FieldRepetitionType r) {
    repetition_ = r;
    return *this;
  }
  Field& field_id(int32_t id) {
    field_id_ = id;
    return *this;
  }
  // Replaces the annotation (and its derived converted type).
  Field& logical_type(const format::LogicalType& logical);
  Field& converted_type(format::ConvertedType converted) {
    converted_ = converted;
    return *this;
  }
  Field& with_type_length(int32_t width) {
    type_length_ = width;
    return *this;
  }

  const std::string& name() const { return name_; }
  const std::vector<Field>& children() const { return children_; }
  bool is_group() const { return !physical_; }

  // Appends this field's elements, depth first.
  void append_elements(std::vector<format::SchemaElement>& out) const;

 private:
  Field(std::string name) : name_(std::move(name)) {}

  std::string name_;
  format::FieldRepetitionType repetition_ = format::FieldRepetitionType::OPTIONAL;
  std::optional<format::Type> physical_;
  int32_t type_length_ = 0;
  format::LogicalType logical_;
  std::optional<format::ConvertedType> converted_;
  std::optional<int32_t> field_id_;
  std::vector<Field> children_;
};

// The legacy ConvertedType equivalent of `logical` on storage `physical`, or
// nullopt where there is none (or none a reader could tell apart).
std::optional<format::ConvertedType> converted_type_for(const format::LogicalType& logical);

// The schema of `fields` under a root named `root_name`; validated as
// Schema::from_elements does (throws parq::Error naming the bad field).
Schema make_schema(const std::vector<Field>& fields, const std::string& root_name = "schema");

}  // namespace parq
