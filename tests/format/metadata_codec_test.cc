// Metadata structures through the compact protocol: a footer with every
// structure populated, the page-level structures, and every footer of the
// shared corpus (decode -> encode -> decode gives equal structures).
#include "parq/format/metadata_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "parq/error.h"
#include "test_paths.h"

namespace parq::format {
namespace {

using ::testing::HasSubstr;

template <class T>
T round_trip(const T& v) {
  std::string bytes;
  encode_thrift(v, bytes);
  T back{};
  size_t used = decode_thrift(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), back);
  EXPECT_EQ(used, bytes.size());
  return back;
}

Statistics full_statistics() {
  Statistics s;
  s.max = std::string("\x09\x00\x00\x00", 4);
  s.min = std::string("\x01\x00\x00\x00", 4);
  s.null_count = 3;
  s.distinct_count = 7;
  s.max_value = "zz";
  s.min_value = "aa";
  s.is_max_value_exact = false;
  s.is_min_value_exact = true;
  s.nan_count = 2;
  return s;
}

std::vector<SchemaElement> every_logical_type_schema() {
  std::vector<SchemaElement> schema;
  SchemaElement root;
  root.name = "schema";
  schema.push_back(root);
  auto leaf = [&](const char* name, Type t, LogicalType lt) {
    SchemaElement e;
    e.name = name;
    e.type = t;
    e.repetition_type = FieldRepetitionType::OPTIONAL;
    e.logical_type = lt;
    e.field_id = static_cast<int32_t>(schema.size());
    schema.push_back(e);
  };
  LogicalType lt;
  lt.STRING.emplace();
  leaf("s", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.ENUM.emplace();
  leaf("e", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.DECIMAL = DecimalType{2, 10};
  leaf("d", Type::INT64, lt);
  lt = {};
  lt.DATE.emplace();
  leaf("date", Type::INT32, lt);
  lt = {};
  lt.TIME = TimeType{true, TimeUnit{std::nullopt, MicroSeconds{}, std::nullopt}};
  leaf("time", Type::INT64, lt);
  lt = {};
  lt.TIMESTAMP = TimestampType{false, TimeUnit{std::nullopt, std::nullopt, NanoSeconds{}}};
  leaf("ts", Type::INT64, lt);
  lt = {};
  lt.INTEGER = IntType{16, false};
  leaf("u16", Type::INT32, lt);
  lt = {};
  lt.UNKNOWN.emplace();
  leaf("null", Type::INT32, lt);
  lt = {};
  lt.JSON.emplace();
  leaf("json", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.BSON.emplace();
  leaf("bson", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.UUID.emplace();
  leaf("uuid", Type::FIXED_LEN_BYTE_ARRAY, lt);
  schema.back().type_length = 16;
  lt = {};
  lt.FLOAT16.emplace();
  leaf("f16", Type::FIXED_LEN_BYTE_ARRAY, lt);
  schema.back().type_length = 2;
  lt = {};
  lt.VARIANT = VariantType{1};
  leaf("variant", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.GEOMETRY = GeometryType{"OGC:CRS84"};
  leaf("geom", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.GEOGRAPHY = GeographyType{std::nullopt, EdgeInterpolationAlgorithm::KARNEY};
  leaf("geog", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.FILE.emplace();
  leaf("file", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.MAP.emplace();
  leaf("map", Type::BYTE_ARRAY, lt);
  lt = {};
  lt.LIST.emplace();
  leaf("list", Type::BYTE_ARRAY, lt);
  schema.back().converted_type = ConvertedType::LIST;
  schema.back().scale = 1;
  schema.back().precision = 5;
  schema[0].num_children = static_cast<int32_t>(schema.size() - 1);
  return schema;
}

FileMetaData full_file_metadata() {
  FileMetaData md;
  md.version = 2;
  md.schema = every_logical_type_schema();
  md.num_rows = 1234567890123;
  RowGroup rg;
  ColumnChunk cc;
  cc.file_path = "part-0.parquet";
  cc.file_offset = 4;
  ColumnMetaData cmd;
  cmd.type = Type::BYTE_ARRAY;
  cmd.encodings = {Encoding::PLAIN, Encoding::RLE_DICTIONARY, Encoding::BYTE_STREAM_SPLIT,
                   static_cast<Encoding>(99)};  // an encoding from the future survives
  cmd.path_in_schema = {"a", "b.c", "d"};
  cmd.codec = CompressionCodec::ZSTD;
  cmd.num_values = 10;
  cmd.total_uncompressed_size = 1000;
  cmd.total_compressed_size = 500;
  cmd.key_value_metadata = std::vector<KeyValue>{{"k", "v"}, {"nullvalue", std::nullopt}};
  cmd.data_page_offset = 100;
  cmd.index_page_offset = 90;
  cmd.dictionary_page_offset = 4;
  cmd.statistics = full_statistics();
  cmd.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                      {PageType::DATA_PAGE_V2, Encoding::RLE_DICTIONARY, 3}};
  cmd.bloom_filter_offset = 2000;
  cmd.bloom_filter_length = 64;
  cmd.size_statistics = SizeStatistics{77, std::vector<int64_t>{1, 2}, std::vector<int64_t>{3, 4, 5}};
  cmd.geospatial_statistics =
      GeospatialStatistics{BoundingBox{-1, 1, -2, 2, 0.5, 1.5, std::nullopt, 9}, std::vector<int32_t>{1, 3, 1003}};
  cc.meta_data = cmd;
  cc.offset_index_offset = 3000;
  cc.offset_index_length = 30;
  cc.column_index_offset = 3100;
  cc.column_index_length = 31;
  EncryptionWithColumnKey key;
  key.path_in_schema = {"a"};
  key.key_metadata = "kc1";
  cc.crypto_metadata = ColumnCryptoMetaData{std::nullopt, key};
  cc.encrypted_column_metadata = std::string("\x00\x01\x02", 3);
  rg.columns = {cc, cc};
  rg.columns[1].crypto_metadata = ColumnCryptoMetaData{EncryptionWithFooterKey{}, std::nullopt};
  rg.total_byte_size = 999;
  rg.num_rows = 10;
  rg.sorting_columns = std::vector<SortingColumn>{{0, true, false}, {1, false, true}};
  rg.file_offset = 4;
  rg.total_compressed_size = 500;
  rg.ordinal = 0;
  md.row_groups = {rg, rg};
  md.row_groups[1].ordinal = 1;
  md.key_value_metadata = std::vector<KeyValue>{{"ARROW:schema", std::string(300, 'x')}};
  md.created_by = "parq version 0.1.0";
  md.column_orders = std::vector<ColumnOrder>{{TypeDefinedOrder{}, std::nullopt, std::nullopt},
                                              {std::nullopt, IEEE754TotalOrder{}, std::nullopt},
                                              {std::nullopt, std::nullopt, Int96TimestampOrder{}}};
  md.encryption_algorithm = EncryptionAlgorithm{AesGcmV1{"prefix", "unique", true}, std::nullopt};
  md.footer_signing_key_metadata = "kf";
  return md;
}

TEST(MetadataCodec, FullFileMetaDataRoundTrips) {
  FileMetaData md = full_file_metadata();
  EXPECT_EQ(round_trip(md), md);
}

TEST(MetadataCodec, PageHeadersRoundTrip) {
  PageHeader v1;
  v1.type = PageType::DATA_PAGE;
  v1.uncompressed_page_size = 100;
  v1.compressed_page_size = 80;
  v1.crc = -12345;
  v1.data_page_header = DataPageHeader{10, Encoding::PLAIN, Encoding::RLE, Encoding::BIT_PACKED, full_statistics()};
  EXPECT_EQ(round_trip(v1), v1);

  PageHeader v2;
  v2.type = PageType::DATA_PAGE_V2;
  v2.data_page_header_v2 = DataPageHeaderV2{10, 2, 5, Encoding::DELTA_BINARY_PACKED, 3, 4, false, full_statistics()};
  EXPECT_EQ(round_trip(v2), v2);

  PageHeader dict;
  dict.type = PageType::DICTIONARY_PAGE;
  dict.dictionary_page_header = DictionaryPageHeader{7, Encoding::PLAIN_DICTIONARY, true};
  EXPECT_EQ(round_trip(dict), dict);

  PageHeader index;
  index.type = PageType::INDEX_PAGE;
  index.index_page_header = IndexPageHeader{};
  EXPECT_EQ(round_trip(index), index);
}

TEST(MetadataCodec, PageIndexAndBloomHeadersRoundTrip) {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "c"};
  ci.max_values = {"b", "", "d"};
  ci.boundary_order = BoundaryOrder::ASCENDING;
  ci.null_counts = std::vector<int64_t>{0, 5, 1};
  ci.repetition_level_histograms = std::vector<int64_t>{1, 2, 3, 4, 5, 6};
  ci.definition_level_histograms = std::vector<int64_t>{6, 5, 4, 3, 2, 1};
  ci.nan_counts = std::vector<int64_t>{0, 0, 0};
  EXPECT_EQ(round_trip(ci), ci);

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 90, 50}};
  oi.unencoded_byte_array_data_bytes = std::vector<int64_t>{10, 20};
  EXPECT_EQ(round_trip(oi), oi);

  BloomFilterHeader bf;
  bf.num_bytes = 1024;
  bf.algorithm.BLOCK.emplace();
  bf.hash.XXHASH.emplace();
  bf.compression.UNCOMPRESSED.emplace();
  EXPECT_EQ(round_trip(bf), bf);

  FileCryptoMetaData fc;
  fc.encryption_algorithm.AES_GCM_CTR_V1 = AesGcmCtrV1{std::nullopt, "u", false};
  fc.key_metadata = "kf";
  EXPECT_EQ(round_trip(fc), fc);
}

TEST(MetadataCodec, BloomFilterHeaderMatchesSpecBytes) {
  // numBytes=32 (i32 zigzag 64), then three unions each holding an empty struct.
  BloomFilterHeader bf;
  bf.num_bytes = 32;
  bf.algorithm.BLOCK.emplace();
  bf.hash.XXHASH.emplace();
  bf.compression.UNCOMPRESSED.emplace();
  std::string bytes;
  encode_thrift(bf, bytes);
  EXPECT_EQ(bytes, std::string("\x15\x40\x1c\x1c\x00\x00\x1c\x1c\x00\x00\x1c\x1c\x00\x00\x00", 15));
}

TEST(MetadataCodec, MissingRequiredFieldIsAnError) {
  PageHeader h;
  std::string bytes;
  encode_thrift(h, bytes);
  // Drop compressed_page_size (field 3, the third header byte pair).
  ASSERT_EQ(bytes.substr(0, 2), std::string("\x15\x00", 2));
  std::string cut = bytes.substr(0, 4) + bytes.substr(6);
  PageHeader back;
  try {
    decode_thrift(reinterpret_cast<const uint8_t*>(cut.data()), cut.size(), back, 100);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("PageHeader: required field 'compressed_page_size' is missing"));
  }
}

TEST(MetadataCodec, TruncationAnywhereIsACleanError) {
  FileMetaData md = full_file_metadata();
  std::string bytes;
  encode_thrift(md, bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    FileMetaData back;
    EXPECT_THROW(decode_thrift(reinterpret_cast<const uint8_t*>(bytes.data()), n, back), Error) << n;
  }
}

TEST(MetadataCodec, EveryCorpusFooterRoundTrips) {
  size_t decoded = 0, plaintext_encrypted = 0;
  for (const auto& path : parq::testing::parquet_files(parq::testing::corpus_dir())) {
    auto b = parq::testing::read_file_bytes(path);
    if (b.size() < 12 || std::memcmp(b.data() + b.size() - 4, "PAR1", 4) != 0) continue;  // PARE: encrypted footer
    uint32_t len;
    std::memcpy(&len, b.data() + b.size() - 8, 4);
    ASSERT_LE(len, b.size() - 12) << path;
    const uint8_t* footer = b.data() + b.size() - 8 - len;
    FileMetaData md;
    try {
      decode_thrift(footer, len, md);
    } catch (const Error& e) {
      // Only the deliberately corrupt files may fail, and they must fail cleanly.
      EXPECT_NE(path.string().find("bad_data"), std::string::npos) << path << ": " << e.what();
      continue;
    }
    ++decoded;
    if (md.encryption_algorithm) ++plaintext_encrypted;
    FileMetaData again = round_trip(md);
    EXPECT_EQ(again, md) << path;
  }
  // 180 Parquet files, of which 11 have an encrypted (PARE) footer.
  EXPECT_GE(decoded, 160u);
  EXPECT_GE(plaintext_encrypted, 2u);
}

}  // namespace
}  // namespace parq::format
