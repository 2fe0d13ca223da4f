// The Parquet metadata model: every structure of parquet-format's
// parquet.thrift, as plain C++ values.
//
// Names follow the Thrift definition (snake_case members; union alternatives
// keep the spec's upper-case tags) so that the spec reads as documentation of
// this header. Optional Thrift fields are std::optional; required ones are
// plain members. Unions are structs of optionals with at most one member set;
// none set means a member this version does not know (a newer writer), which
// readers treat as "unknown".
//
// Enums are open: a value from a newer writer (an encoding or codec added
// later) is kept as its number rather than rejected, so the footer still
// parses and only the column that uses it fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parq::format {

enum class Type : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t {
  REQUIRED = 0,
  OPTIONAL = 1,
  REPEATED = 2,
};

enum class Encoding : int32_t {
  PLAIN = 0,
  // 1 was GROUP_VAR_INT, never used in files.
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
  ALP = 10,
};

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,
  ZSTD = 6,
  LZ4_RAW = 7,
};

enum class PageType : int32_t {
  DATA_PAGE = 0,
  INDEX_PAGE = 1,
  DICTIONARY_PAGE = 2,
  DATA_PAGE_V2 = 3,
};

enum class BoundaryOrder : int32_t {
  UNORDERED = 0,
  ASCENDING = 1,
  DESCENDING = 2,
};

enum class EdgeInterpolationAlgorithm : int32_t {
  SPHERICAL = 0,
  VINCENTY = 1,
  THOMAS = 2,
  ANDOYER = 3,
  KARNEY = 4,
};

const char* to_string(Type v);
const char* to_string(ConvertedType v);
const char* to_string(FieldRepetitionType v);
const char* to_string(Encoding v);
const char* to_string(CompressionCodec v);
const char* to_string(PageType v);
const char* to_string(BoundaryOrder v);
const char* to_string(EdgeInterpolationAlgorithm v);

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::optional<std::vector<int64_t>> repetition_level_histogram;
  std::optional<std::vector<int64_t>> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::optional<std::vector<int32_t>> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

// Bounds are PLAIN-encoded values (without the length prefix for byte arrays).
// `min`/`max` are the legacy fields, ordered as signed bytes by old writers;
// `min_value`/`max_value` follow the column's sort order.
struct Statistics {
  std::optional<std::string> max;
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

// Empty marker structs of the LogicalType union.
#define PARQ_EMPTY_STRUCT(Name)                   \
  struct Name {                                   \
    bool operator==(const Name&) const = default; \
  }
PARQ_EMPTY_STRUCT(StringType);
PARQ_EMPTY_STRUCT(UUIDType);
PARQ_EMPTY_STRUCT(MapType);
PARQ_EMPTY_STRUCT(ListType);
PARQ_EMPTY_STRUCT(EnumType);
PARQ_EMPTY_STRUCT(DateType);
PARQ_EMPTY_STRUCT(Float16Type);
PARQ_EMPTY_STRUCT(NullType);
PARQ_EMPTY_STRUCT(JsonType);
PARQ_EMPTY_STRUCT(BsonType);
PARQ_EMPTY_STRUCT(FileType);
PARQ_EMPTY_STRUCT(MilliSeconds);
PARQ_EMPTY_STRUCT(MicroSeconds);
PARQ_EMPTY_STRUCT(NanoSeconds);
PARQ_EMPTY_STRUCT(IndexPageHeader);
PARQ_EMPTY_STRUCT(SplitBlockAlgorithm);
PARQ_EMPTY_STRUCT(XxHash);
PARQ_EMPTY_STRUCT(Uncompressed);
PARQ_EMPTY_STRUCT(EncryptionWithFooterKey);
PARQ_EMPTY_STRUCT(TypeDefinedOrder);
PARQ_EMPTY_STRUCT(IEEE754TotalOrder);
PARQ_EMPTY_STRUCT(Int96TimestampOrder);
#undef PARQ_EMPTY_STRUCT

struct DecimalType {
  int32_t scale = 0;
  int32_t precision = 0;
  bool operator==(const DecimalType&) const = default;
};

struct TimeUnit {  // union
  std::optional<MilliSeconds> MILLIS;
  std::optional<MicroSeconds> MICROS;
  std::optional<NanoSeconds> NANOS;
  bool operator==(const TimeUnit&) const = default;
};

struct TimestampType {
  bool is_adjusted_to_utc = false;
  TimeUnit unit;
  bool operator==(const TimestampType&) const = default;
};

struct TimeType {
  bool is_adjusted_to_utc = false;
  TimeUnit unit;
  bool operator==(const TimeType&) const = default;
};

struct IntType {
  int8_t bit_width = 0;
  bool is_signed = false;
  bool operator==(const IntType&) const = default;
};

struct VariantType {
  std::optional<int8_t> specification_version;
  bool operator==(const VariantType&) const = default;
};

struct GeometryType {
  std::optional<std::string> crs;
  bool operator==(const GeometryType&) const = default;
};

struct GeographyType {
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;
  bool operator==(const GeographyType&) const = default;
};

struct LogicalType {  // union
  std::optional<StringType> STRING;
  std::optional<MapType> MAP;
  std::optional<ListType> LIST;
  std::optional<EnumType> ENUM;
  std::optional<DecimalType> DECIMAL;
  std::optional<DateType> DATE;
  std::optional<TimeType> TIME;
  std::optional<TimestampType> TIMESTAMP;
  std::optional<IntType> INTEGER;
  std::optional<NullType> UNKNOWN;
  std::optional<JsonType> JSON;
  std::optional<BsonType> BSON;
  std::optional<UUIDType> UUID;
  std::optional<Float16Type> FLOAT16;
  std::optional<VariantType> VARIANT;
  std::optional<GeometryType> GEOMETRY;
  std::optional<GeographyType> GEOGRAPHY;
  std::optional<FileType> FILE;
  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<Type> type;
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
  bool operator==(const SchemaElement&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  // absent means true
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct BloomFilterAlgorithm {  // union
  std::optional<SplitBlockAlgorithm> BLOCK;
  bool operator==(const BloomFilterAlgorithm&) const = default;
};

struct BloomFilterHash {  // union
  std::optional<XxHash> XXHASH;
  bool operator==(const BloomFilterHash&) const = default;
};

struct BloomFilterCompression {  // union
  std::optional<Uncompressed> UNCOMPRESSED;
  bool operator==(const BloomFilterCompression&) const = default;
};

struct BloomFilterHeader {
  int32_t num_bytes = 0;
  BloomFilterAlgorithm algorithm;
  BloomFilterHash hash;
  BloomFilterCompression compression;
  bool operator==(const BloomFilterHeader&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

struct ColumnMetaData {
  Type type = Type::BOOLEAN;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct EncryptionWithColumnKey {
  std::vector<std::string> path_in_schema;
  std::optional<std::string> key_metadata;
  bool operator==(const EncryptionWithColumnKey&) const = default;
};

struct ColumnCryptoMetaData {  // union
  std::optional<EncryptionWithFooterKey> ENCRYPTION_WITH_FOOTER_KEY;
  std::optional<EncryptionWithColumnKey> ENCRYPTION_WITH_COLUMN_KEY;
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;  // required with a default; old writers omit it
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  std::optional<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

struct ColumnOrder {  // union
  std::optional<TypeDefinedOrder> TYPE_ORDER;
  std::optional<IEEE754TotalOrder> IEEE_754_TOTAL_ORDER;
  std::optional<Int96TimestampOrder> INT96_TIMESTAMP_ORDER;
  bool operator==(const ColumnOrder&) const = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  std::optional<std::vector<int64_t>> null_counts;
  std::optional<std::vector<int64_t>> repetition_level_histograms;
  std::optional<std::vector<int64_t>> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

struct AesGcmV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmV1&) const = default;
};

struct AesGcmCtrV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmCtrV1&) const = default;
};

struct EncryptionAlgorithm {  // union
  std::optional<AesGcmV1> AES_GCM_V1;
  std::optional<AesGcmCtrV1> AES_GCM_CTR_V1;
  bool operator==(const EncryptionAlgorithm&) const = default;
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

// The header of a file with an encrypted footer ("PARE" magic).
struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

}  // namespace parq::format
