// The plan behind the Arrow C Data Interface import (c_import.h): the Arrow
// schema parsed once into a tree that says, for every node, how its buffers
// become parq's, together with the Fields and the validated Schema. The
// schema side (c_import_schema.cc) builds it; the array side
// (c_import_array.cc) follows it for every batch, so a stream's schema is
// parsed only once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/arrow/c_data.h"
#include "parq/schema/field.h"
#include "parq/schema/schema.h"

namespace parq::arrow_import {

// How an Arrow node's buffers turn into a parq Array.
enum class Layout : uint8_t {
  kNull,               // "n": no buffers; an all-null INT32 column
  kBoolean,            // bits, re-aligned to the slice
  kFixed,              // `width` bytes per slot, copied as they are
  kSignExtend,         // int8/int16 -> int32
  kZeroExtend,         // uint8/uint16 -> int32
  kSecondsToMillis32,  // time32[s] -> TIME(MILLIS)
  kSecondsToMillis64,  // timestamp[s] -> TIMESTAMP(MILLIS)
  kMillisToDays,       // date64 -> DATE
  kDecimal,            // little-endian two's complement of `width` bytes
  kBinary,             // int32 offsets
  kLargeBinary,        // int64 offsets
  kBinaryView,         // 16-byte views over variadic buffers
  kMonthDayNano,       // interval[month_day_nano] -> INTERVAL
  kYearMonth,          // interval[months] -> INTERVAL
  kDayTime,            // interval[day_time] -> INTERVAL
  kStruct,
  kList,
  kLargeList,
  kFixedSizeList,  // `width` elements per slot
  kMap,
};

struct ImportNode {
  std::string name;    // of the Field and of the Array
  std::string path;    // the Arrow path, dotted, for messages
  std::string format;  // the Arrow format, for messages
  Layout layout = Layout::kNull;
  int32_t width = 0;
  // Dictionary-encoded nodes: bytes per index (0 otherwise); `layout` and
  // `width` then describe the dictionary's values.
  int32_t index_width = 0;
  bool index_signed = true;
  // A map whose values are of the null type: Parquet can say "no values"
  // exactly, by a key_value group holding only the key.
  bool drop_map_values = false;
  ValueType type;  // leaves: the schema column's
  std::vector<ImportNode> children;

  bool is_leaf() const { return layout < Layout::kStruct; }
};

struct ImportPlan {
  std::vector<Field> fields;
  std::vector<ImportNode> columns;  // one per field
  Schema schema;
};

// Parses a struct ("+s") schema; throws parq::Error naming the field and its
// format for anything Parquet cannot hold.
ImportPlan plan_import(const ArrowSchema* schema);

// Copies `array` (a struct array matching the plan) into a batch.
RecordBatch import_rows(const ImportPlan& plan, const ArrowArray* array);

// A zero-row batch of the plan's shape.
RecordBatch empty_rows(const ImportPlan& plan);

}  // namespace parq::arrow_import
