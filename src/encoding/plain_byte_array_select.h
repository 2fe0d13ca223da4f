// PLAIN BYTE_ARRAY read through a selection: the lengths of every value are
// walked (they are the only way to the next value) and only the kept values
// are copied out. Used by the column layer's selection-aware read
// (column/encoding_table.cc), which keeps the page cursor itself.
//
// Private to the library (src/).
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/encoding/byte_array_batch.h"

namespace parq::encoding::detail {

// The page is [begin, end) and its next value starts at `pos`. Passes n
// values, appending to `out` those whose keep[i] != 0 (`kept` of them);
// returns where the value after them starts. A length that runs past the
// page, or a batch that would pass 2^31-1 bytes, throws parq::Error.
const uint8_t* plain_byte_arrays_selected(const uint8_t* begin, const uint8_t* pos, const uint8_t* end, size_t n,
                                          const uint8_t* keep, size_t kept, ByteArrayBatch& out);

// Passes n values from `pos` without copying them; returns where the value
// after them starts. Checked like the above.
const uint8_t* plain_byte_arrays_walk(const uint8_t* begin, const uint8_t* pos, const uint8_t* end, size_t n);

}  // namespace parq::encoding::detail
