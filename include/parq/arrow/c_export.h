// Exporting parq's columnar data through the Arrow C Data Interface and the
// C Stream Interface, so any Arrow implementation (Arrow C++, pyarrow,
// nanoarrow, DuckDB, polars, ...) can consume what the reader decodes.
//
// A batch exports as a struct ("+s") whose children are the columns. Types
// map as follows (the Parquet annotation wins over the physical type):
//
//   BOOLEAN                          b
//   INT32, INTEGER(8/16/32, signed)  c / s / i      (INT(8/16) narrowed)
//   INTEGER(8/16/32, unsigned)       C / S / I      (INT(8/16) narrowed)
//   INT64, INTEGER(64, unsigned)     l / L
//   FLOAT / DOUBLE / FLOAT16         f / g / e      (FLOAT16 needs FLBA(2))
//   STRING, ENUM, JSON               u
//   other BYTE_ARRAY                 z
//   FIXED_LEN_BYTE_ARRAY(N), UUID    w:N            (UUID carries arrow.uuid)
//   DECIMAL(P,S), P <= 38            d:P,S          (16-byte little endian)
//   DECIMAL(P,S), 38 < P <= 76       d:P,S,256      (32-byte little endian)
//   DATE                             tdD
//   TIME(MILLIS/MICROS/NANOS)        ttm / ttu / ttn
//   TIMESTAMP(unit, utc)             tsm: tsu: tsn: + "UTC" when adjusted
//   INT96                            tsn:           (see below)
//   INTERVAL (converted, FLBA(12))   tin            (month_day_nano)
//   UNKNOWN                          n
//   list / struct / map              +l / +s / +m
//
// Decisions a consumer may notice:
//  * Every field is nullable: an Array does not record whether its Parquet
//    field was REQUIRED, and a nullable flag on data without nulls is always
//    correct. The exceptions are those the Arrow map layout demands: the
//    map's "entries" struct and its "key" field are non-nullable.
//  * INT96 converts to nanoseconds since the epoch with two's complement
//    wrap-around outside years 1677..2262, as Arrow C++ does; parq's own
//    text output keeps the exact value.
//  * INTERVAL's unsigned months and days are reinterpreted as int32 (values
//    above 2^31 - 1 wrap, none occur in practice); millis become nanos
//    exactly.
//  * A map without a values child exports a "value" field of the null type
//    "n" (no buffers, all slots null): it states precisely that there are no
//    values, and costs no memory, where a zero-filled copy of the key type
//    would invent a type the file never had.
//  * DECIMAL with precision above 76 (possible on BYTE_ARRAY) has no Arrow
//    type and exports as its storage type, the unscaled big-endian bytes.
//  * Zero-length buffers other than validity point at static zeroed memory
//    rather than NULL: old Arrow importers reject NULL data pointers.
//
// The exported structures own their memory: batch buffers are moved into
// the export (zero copy wherever the layouts agree), and each release
// callback frees its node and any children not moved out by the consumer.
#pragma once

#include <memory>

#include "parq/array/array.h"
#include "parq/array/batch_source.h"
#include "parq/arrow/c_data.h"

namespace parq {

// Fills `out` with the schema of batches shaped like `prototype`. Throws
// parq::Error on a shape it cannot describe; `out` is untouched then.
void export_schema(const RecordBatch& prototype, ArrowSchema* out);

// Moves `batch` into `out`. Throws parq::Error when the batch's buffers are
// inconsistent with its lengths, a map has a null key, or a decimal's bytes
// exceed its Arrow width; `out` is untouched then. `offsets_ordered`: the
// batch comes from a source whose offsets never decrease
// (BatchSource::offsets_ordered), so only their ends are checked.
void export_batch(RecordBatch&& batch, ArrowArray* out, bool offsets_ordered = false);

// Wraps `source` as a stream: get_schema describes source->prototype(),
// get_next yields each batch then a released array at the end. A
// parq::Error from the source makes the call return EIO with the message
// available from get_last_error. With `threads` above 1 the stream takes a
// few batches at a time from the source and exports them side by side
// (their conversions are a pass over the data): for sources whose next()
// is cheap, such as batches already in memory; an error in one batch's
// export is reported when the consumer reaches that batch.
void export_stream(std::unique_ptr<BatchSource> source, ArrowArrayStream* out, int threads = 1);

}  // namespace parq
