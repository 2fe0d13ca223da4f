// Taking rows of arrays by index: what splits a batch's rows into groups
// (a partitioned write sends each partition's rows to its own file).
#pragma once

#include <cstdint>
#include <span>

#include "parq/array/array.h"

namespace parq {

// The slots `rows` of `array` (each < array.length, in any order, repeats
// allowed), nested arrays included: a list's or map's elements follow
// their slots. Throws parq::Error (kInvalidArgument) for an index out of
// range, and (kLimit) when a byte array's or list's taken data would pass
// int32 offsets.
Array take(const Array& array, std::span<const int64_t> rows);

// The batch's rows `rows`, every column taken.
RecordBatch take(const RecordBatch& batch, std::span<const int64_t> rows);

}  // namespace parq
