// What unshredding, shredding and layout inference share: the spec's table
// of the Parquet types a typed_value column may have (one table for reader
// and writer), and the checks and reads of the arrays they walk.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>

#include "parq/array/array.h"
#include "parq/variant/variant.h"

namespace parq::variant {

// The variant primitive a typed_value column of `type` holds
// (VariantShredding.md): kBoolean, kInt8..kInt64, kFloat, kDouble,
// kDecimal4/8/16 (with the column's scale and precision), kDate, the
// timestamps, kTimeNtzMicros, kString, kBinary, kUuid. nullopt for a type
// the spec does not allow (unsigned integers, TIME(MILLIS), INT96, ...).
struct ShreddedPrimitive {
  Type type = Type::kNull;
  uint8_t scale = 0;
  int32_t precision = 0;
};
std::optional<ShreddedPrimitive> shredded_primitive(const ValueType& type);

// "INT32 INTEGER(32,false)": a column type for errors.
std::string type_text(const ValueType& type);

// Checks an array the walk will read `slots` of (the arrays may come from
// outside the reader, through the Arrow C interface), so that no read later
// is out of bounds; throws parq::Error (kInvalidArgument) naming `path`.
// Returns the slots a list's or byte array's offsets address.
int64_t check_array(const Array& a, int64_t slots, const std::string& path);

inline std::span<const uint8_t> bytes_at(const Array& leaf, int64_t i) {
  const int32_t* o = leaf.offsets_data();
  return {leaf.values.data() + o[i], static_cast<size_t>(o[i + 1] - o[i])};
}

template <class T>
T fixed_at(const Array& leaf, int64_t i) {
  T v;
  std::memcpy(&v, leaf.values.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

}  // namespace parq::variant
