// Importing data through the Arrow C Data Interface and the C Stream
// Interface, so that any Arrow producer (Arrow C++, pyarrow, nanoarrow,
// DuckDB, polars, ...) can hand its record batches to the writer.
//
// The mapping is the inverse of c_export.h: an Arrow struct's fields become
// top-level Fields, and values are converted to Parquet's physical storage
// (int8/int16/uint8/uint16/uint32 widen to INT32 with INTEGER annotations,
// uint64 to INT64, date32 to DATE, timestamp/time units kept, decimal128/256
// to INT32/INT64/FIXED_LEN_BYTE_ARRAY by precision with big-endian bytes,
// large strings/binaries and large lists to 32-bit offsets when they fit,
// dictionary-encoded arrays expanded, fixed_size_binary to FLBA,
// month_day_nano intervals to INTERVAL when exact). Arrays with a non-zero
// offset are sliced correctly. Types with no Parquet equivalent throw
// parq::Error naming the field and its format string.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/array/batch_source.h"
#include "parq/arrow/c_data.h"
#include "parq/schema/field.h"
#include "parq/schema/schema.h"

namespace parq {

// The Fields of a struct schema ("+s"), nullable fields OPTIONAL and
// non-nullable ones REQUIRED.
std::vector<Field> import_fields(const ArrowSchema* schema);
Schema import_schema(const ArrowSchema* schema);

// Copies a struct array described by `schema` into a RecordBatch shaped for
// import_schema(schema). The array is not released.
RecordBatch import_batch(const ArrowArray* array, const ArrowSchema* schema);

// A BatchSource over a stream; takes ownership of the stream (released when
// the source is destroyed).
std::unique_ptr<BatchSource> import_stream(ArrowArrayStream* stream);

}  // namespace parq
