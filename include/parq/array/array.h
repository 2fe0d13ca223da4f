// The columnar form the reader decodes into.
//
// Arrays use Arrow's memory layout (validity bitmaps, int32 offsets,
// contiguous values) in parq's own buffers, but keep Parquet's value storage
// per physical type: INT32 columns stay 4 bytes even when annotated INT(8),
// decimals keep their unscaled integers or big-endian bytes, INT96 keeps its
// 12 bytes. Conversions that would lose information or cost a pass
// (INT96 -> timestamp[ns] overflows outside 1677..2262, for one) happen only
// when exporting through the Arrow C Data Interface (arrow/c_export.h), and
// canonical text is rendered from the exact Parquet values.
//
// Leaf storage by physical type:
//   BOOLEAN              values: one bit per slot, LSB first (Arrow boolean)
//   INT32 / FLOAT        values: 4 bytes per slot
//   INT64 / DOUBLE       values: 8 bytes per slot
//   INT96                values: 12 bytes per slot
//   FIXED_LEN_BYTE_ARRAY values: type_length bytes per slot
//   BYTE_ARRAY           offsets: length + 1 int32; values: the bytes
// Null slots hold unspecified (zeroed) values, as in Arrow.
//
// Nesting: a struct has one child per field, all of the struct's length; a
// list has offsets and one child (the elements); a map has offsets and two
// children (keys, values) of the same length. Empty lists and null lists
// differ by validity.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parq/schema/value_type.h"
#include "parq/util/buffer.h"

namespace parq {

enum class ArrayKind : uint8_t { kLeaf, kStruct, kList, kMap };

class Array {
 public:
  ArrayKind kind = ArrayKind::kLeaf;
  std::string name;
  ValueType type;  // leaves: physical, type_length, logical and converted type; structs: logical (VARIANT)
  int64_t length = 0;
  int64_t null_count = 0;
  Buffer validity;  // one bit per slot, LSB first; empty when no slot is null
  Buffer offsets;   // int32, length + 1 entries: BYTE_ARRAY leaves, lists, maps
  Buffer values;    // leaf values as above
  std::vector<Array> children;

  bool is_valid(int64_t i) const { return validity.empty() || (validity.data()[i >> 3] >> (i & 7) & 1) != 0; }
  const int32_t* offsets_data() const { return offsets.data_as<int32_t>(); }
  // Bytes per slot of a fixed-width leaf; 0 for BOOLEAN and BYTE_ARRAY.
  int32_t value_width() const;
};

// `a` with every buffer a view of a's (Buffer::view), kept alive by
// `owner`; a null owner borrows them, and `a` must then outlive the view.
// Copies no data.
Array view_of(const Array& a, const std::shared_ptr<const void>& owner = nullptr);

// Rows of a file: one array per top-level field, each `num_rows` long.
struct RecordBatch {
  int64_t num_rows = 0;
  std::vector<Array> columns;
};

}  // namespace parq
