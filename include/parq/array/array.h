// The columnar form the reader decodes into: Arrow's memory layout (validity
// bitmaps, int32 offsets, contiguous values) in parq's own buffers, so that
// export through the Arrow C Data Interface is a matter of handing out
// pointers.
//
// How Parquet types map (the choices Arrow C++ makes, except where noted):
//   BOOLEAN -> boolean (bit-packed); INT32/INT64 -> int32/int64, or the
//   INTEGER width and signedness; FLOAT/DOUBLE -> float32/float64; FLOAT16 ->
//   float16; STRING/ENUM/JSON -> utf8; other BYTE_ARRAY -> binary; FLBA ->
//   fixed_size_binary (UUID included); DECIMAL -> decimal128 (precision <= 38)
//   or decimal256; DATE -> date32; TIME -> time32[ms] / time64[us|ns];
//   TIMESTAMP -> timestamp[unit] with timezone "UTC" when adjusted; INT96 ->
//   timestamp[ns]; INTERVAL -> interval_month_day_nano (lossless, unlike
//   arrow-rs which drops months); LIST and repeated fields -> list; MAP ->
//   map<key, value>; groups -> struct.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parq/util/buffer.h"

namespace parq {

enum class TypeId : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kString,
  kBinary,
  kFixedSizeBinary,
  kDecimal128,
  kDecimal256,
  kDate32,
  kTime32,
  kTime64,
  kTimestamp,
  kIntervalMonthDayNano,
  kList,
  kStruct,
  kMap,
};

enum class ArrowTimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

struct Field;

struct DataType {
  TypeId id = TypeId::kNull;
  int32_t byte_width = 0;  // fixed_size_binary
  int32_t precision = 0;   // decimals
  int32_t scale = 0;
  ArrowTimeUnit unit = ArrowTimeUnit::kMilli;  // time32/64, timestamp
  std::string timezone;                        // timestamp: "UTC" or empty
  // list: the item; struct: the fields; map: one "entries" struct of
  // (key, value).
  std::vector<Field> children;

  bool operator==(const DataType&) const;
};

struct Field {
  std::string name;
  DataType type;
  bool nullable = true;
  bool operator==(const Field&) const = default;
};

inline bool DataType::operator==(const DataType& o) const {
  return id == o.id && byte_width == o.byte_width && precision == o.precision && scale == o.scale && unit == o.unit &&
         timezone == o.timezone && children == o.children;
}

// Bytes per value of fixed-width types; 0 for the others (boolean is bits).
int32_t fixed_width_of(const DataType& type);

class Array {
 public:
  DataType type;
  int64_t length = 0;
  int64_t null_count = 0;
  Buffer validity;  // one bit per slot, LSB first; empty when null_count == 0
  Buffer offsets;   // int32, length + 1 entries: utf8, binary, list, map
  Buffer values;    // fixed-width values, bits for boolean, bytes for utf8/binary
  std::vector<Array> children;

  bool is_valid(int64_t i) const { return validity.empty() || (validity.data()[i >> 3] >> (i & 7) & 1) != 0; }
  const int32_t* offsets_data() const { return offsets.data_as<int32_t>(); }
};

struct RecordBatch {
  std::vector<Field> fields;
  std::vector<Array> columns;
  int64_t num_rows = 0;
};

}  // namespace parq
