// ValueType: everything needed to interpret one leaf column's values: the
// physical type, the FIXED_LEN_BYTE_ARRAY width, and the logical type.
//
// `logical` is resolved: taken from the schema's LogicalType when present,
// else derived from the legacy ConvertedType by the backward-compatibility
// rules of LogicalTypes.md (UTF8 -> STRING, TIMESTAMP_MILLIS -> TIMESTAMP(MILLIS,
// UTC), UINT_16 -> INTEGER(16, unsigned), DECIMAL with the element's
// precision and scale, ...). A union with no member set means "no logical
// type" (or one this version does not know): values read as their physical
// type. INTERVAL and MAP_KEY_VALUE have no LogicalType equivalent, so the
// original ConvertedType is kept beside it.
#pragma once

#include <cstdint>
#include <optional>

#include "parq/format/metadata.h"

namespace parq {

struct ValueType {
  format::Type physical = format::Type::BOOLEAN;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only
  format::LogicalType logical;
  std::optional<format::ConvertedType> converted;
  bool operator==(const ValueType&) const = default;
};

// Bytes of one PLAIN-encoded value of a fixed-width physical type (BOOLEAN:
// one byte, as leaf readers keep them; FIXED_LEN_BYTE_ARRAY: `type_length`);
// 0 for BYTE_ARRAY, whose values have any length.
inline int32_t plain_width(format::Type physical, int32_t type_length) {
  switch (physical) {
    case format::Type::BOOLEAN:
      return 1;
    case format::Type::INT32:
    case format::Type::FLOAT:
      return 4;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      return 8;
    case format::Type::INT96:
      return 12;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return type_length;
    case format::Type::BYTE_ARRAY:
      return 0;
  }
  return 0;
}

}  // namespace parq
