// A column chunk's dictionary, read on its own: filter pushdown tests a
// predicate against the dictionary once and, when every data page is
// dictionary-encoded and no entry matches, skips the chunk without decoding
// a page of values; `parq dictionary` shows it.
#pragma once

#include <cstddef>
#include <optional>

#include "parq/array/array.h"
#include "parq/column/page_reader.h"
#include "parq/file/file_reader.h"
#include "parq/format/metadata.h"
#include "parq/schema/schema.h"

namespace parq {

// Whether every data page of the chunk is dictionary-encoded, so that its
// dictionary holds every value the chunk has. From encoding_stats when the
// writer recorded them: every DATA_PAGE and DATA_PAGE_V2 entry is
// PLAIN_DICTIONARY or RLE_DICTIONARY. Otherwise from `encodings`, which only
// says which encodings occur somewhere in the chunk: true only when it has a
// dictionary encoding and nothing else but the level encodings RLE and
// BIT_PACKED. A PLAIN there may be the dictionary page's own encoding or a
// fallback's, so it answers false, as does anything unsure (a BOOLEAN
// column, whose values RLE can encode; an empty list).
bool all_pages_dictionary_encoded(const format::ColumnMetaData& chunk);

// The chunk's dictionary page decoded into a leaf Array of the column's type
// (array/array.h layout, no nulls), or nullopt when the chunk does not start
// with a dictionary page. The page is read through PageReader (CRC checked
// unless `options` say otherwise) and its PLAIN values decoded, with
// num_values checked against the page's bytes before anything is allocated.
// Throws parq::Error naming the input, column and row group for a
// dictionary that does not decode or an encoding other than PLAIN or
// PLAIN_DICTIONARY.
std::optional<Array> read_dictionary(io::RandomAccessInput& input, const format::FileMetaData& file,
                                     const ColumnDescriptor& column, size_t row_group,
                                     const PageReaderOptions& options = {});
std::optional<Array> read_dictionary(const FileReader& file, size_t row_group, size_t column,
                                     const PageReaderOptions& options = {});

}  // namespace parq
