// Reading and writing the metadata structures in the Thrift compact protocol.
//
// Both functions are explicitly instantiated for every struct of
// format/metadata.h; the top-level ones are FileMetaData (the footer),
// PageHeader, ColumnIndex, OffsetIndex, BloomFilterHeader, FileCryptoMetaData
// and ColumnMetaData (the decrypted form of encrypted_column_metadata).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "parq/format/metadata.h"
#include "parq/thrift/compact_protocol.h"

namespace parq::format {

// Decodes one struct from the start of [data, data + size) and returns the
// number of bytes it took. `file_offset` is where `data` sits in the file,
// for error messages. Throws parq::Error on malformed input.
template <class T>
size_t decode_thrift(const uint8_t* data, size_t size, T& out, uint64_t file_offset = 0,
                     const thrift::DecodeLimits& limits = {});

// Appends the encoding of `value` to `out`.
template <class T>
void encode_thrift(const T& value, std::string& out);

}  // namespace parq::format
