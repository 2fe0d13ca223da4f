// Logical type annotations: resolving them from a SchemaElement (LogicalType
// or the legacy ConvertedType), checking where they may be used, printing
// them, and the sort order they give to statistics.
//
// Printed notation (logical_type_to_string) is parquet-java's, the one its
// MessageTypeParser reads and `parquet-cli schema` prints: the LogicalTypes.md
// name in upper case, parameters in parentheses, comma-separated, no spaces:
//
//   STRING  ENUM  UUID  DATE  JSON  BSON  FLOAT16  LIST  MAP  UNKNOWN  FILE
//   DECIMAL(precision,scale)          DECIMAL(10,2)
//   INTEGER(bit_width,is_signed)      INTEGER(8,false)
//   TIME(unit,is_adjusted_to_utc)     TIME(MILLIS,true)
//   TIMESTAMP(unit,is_adjusted_to_utc) TIMESTAMP(NANOS,false)
//   VARIANT or VARIANT(version)       VARIANT(1)
//   GEOMETRY or GEOMETRY(crs)         GEOMETRY(OGC:CRS84)
//   GEOGRAPHY or GEOGRAPHY(crs,algorithm), defaults filled in when only one
//                                     of the two is set
//
// A time unit this version does not know prints as `?`. A union with no
// member set (no annotation, or one from a newer writer) prints as "".
#pragma once

#include <cstdint>
#include <string>

#include "parq/format/metadata.h"
#include "parq/schema/value_type.h"

namespace parq {

// True when the union has a member this version knows.
bool has_logical_type(const format::LogicalType& logical);

// The element's annotation as a LogicalType: `logical_type` when it has a
// member set (it wins over converted_type, and DECIMAL keeps its own
// precision/scale over the element's fields), otherwise the LogicalTypes.md
// backward-compatibility mapping of `converted_type`. MAP_KEY_VALUE,
// INTERVAL, values outside the enum and absent annotations give an empty
// union. No validation happens here; Schema::from_elements does that.
format::LogicalType resolve_logical_type(const format::SchemaElement& element);

// The ConvertedType -> LogicalType rule alone. DECIMAL takes `scale` and
// `precision` as given (0 when the element lacks them).
format::LogicalType logical_type_from_converted(format::ConvertedType converted, int32_t scale, int32_t precision);

std::string logical_type_to_string(const format::LogicalType& logical);

// Whether `logical` may annotate a primitive of this physical type (and
// FIXED_LEN_BYTE_ARRAY width), per LogicalTypes.md. An empty union applies to
// everything. DECIMAL applies to INT32, INT64, BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY; its precision and scale are checked separately.
// TIME/TIMESTAMP with a unit this version does not know apply to nothing.
bool logical_type_applies_to_primitive(const format::LogicalType& logical, format::Type physical, int32_t type_length);

// Whether `logical` may annotate a group: LIST, MAP, VARIANT, FILE or none.
bool logical_type_applies_to_group(const format::LogicalType& logical);

// The most decimal digits the physical type can hold: 9 for INT32, 18 for
// INT64, floor(log10(2^(8n-1) - 1)) for FIXED_LEN_BYTE_ARRAY(n), INT32_MAX for
// BYTE_ARRAY (unbounded), 0 for the types DECIMAL cannot annotate.
int32_t max_decimal_precision(format::Type physical, int32_t type_length);

// How min/max statistics of a column compare, per the ColumnOrder comment of
// parquet.thrift and LogicalTypes.md. kSigned on a byte-array DECIMAL means
// two's-complement big-endian order; kSigned on floating point types carries
// the NaN and -0/+0 caveats of the spec.
enum class SortOrder { kSigned, kUnsigned, kUnknown };

const char* to_string(SortOrder order);

// The sort order of values of `type`. The logical type decides when set
// (an empty `logical` with a legacy `converted` uses the converted type's
// mapping; INTERVAL is unknown); otherwise the physical type: BOOLEAN
// (false < true, as parquet-java and Arrow treat it) and the byte arrays are
// unsigned, INT32/INT64/FLOAT/DOUBLE signed, INT96 unknown. LIST, MAP,
// VARIANT, GEOMETRY, GEOGRAPHY, FILE and UNKNOWN (always null) are unknown.
// An empty `logical` cannot tell "no annotation" from "an annotation this
// version does not know"; ColumnDescriptor::sort_order makes that distinction.
SortOrder sort_order(const ValueType& type);

}  // namespace parq
