// The dictionary decoder's gathers, for callers that hold indices already:
// a selection-aware read decodes a page's indices unchecked, keeps those of
// the values it wants, checks them and gathers only them
// (column/encoding_table.cc).
//
// Private to the library (src/).
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/dictionary_decoder.h"

namespace parq::encoding::detail {

// Throws parq::Error, naming the first, when an index is not below
// dictionary_size.
void check_dictionary_indices(const uint32_t* idx, size_t n, size_t dictionary_size);

// The gathers need indices that passed that check.
// out[i] = dict[idx[i]] for 4- and 8-byte entries (by bit pattern), with
// hardware gathers or in-register permutes where simd_level() allows.
void gather(const uint32_t* dict, size_t size, const uint32_t* idx, size_t n, uint32_t* out);
void gather(const uint64_t* dict, size_t size, const uint32_t* idx, size_t n, uint64_t* out);

template <class T>
void gather_typed(const T* dict, size_t size, const uint32_t* idx, size_t n, T* out) {
  if constexpr (sizeof(T) == 4) {
    gather(reinterpret_cast<const uint32_t*>(dict), size, idx, n, reinterpret_cast<uint32_t*>(out));
  } else if constexpr (sizeof(T) == 8) {
    gather(reinterpret_cast<const uint64_t*>(dict), size, idx, n, reinterpret_cast<uint64_t*>(out));
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
  }
}

// Appends the entries idx[0, take) of a byte-array dictionary (or `take`
// copies of entry `index` when idx is null) to `out`; returns how many,
// fewer when `out` is full (ByteArrayBatch::fits).
size_t append_entries(const ByteArrayDictionaryTable& dictionary, const uint32_t* idx, uint32_t index, size_t take,
                      ByteArrayBatch& out);

}  // namespace parq::encoding::detail
