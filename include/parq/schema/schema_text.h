// Reading the message notation that Schema::to_string prints (parquet-java's
// MessageTypeParser form), so a schema can be written by hand or edited:
//
//   message schema {
//     required int64 id = 1;
//     optional binary name (STRING);
//     optional fixed_len_byte_array(16) price (DECIMAL(30,2));
//     optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
//   }
//
// Annotations are the LogicalTypes.md names with their parameters (STRING,
// DECIMAL(p,s), TIMESTAMP(MICROS,true), INTEGER(8,false), LIST, MAP, ...) or
// the legacy converted names (UTF8, MAP_KEY_VALUE, INTERVAL, TIMESTAMP_MILLIS,
// ...). `// ` comments run to the end of the line.
#pragma once

#include <string_view>

#include "parq/schema/schema.h"

namespace parq {

// Throws parq::Error naming the line and what was expected.
Schema parse_schema_text(std::string_view text);

// One leaf's type in the same notation, without repetition or name:
// "int32", "int32 (DATE)", "binary (STRING)",
// "fixed_len_byte_array(16) (UUID)"; "string" and "date" stand for the
// two most common. For declaring a type where only a type is wanted (a
// dataset's partition columns). Throws parq::Error naming the text.
ValueType parse_leaf_type(std::string_view text);

}  // namespace parq
