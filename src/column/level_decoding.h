// Decoding a data page's repetition and definition levels into int16 values,
// checked against the column's maximum level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "parq/format/metadata.h"
#include "parq/util/buffer.h"

namespace parq {

// When `all_max` is given and the levels are one RLE run of max_level
// covering every entry (how writers store a page without nulls), it is set
// and `out` is left unwritten: the caller knows every level without a pass
// over them. Otherwise it is cleared.

// v1 levels: RLE (4-byte length prefix, then hybrid runs) or the deprecated
// BIT_PACKED; returns the bytes they take at the front of `data`.
size_t decode_v1_levels(format::Encoding encoding, const uint8_t* data, size_t size, size_t count, int16_t max_level,
                        int16_t* out, const std::string& what, bool* all_max = nullptr);

// v2 levels: hybrid runs without a prefix, in exactly `size` bytes.
void decode_v2_levels(const uint8_t* data, size_t size, size_t count, int16_t max_level, int16_t* out,
                      const std::string& what, bool* all_max = nullptr);

// A data page's levels, v1 or v2 as its header says, decoded from its
// decompressed bytes into `rep` and `def` (int16 each, resized to the page's
// num_values; left alone when the column's maximum level is 0). Returns
// where the values start in `bytes`. `def_all_max` as above, for the
// definition levels. The caller has checked that the header is the page
// type's and its counts are not negative.
size_t decode_page_levels(const format::PageHeader& header, std::span<const uint8_t> bytes, int16_t max_repetition,
                          int16_t max_definition, Buffer& rep, Buffer& def, bool* def_all_max = nullptr);

}  // namespace parq
