// Spec names of the metadata enums, for the tool and for error messages.
// A value outside the known range (a newer writer) prints as "UNKNOWN(n)".
#include <string>

#include "parq/format/metadata.h"

namespace parq::format {
namespace {

template <size_t N>
const char* lookup(const char* const (&names)[N], int32_t v) {
  if (v >= 0 && static_cast<size_t>(v) < N && names[v] != nullptr) return names[v];
  // Interned so the pointer stays valid; only reachable for corrupt or
  // future values, of which there are few distinct ones.
  thread_local std::string unknown;
  unknown = "UNKNOWN(" + std::to_string(v) + ")";
  return unknown.c_str();
}

}  // namespace

const char* to_string(Type v) {
  static const char* const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(ConvertedType v) {
  static const char* const names[] = {"UTF8",
                                      "MAP",
                                      "MAP_KEY_VALUE",
                                      "LIST",
                                      "ENUM",
                                      "DECIMAL",
                                      "DATE",
                                      "TIME_MILLIS",
                                      "TIME_MICROS",
                                      "TIMESTAMP_MILLIS",
                                      "TIMESTAMP_MICROS",
                                      "UINT_8",
                                      "UINT_16",
                                      "UINT_32",
                                      "UINT_64",
                                      "INT_8",
                                      "INT_16",
                                      "INT_32",
                                      "INT_64",
                                      "JSON",
                                      "BSON",
                                      "INTERVAL"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(FieldRepetitionType v) {
  static const char* const names[] = {"REQUIRED", "OPTIONAL", "REPEATED"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(Encoding v) {
  static const char* const names[] = {"PLAIN",
                                      nullptr,
                                      "PLAIN_DICTIONARY",
                                      "RLE",
                                      "BIT_PACKED",
                                      "DELTA_BINARY_PACKED",
                                      "DELTA_LENGTH_BYTE_ARRAY",
                                      "DELTA_BYTE_ARRAY",
                                      "RLE_DICTIONARY",
                                      "BYTE_STREAM_SPLIT",
                                      "ALP"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(CompressionCodec v) {
  static const char* const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(PageType v) {
  static const char* const names[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(BoundaryOrder v) {
  static const char* const names[] = {"UNORDERED", "ASCENDING", "DESCENDING"};
  return lookup(names, static_cast<int32_t>(v));
}

const char* to_string(EdgeInterpolationAlgorithm v) {
  static const char* const names[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"};
  return lookup(names, static_cast<int32_t>(v));
}

}  // namespace parq::format
