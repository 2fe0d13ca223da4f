// Reading a column chunk's split-block bloom filter back from a file, for
// filter pushdown ("can this row group hold value v?") and `parq bloom`.
//
// The filter sits at ColumnMetaData.bloom_filter_offset: a
// BloomFilterHeader, then the bitset. bloom_filter_length, when the writer
// recorded it, bounds both and is read in one go; without it the header is
// decoded first and then its num_bytes of bitset read. Either way nothing is
// read or allocated beyond the file or BloomFilter::kMaxBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "parq/column/bloom_filter.h"
#include "parq/file/file_reader.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"

namespace parq {

// The filter of chunk (row_group, column), or nullopt when it has none.
// Throws parq::Error naming the input, column and row group for a filter
// outside the file, one that does not decode or is not the split-block
// xxHash kind the spec defines, an encrypted one without `decryptor` (or
// whose key it lacks), and row group or column indexes out of range.
std::optional<BloomFilter> read_bloom_filter(io::RandomAccessInput& input, const format::FileMetaData& file,
                                             size_t row_group, size_t column,
                                             const crypto::FileDecryptor* decryptor = nullptr);
std::optional<BloomFilter> read_bloom_filter(const FileReader& file, size_t row_group, size_t column);

}  // namespace parq
