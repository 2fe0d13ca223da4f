// The Thrift descriptions of the metadata structures (field names and ids as
// in parquet.thrift) and the instantiation of the generic struct codec for
// each of them.
#include "parq/format/metadata_codec.h"

#include "thrift/struct_codec.h"

namespace parq::thrift {

using namespace parq::format;

#define PARQ_STRUCT(Type, IsUnion, ...)        \
  template <>                                  \
  struct StructInfo<Type> {                    \
    static constexpr const char* name = #Type; \
    static constexpr bool is_union = IsUnion;  \
    using fields = FieldList<__VA_ARGS__>;     \
  }
#define PARQ_EMPTY(Type) PARQ_STRUCT(Type, false)

PARQ_STRUCT(SizeStatistics, false,
            Field<"unencoded_byte_array_data_bytes", 1, &SizeStatistics::unencoded_byte_array_data_bytes>,
            Field<"repetition_level_histogram", 2, &SizeStatistics::repetition_level_histogram>,
            Field<"definition_level_histogram", 3, &SizeStatistics::definition_level_histogram>);
PARQ_STRUCT(BoundingBox, false, Field<"xmin", 1, &BoundingBox::xmin>, Field<"xmax", 2, &BoundingBox::xmax>,
            Field<"ymin", 3, &BoundingBox::ymin>, Field<"ymax", 4, &BoundingBox::ymax>,
            Field<"zmin", 5, &BoundingBox::zmin>, Field<"zmax", 6, &BoundingBox::zmax>,
            Field<"mmin", 7, &BoundingBox::mmin>, Field<"mmax", 8, &BoundingBox::mmax>);
PARQ_STRUCT(GeospatialStatistics, false, Field<"bbox", 1, &GeospatialStatistics::bbox>,
            Field<"geospatial_types", 2, &GeospatialStatistics::geospatial_types>);
PARQ_STRUCT(Statistics, false, Field<"max", 1, &Statistics::max>, Field<"min", 2, &Statistics::min>,
            Field<"null_count", 3, &Statistics::null_count>, Field<"distinct_count", 4, &Statistics::distinct_count>,
            Field<"max_value", 5, &Statistics::max_value>, Field<"min_value", 6, &Statistics::min_value>,
            Field<"is_max_value_exact", 7, &Statistics::is_max_value_exact>,
            Field<"is_min_value_exact", 8, &Statistics::is_min_value_exact>,
            Field<"nan_count", 9, &Statistics::nan_count>);
PARQ_EMPTY(StringType);
PARQ_EMPTY(UUIDType);
PARQ_EMPTY(MapType);
PARQ_EMPTY(ListType);
PARQ_EMPTY(EnumType);
PARQ_EMPTY(DateType);
PARQ_EMPTY(Float16Type);
PARQ_EMPTY(NullType);
PARQ_EMPTY(JsonType);
PARQ_EMPTY(BsonType);
PARQ_EMPTY(FileType);
PARQ_EMPTY(MilliSeconds);
PARQ_EMPTY(MicroSeconds);
PARQ_EMPTY(NanoSeconds);
PARQ_EMPTY(IndexPageHeader);
PARQ_EMPTY(SplitBlockAlgorithm);
PARQ_EMPTY(XxHash);
PARQ_EMPTY(Uncompressed);
PARQ_EMPTY(EncryptionWithFooterKey);
PARQ_EMPTY(TypeDefinedOrder);
PARQ_EMPTY(IEEE754TotalOrder);
PARQ_EMPTY(Int96TimestampOrder);
PARQ_STRUCT(DecimalType, false, Field<"scale", 1, &DecimalType::scale>, Field<"precision", 2, &DecimalType::precision>);
PARQ_STRUCT(TimeUnit, true, Field<"MILLIS", 1, &TimeUnit::MILLIS>, Field<"MICROS", 2, &TimeUnit::MICROS>,
            Field<"NANOS", 3, &TimeUnit::NANOS>);
PARQ_STRUCT(TimestampType, false, Field<"isAdjustedToUTC", 1, &TimestampType::is_adjusted_to_utc>,
            Field<"unit", 2, &TimestampType::unit>);
PARQ_STRUCT(TimeType, false, Field<"isAdjustedToUTC", 1, &TimeType::is_adjusted_to_utc>,
            Field<"unit", 2, &TimeType::unit>);
PARQ_STRUCT(IntType, false, Field<"bitWidth", 1, &IntType::bit_width>, Field<"isSigned", 2, &IntType::is_signed>);
PARQ_STRUCT(VariantType, false, Field<"specification_version", 1, &VariantType::specification_version>);
PARQ_STRUCT(GeometryType, false, Field<"crs", 1, &GeometryType::crs>);
PARQ_STRUCT(GeographyType, false, Field<"crs", 1, &GeographyType::crs>,
            Field<"algorithm", 2, &GeographyType::algorithm>);
PARQ_STRUCT(LogicalType, true, Field<"STRING", 1, &LogicalType::STRING>, Field<"MAP", 2, &LogicalType::MAP>,
            Field<"LIST", 3, &LogicalType::LIST>, Field<"ENUM", 4, &LogicalType::ENUM>,
            Field<"DECIMAL", 5, &LogicalType::DECIMAL>, Field<"DATE", 6, &LogicalType::DATE>,
            Field<"TIME", 7, &LogicalType::TIME>, Field<"TIMESTAMP", 8, &LogicalType::TIMESTAMP>,
            Field<"INTEGER", 10, &LogicalType::INTEGER>, Field<"UNKNOWN", 11, &LogicalType::UNKNOWN>,
            Field<"JSON", 12, &LogicalType::JSON>, Field<"BSON", 13, &LogicalType::BSON>,
            Field<"UUID", 14, &LogicalType::UUID>, Field<"FLOAT16", 15, &LogicalType::FLOAT16>,
            Field<"VARIANT", 16, &LogicalType::VARIANT>, Field<"GEOMETRY", 17, &LogicalType::GEOMETRY>,
            Field<"GEOGRAPHY", 18, &LogicalType::GEOGRAPHY>, Field<"FILE", 19, &LogicalType::FILE>);
PARQ_STRUCT(SchemaElement, false, Field<"type", 1, &SchemaElement::type>,
            Field<"type_length", 2, &SchemaElement::type_length>,
            Field<"repetition_type", 3, &SchemaElement::repetition_type>, Field<"name", 4, &SchemaElement::name>,
            Field<"num_children", 5, &SchemaElement::num_children>,
            Field<"converted_type", 6, &SchemaElement::converted_type>, Field<"scale", 7, &SchemaElement::scale>,
            Field<"precision", 8, &SchemaElement::precision>, Field<"field_id", 9, &SchemaElement::field_id>,
            Field<"logicalType", 10, &SchemaElement::logical_type>);
PARQ_STRUCT(DataPageHeader, false, Field<"num_values", 1, &DataPageHeader::num_values>,
            Field<"encoding", 2, &DataPageHeader::encoding>,
            Field<"definition_level_encoding", 3, &DataPageHeader::definition_level_encoding>,
            Field<"repetition_level_encoding", 4, &DataPageHeader::repetition_level_encoding>,
            Field<"statistics", 5, &DataPageHeader::statistics>);
PARQ_STRUCT(DictionaryPageHeader, false, Field<"num_values", 1, &DictionaryPageHeader::num_values>,
            Field<"encoding", 2, &DictionaryPageHeader::encoding>,
            Field<"is_sorted", 3, &DictionaryPageHeader::is_sorted>);
PARQ_STRUCT(DataPageHeaderV2, false, Field<"num_values", 1, &DataPageHeaderV2::num_values>,
            Field<"num_nulls", 2, &DataPageHeaderV2::num_nulls>, Field<"num_rows", 3, &DataPageHeaderV2::num_rows>,
            Field<"encoding", 4, &DataPageHeaderV2::encoding>,
            Field<"definition_levels_byte_length", 5, &DataPageHeaderV2::definition_levels_byte_length>,
            Field<"repetition_levels_byte_length", 6, &DataPageHeaderV2::repetition_levels_byte_length>,
            Field<"is_compressed", 7, &DataPageHeaderV2::is_compressed>,
            Field<"statistics", 8, &DataPageHeaderV2::statistics>);
PARQ_STRUCT(BloomFilterAlgorithm, true, Field<"BLOCK", 1, &BloomFilterAlgorithm::BLOCK>);
PARQ_STRUCT(BloomFilterHash, true, Field<"XXHASH", 1, &BloomFilterHash::XXHASH>);
PARQ_STRUCT(BloomFilterCompression, true, Field<"UNCOMPRESSED", 1, &BloomFilterCompression::UNCOMPRESSED>);
PARQ_STRUCT(BloomFilterHeader, false, Field<"numBytes", 1, &BloomFilterHeader::num_bytes>,
            Field<"algorithm", 2, &BloomFilterHeader::algorithm>, Field<"hash", 3, &BloomFilterHeader::hash>,
            Field<"compression", 4, &BloomFilterHeader::compression>);
PARQ_STRUCT(PageHeader, false, Field<"type", 1, &PageHeader::type>,
            Field<"uncompressed_page_size", 2, &PageHeader::uncompressed_page_size>,
            Field<"compressed_page_size", 3, &PageHeader::compressed_page_size>, Field<"crc", 4, &PageHeader::crc>,
            Field<"data_page_header", 5, &PageHeader::data_page_header>,
            Field<"index_page_header", 6, &PageHeader::index_page_header>,
            Field<"dictionary_page_header", 7, &PageHeader::dictionary_page_header>,
            Field<"data_page_header_v2", 8, &PageHeader::data_page_header_v2>);
PARQ_STRUCT(KeyValue, false, Field<"key", 1, &KeyValue::key>, Field<"value", 2, &KeyValue::value>);
PARQ_STRUCT(SortingColumn, false, Field<"column_idx", 1, &SortingColumn::column_idx>,
            Field<"descending", 2, &SortingColumn::descending>, Field<"nulls_first", 3, &SortingColumn::nulls_first>);
PARQ_STRUCT(PageEncodingStats, false, Field<"page_type", 1, &PageEncodingStats::page_type>,
            Field<"encoding", 2, &PageEncodingStats::encoding>, Field<"count", 3, &PageEncodingStats::count>);
PARQ_STRUCT(ColumnMetaData, false, Field<"type", 1, &ColumnMetaData::type>,
            Field<"encodings", 2, &ColumnMetaData::encodings>,
            Field<"path_in_schema", 3, &ColumnMetaData::path_in_schema>, Field<"codec", 4, &ColumnMetaData::codec>,
            Field<"num_values", 5, &ColumnMetaData::num_values>,
            Field<"total_uncompressed_size", 6, &ColumnMetaData::total_uncompressed_size>,
            Field<"total_compressed_size", 7, &ColumnMetaData::total_compressed_size>,
            Field<"key_value_metadata", 8, &ColumnMetaData::key_value_metadata>,
            Field<"data_page_offset", 9, &ColumnMetaData::data_page_offset>,
            Field<"index_page_offset", 10, &ColumnMetaData::index_page_offset>,
            Field<"dictionary_page_offset", 11, &ColumnMetaData::dictionary_page_offset>,
            Field<"statistics", 12, &ColumnMetaData::statistics>,
            Field<"encoding_stats", 13, &ColumnMetaData::encoding_stats>,
            Field<"bloom_filter_offset", 14, &ColumnMetaData::bloom_filter_offset>,
            Field<"bloom_filter_length", 15, &ColumnMetaData::bloom_filter_length>,
            Field<"size_statistics", 16, &ColumnMetaData::size_statistics>,
            Field<"geospatial_statistics", 17, &ColumnMetaData::geospatial_statistics>);
PARQ_STRUCT(EncryptionWithColumnKey, false, Field<"path_in_schema", 1, &EncryptionWithColumnKey::path_in_schema>,
            Field<"key_metadata", 2, &EncryptionWithColumnKey::key_metadata>);
PARQ_STRUCT(ColumnCryptoMetaData, true,
            Field<"ENCRYPTION_WITH_FOOTER_KEY", 1, &ColumnCryptoMetaData::ENCRYPTION_WITH_FOOTER_KEY>,
            Field<"ENCRYPTION_WITH_COLUMN_KEY", 2, &ColumnCryptoMetaData::ENCRYPTION_WITH_COLUMN_KEY>);
PARQ_STRUCT(ColumnChunk, false, Field<"file_path", 1, &ColumnChunk::file_path>,
            Field<"file_offset", 2, &ColumnChunk::file_offset, false>, Field<"meta_data", 3, &ColumnChunk::meta_data>,
            Field<"offset_index_offset", 4, &ColumnChunk::offset_index_offset>,
            Field<"offset_index_length", 5, &ColumnChunk::offset_index_length>,
            Field<"column_index_offset", 6, &ColumnChunk::column_index_offset>,
            Field<"column_index_length", 7, &ColumnChunk::column_index_length>,
            Field<"crypto_metadata", 8, &ColumnChunk::crypto_metadata>,
            Field<"encrypted_column_metadata", 9, &ColumnChunk::encrypted_column_metadata>);
PARQ_STRUCT(RowGroup, false, Field<"columns", 1, &RowGroup::columns>,
            Field<"total_byte_size", 2, &RowGroup::total_byte_size>, Field<"num_rows", 3, &RowGroup::num_rows>,
            Field<"sorting_columns", 4, &RowGroup::sorting_columns>, Field<"file_offset", 5, &RowGroup::file_offset>,
            Field<"total_compressed_size", 6, &RowGroup::total_compressed_size>,
            Field<"ordinal", 7, &RowGroup::ordinal>);
PARQ_STRUCT(ColumnOrder, true, Field<"TYPE_ORDER", 1, &ColumnOrder::TYPE_ORDER>,
            Field<"IEEE_754_TOTAL_ORDER", 2, &ColumnOrder::IEEE_754_TOTAL_ORDER>,
            Field<"INT96_TIMESTAMP_ORDER", 3, &ColumnOrder::INT96_TIMESTAMP_ORDER>);
PARQ_STRUCT(PageLocation, false, Field<"offset", 1, &PageLocation::offset>,
            Field<"compressed_page_size", 2, &PageLocation::compressed_page_size>,
            Field<"first_row_index", 3, &PageLocation::first_row_index>);
PARQ_STRUCT(OffsetIndex, false, Field<"page_locations", 1, &OffsetIndex::page_locations>,
            Field<"unencoded_byte_array_data_bytes", 2, &OffsetIndex::unencoded_byte_array_data_bytes>);
PARQ_STRUCT(ColumnIndex, false, Field<"null_pages", 1, &ColumnIndex::null_pages>,
            Field<"min_values", 2, &ColumnIndex::min_values>, Field<"max_values", 3, &ColumnIndex::max_values>,
            Field<"boundary_order", 4, &ColumnIndex::boundary_order>,
            Field<"null_counts", 5, &ColumnIndex::null_counts>,
            Field<"repetition_level_histograms", 6, &ColumnIndex::repetition_level_histograms>,
            Field<"definition_level_histograms", 7, &ColumnIndex::definition_level_histograms>,
            Field<"nan_counts", 8, &ColumnIndex::nan_counts>);
PARQ_STRUCT(AesGcmV1, false, Field<"aad_prefix", 1, &AesGcmV1::aad_prefix>,
            Field<"aad_file_unique", 2, &AesGcmV1::aad_file_unique>,
            Field<"supply_aad_prefix", 3, &AesGcmV1::supply_aad_prefix>);
PARQ_STRUCT(AesGcmCtrV1, false, Field<"aad_prefix", 1, &AesGcmCtrV1::aad_prefix>,
            Field<"aad_file_unique", 2, &AesGcmCtrV1::aad_file_unique>,
            Field<"supply_aad_prefix", 3, &AesGcmCtrV1::supply_aad_prefix>);
PARQ_STRUCT(EncryptionAlgorithm, true, Field<"AES_GCM_V1", 1, &EncryptionAlgorithm::AES_GCM_V1>,
            Field<"AES_GCM_CTR_V1", 2, &EncryptionAlgorithm::AES_GCM_CTR_V1>);
PARQ_STRUCT(FileMetaData, false, Field<"version", 1, &FileMetaData::version>, Field<"schema", 2, &FileMetaData::schema>,
            Field<"num_rows", 3, &FileMetaData::num_rows>, Field<"row_groups", 4, &FileMetaData::row_groups>,
            Field<"key_value_metadata", 5, &FileMetaData::key_value_metadata>,
            Field<"created_by", 6, &FileMetaData::created_by>, Field<"column_orders", 7, &FileMetaData::column_orders>,
            Field<"encryption_algorithm", 8, &FileMetaData::encryption_algorithm>,
            Field<"footer_signing_key_metadata", 9, &FileMetaData::footer_signing_key_metadata>);
PARQ_STRUCT(FileCryptoMetaData, false, Field<"encryption_algorithm", 1, &FileCryptoMetaData::encryption_algorithm>,
            Field<"key_metadata", 2, &FileCryptoMetaData::key_metadata>);

#undef PARQ_EMPTY
#undef PARQ_STRUCT

}  // namespace parq::thrift

namespace parq::format {

template <class T>
size_t decode_thrift(const uint8_t* data, size_t size, T& out, uint64_t file_offset,
                     const thrift::DecodeLimits& limits) {
  thrift::CompactReader reader(data, size, file_offset, limits);
  thrift::read_struct(reader, out);
  return reader.position();
}

template <class T>
void encode_thrift(const T& value, std::string& out) {
  thrift::CompactWriter writer(out);
  thrift::write_struct(writer, value);
}

#define PARQ_INSTANTIATE(T)                                                                            \
  template size_t decode_thrift<T>(const uint8_t*, size_t, T&, uint64_t, const thrift::DecodeLimits&); \
  template void encode_thrift<T>(const T&, std::string&);

PARQ_INSTANTIATE(FileMetaData)
PARQ_INSTANTIATE(FileCryptoMetaData)
PARQ_INSTANTIATE(PageHeader)
PARQ_INSTANTIATE(ColumnMetaData)
PARQ_INSTANTIATE(ColumnIndex)
PARQ_INSTANTIATE(OffsetIndex)
PARQ_INSTANTIATE(BloomFilterHeader)
PARQ_INSTANTIATE(Statistics)
PARQ_INSTANTIATE(SchemaElement)
PARQ_INSTANTIATE(LogicalType)
PARQ_INSTANTIATE(RowGroup)
PARQ_INSTANTIATE(ColumnChunk)
#undef PARQ_INSTANTIATE

}  // namespace parq::format
