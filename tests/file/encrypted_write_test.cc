// FileWriter with Parquet modular encryption: the written bytes taken apart
// module by module (footer, column metadata, page headers and pages, page
// indexes, bloom filters) with the keys, in every mode; and the values of
// encrypted columns searched for in the bytes, where none may be found.
#include <gtest/gtest.h>
#include <zlib.h>

#include <bit>
#include <cstring>
#include <set>

#include "json_batch.h"
#include "parq/column/bloom_filter.h"
#include "parq/crypto/file_crypto.h"
#include "parq/dataset/dataset_writer.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_reference.h"
#include "parq/file/file_writer.h"
#include "parq/file/footer.h"
#include "parq/file/page_index.h"
#include "parq/filter/expression.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/input.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "test_paths.h"

namespace parq {
namespace {

using crypto::Algorithm;
using crypto::ModuleType;

const std::string kFooterKey = "0123456789abcdef";
const std::string kSecretKey = "secret-key-24-bytes-long";
const std::string kAmountKey = "amount-key-32-bytes-long-1234567";
const std::string kTagsKey = "tags-key-16-byte";

const char* kSchema =
    "message m { required int64 id; optional binary secret (STRING); optional double amount;"
    " optional group tags (LIST) { repeated group list { optional binary element (STRING); } } }";

// A double whose eight bytes would stand out in the file.
constexpr double kAmount = 1234.5678901234567;

std::vector<std::string> rows(int n) {
  std::vector<std::string> out;
  char amount[64];
  std::snprintf(amount, sizeof amount, "%.17g", kAmount);
  for (int i = 0; i < n; ++i)
    out.push_back("{\"id\": " + std::to_string(i) + ", \"secret\": \"SECRET-ALPHA-12345-" + std::to_string(i % 7) +
                  "\", \"amount\": " + (i % 3 == 0 ? std::string(amount) : "null") +
                  ", \"tags\": [\"SECRET-BETA-777\", null]}");
  return out;
}

struct Mode {
  Algorithm algorithm = Algorithm::kAesGcmV1;
  bool encrypted_footer = true;
  bool column_keys = false;  // false: uniform encryption
  std::string name() const {
    return std::string(crypto::to_string(algorithm)) + (encrypted_footer ? " encrypted footer" : " plaintext footer") +
           (column_keys ? " column keys" : " uniform");
  }
};

std::vector<Mode> all_modes() {
  std::vector<Mode> out;
  for (Algorithm a : {Algorithm::kAesGcmV1, Algorithm::kAesGcmCtrV1})
    for (bool footer : {true, false})
      for (bool keys : {false, true}) out.push_back({a, footer, keys});
  return out;
}

crypto::EncryptionOptions encryption_of(const Mode& mode) {
  crypto::EncryptionOptions e;
  e.algorithm = mode.algorithm;
  e.footer_key = kFooterKey;
  e.footer_key_metadata = "footer-key-id";
  e.encrypted_footer = mode.encrypted_footer;
  if (mode.column_keys) {
    e.column_keys["secret"] = {kSecretKey, "secret-key-id"};
    e.column_keys["amount"] = {kAmountKey, ""};
    e.column_keys["tags.list.element"] = {kTagsKey, "tags-key-id"};
  }
  return e;
}

crypto::DecryptionOptions keys_of(const Mode& mode) {
  crypto::DecryptionOptions d;
  d.footer_key = kFooterKey;
  if (mode.column_keys)
    d.column_keys = {{"secret", kSecretKey}, {"amount", kAmountKey}, {"tags.list.element", kTagsKey}};
  return d;
}

// Several row groups of several pages each, every page-level feature on,
// on two threads.
WriteOptions options_of(const Mode& mode) {
  WriteOptions o;
  o.codec = {format::CompressionCodec::UNCOMPRESSED, compression::kDefaultLevel};
  o.row_group_rows = 400;
  o.page_rows = 100;
  o.threads = 2;
  for (const char* c : {"id", "secret", "amount", "tags"}) o.columns[c].bloom_filter = BloomFilterOptions{};
  o.encryption = encryption_of(mode);
  return o;
}

std::string write_file(const WriteOptions& options, int n = 1000) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  const Schema schema = parse_schema_text(kSchema);
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(testing::batch_from_json(schema, rows(n)));
  writer->close();
  return std::string(sink->take().view());
}

std::span<const uint8_t> bytes_of(const std::string& s, size_t at = 0, size_t n = std::string::npos) {
  n = std::min(n, s.size() - at);
  return {reinterpret_cast<const uint8_t*>(s.data()) + at, n};
}

uint32_t load_u32(const std::string& s, size_t at) {
  uint32_t v;
  std::memcpy(&v, s.data() + at, 4);
  return v;
}

template <class T>
T decode(const std::string& bytes) {
  T out;
  EXPECT_EQ(format::decode_thrift(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), out), bytes.size());
  return out;
}

// The file's footer (decrypted when it is encrypted, its signature checked
// when it is not) and a decryptor for its modules.
struct Opened {
  format::FileMetaData footer;
  std::unique_ptr<crypto::FileDecryptor> decryptor;
};

Opened open_file(const std::string& file, const Mode& mode) {
  Opened out;
  const size_t size = file.size();
  const uint32_t length = load_u32(file, size - 8);
  const size_t start = size - 8 - length;
  if (mode.encrypted_footer) {
    EXPECT_EQ(file.substr(0, 4), "PARE");
    EXPECT_EQ(file.substr(size - 4), "PARE");
    format::FileCryptoMetaData crypto;
    const size_t n =
        format::decode_thrift(reinterpret_cast<const uint8_t*>(file.data()) + start, length, crypto, start);
    EXPECT_EQ(crypto.key_metadata, "footer-key-id");
    out.decryptor =
        std::make_unique<crypto::FileDecryptor>(crypto.encryption_algorithm, crypto.key_metadata, keys_of(mode));
    const crypto::ModuleCipher cipher = *out.decryptor->footer_cipher();
    out.footer =
        decode<format::FileMetaData>(cipher.decrypt(ModuleType::kFooter, bytes_of(file, start + n, length - n)));
    EXPECT_FALSE(out.footer.encryption_algorithm);
  } else {
    EXPECT_EQ(file.substr(0, 4), "PAR1");
    EXPECT_EQ(file.substr(size - 4), "PAR1");
    const size_t n = length - crypto::kSignatureSize;
    out.footer = decode<format::FileMetaData>(file.substr(start, n));
    EXPECT_TRUE(out.footer.encryption_algorithm);
    EXPECT_EQ(out.footer.footer_signing_key_metadata, "footer-key-id");
    out.decryptor = std::make_unique<crypto::FileDecryptor>(*out.footer.encryption_algorithm,
                                                            out.footer.footer_signing_key_metadata, keys_of(mode));
    EXPECT_TRUE(out.decryptor->footer_cipher()->verify_footer(bytes_of(file, start, n),
                                                              bytes_of(file, start + n, crypto::kSignatureSize)));
    std::string tampered = file;
    tampered[start + 10] ^= 1;
    EXPECT_FALSE(out.decryptor->footer_cipher()->verify_footer(bytes_of(tampered, start, n),
                                                               bytes_of(file, start + n, crypto::kSignatureSize)));
  }
  EXPECT_EQ(out.decryptor->algorithm(), mode.algorithm);
  return out;
}

uint32_t crc_of(std::span<const uint8_t> bytes) {
  return static_cast<uint32_t>(crc32(0, bytes.data(), static_cast<uInt>(bytes.size())));
}

struct PageWalk {
  int data_pages = 0;
  bool dictionary = false;
  std::vector<format::PageLocation> locations;  // of the data pages
  std::vector<std::string> plain_pages;         // decrypted payloads
};

// Every page of an encrypted chunk: headers and pages decrypt with their
// ordinals, sizes and CRCs describe the stored (encrypted) bytes.
PageWalk walk_pages(const std::string& file, const format::ColumnMetaData& m, const crypto::ModuleCipher& cipher) {
  PageWalk walk;
  int64_t pos = m.dictionary_page_offset.value_or(m.data_page_offset);
  const int64_t end = pos + m.total_compressed_size;
  while (pos < end) {
    const bool dictionary = pos == m.dictionary_page_offset;
    const std::span<const uint8_t> rest = bytes_of(file, static_cast<size_t>(pos), static_cast<size_t>(end - pos));
    const ModuleType header_type = dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
    const int32_t ordinal = dictionary ? -1 : walk.data_pages;
    const size_t header_size = cipher.module_size(header_type, rest);
    const auto header = decode<format::PageHeader>(cipher.decrypt(header_type, rest.first(header_size), ordinal));
    EXPECT_EQ(header.type == format::PageType::DICTIONARY_PAGE, dictionary);
    const std::span<const uint8_t> stored = rest.subspan(header_size, static_cast<size_t>(header.compressed_page_size));
    const ModuleType page_type = dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
    EXPECT_EQ(cipher.module_size(page_type, stored), stored.size());
    EXPECT_EQ(static_cast<uint32_t>(header.crc.value()), crc_of(stored));
    const std::string plain = cipher.decrypt(page_type, stored, ordinal);
    if (m.codec == format::CompressionCodec::UNCOMPRESSED) {
      EXPECT_EQ(plain.size(), static_cast<size_t>(header.uncompressed_page_size));
    }
    walk.plain_pages.push_back(plain);
    if (dictionary) {
      walk.dictionary = true;
    } else {
      walk.locations.push_back({pos, static_cast<int32_t>(header_size + stored.size()), 0});
      ++walk.data_pages;
    }
    pos += static_cast<int64_t>(header_size + stored.size());
  }
  EXPECT_EQ(pos, end);
  return walk;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string amount_bytes() {
  const uint64_t bits = std::bit_cast<uint64_t>(kAmount);
  return std::string(reinterpret_cast<const char*>(&bits), 8);
}

TEST(EncryptedWrite, EveryModuleDecryptsWhereTheFooterSays) {
  for (const Mode& mode : all_modes()) {
    SCOPED_TRACE(mode.name());
    for (int page_version : {1, 2}) {
      WriteOptions options = options_of(mode);
      options.page_version = page_version;
      const std::string file = write_file(options);
      Opened opened = open_file(file, mode);
      const format::FileMetaData& footer = opened.footer;
      ASSERT_EQ(footer.row_groups.size(), 3u);
      EXPECT_EQ(footer.num_rows, 1000);
      for (size_t g = 0; g < footer.row_groups.size(); ++g) {
        const format::RowGroup& group = footer.row_groups[g];
        EXPECT_EQ(group.ordinal, static_cast<int16_t>(g));
        for (size_t c = 0; c < group.columns.size(); ++c) {
          SCOPED_TRACE("row group " + std::to_string(g) + ", column " + std::to_string(c));
          const format::ColumnChunk& chunk = group.columns[c];
          const bool encrypted = !mode.column_keys || c != 0;
          ASSERT_EQ(chunk.crypto_metadata.has_value(), encrypted);
          const crypto::ModuleCipher cipher = opened.decryptor->column_cipher(footer, g, c);
          ASSERT_EQ(cipher.valid(), encrypted);
          if (!encrypted) {
            EXPECT_TRUE(chunk.meta_data && chunk.meta_data->statistics);
            EXPECT_FALSE(chunk.encrypted_column_metadata);
            continue;
          }
          EXPECT_EQ(chunk.crypto_metadata->ENCRYPTION_WITH_COLUMN_KEY.has_value(), mode.column_keys);
          // The metadata: sealed on its own unless the encrypted footer
          // already seals it with the same key.
          const bool sealed = !mode.encrypted_footer || mode.column_keys;
          ASSERT_EQ(chunk.encrypted_column_metadata.has_value(), sealed);
          EXPECT_EQ(chunk.meta_data.has_value(), !(mode.encrypted_footer && mode.column_keys));
          format::ColumnMetaData m;
          if (sealed) {
            m = decode<format::ColumnMetaData>(
                cipher.decrypt(ModuleType::kColumnMetaData, bytes_of(*chunk.encrypted_column_metadata)));
          } else {
            m = *chunk.meta_data;
          }
          if (chunk.meta_data && sealed) {
            // What readers without the key see: where the chunk is, not
            // what it holds.
            EXPECT_FALSE(chunk.meta_data->statistics);
            EXPECT_FALSE(chunk.meta_data->encoding_stats);
            EXPECT_FALSE(chunk.meta_data->size_statistics);
            EXPECT_EQ(chunk.meta_data->data_page_offset, m.data_page_offset);
            EXPECT_EQ(chunk.meta_data->total_compressed_size, m.total_compressed_size);
          }
          ASSERT_TRUE(m.statistics);
          if (c == 1) {
            EXPECT_EQ(m.statistics->min_value, "SECRET-ALPHA-12345-0");
          }
          if (c == 2) {
            EXPECT_EQ(m.statistics->max_value, amount_bytes());
          }

          const PageWalk walk = walk_pages(file, m, cipher);
          EXPECT_TRUE(walk.dictionary);
          EXPECT_EQ(walk.data_pages, g + 1 < footer.row_groups.size() ? 4 : 2);  // 100 rows a page

          ASSERT_TRUE(chunk.offset_index_offset && chunk.column_index_offset);
          const auto offsets = decode<format::OffsetIndex>(cipher.decrypt(
              ModuleType::kOffsetIndex,
              bytes_of(file, static_cast<size_t>(*chunk.offset_index_offset), *chunk.offset_index_length)));
          ASSERT_EQ(offsets.page_locations.size(), walk.locations.size());
          for (size_t p = 0; p < walk.locations.size(); ++p) {
            EXPECT_EQ(offsets.page_locations[p].offset, walk.locations[p].offset);
            EXPECT_EQ(offsets.page_locations[p].compressed_page_size, walk.locations[p].compressed_page_size);
          }
          const auto index = decode<format::ColumnIndex>(cipher.decrypt(
              ModuleType::kColumnIndex,
              bytes_of(file, static_cast<size_t>(*chunk.column_index_offset), *chunk.column_index_length)));
          ASSERT_EQ(index.null_pages.size(), walk.locations.size());
          if (c == 1) {
            EXPECT_EQ(index.min_values[0], "SECRET-ALPHA-12345-0");
          }

          // The bloom filter: a header module, then a bitset module.
          ASSERT_TRUE(m.bloom_filter_offset && m.bloom_filter_length);
          const std::span<const uint8_t> filter =
              bytes_of(file, static_cast<size_t>(*m.bloom_filter_offset), static_cast<size_t>(*m.bloom_filter_length));
          const size_t header_size = cipher.module_size(ModuleType::kBloomFilterHeader, filter);
          const std::span<const uint8_t> bitset = filter.subspan(header_size);
          EXPECT_EQ(cipher.module_size(ModuleType::kBloomFilterBitset, bitset), bitset.size());
          std::string plain = cipher.decrypt(ModuleType::kBloomFilterHeader, filter.first(header_size));
          plain += cipher.decrypt(ModuleType::kBloomFilterBitset, bitset);
          const BloomFilter bloom = BloomFilter::read(bytes_of(plain));
          if (c == 1) {
            EXPECT_TRUE(bloom.might_contain(BloomFilter::hash(std::string_view("SECRET-ALPHA-12345-3"))));
          }
          if (c == 2) {
            EXPECT_TRUE(bloom.might_contain(BloomFilter::hash(kAmount)));
          }
        }
      }
    }
  }
}

TEST(EncryptedWrite, NothingOfAnEncryptedColumnIsInTheClear) {
  for (const Mode& mode : all_modes()) {
    SCOPED_TRACE(mode.name());
    for (int page_version : {1, 2}) {
      for (bool dictionary : {true, false}) {
        WriteOptions options = options_of(mode);
        options.page_version = page_version;
        options.dictionary = dictionary;
        const std::string file = write_file(options);
        EXPECT_FALSE(contains(file, "SECRET-ALPHA")) << page_version << dictionary;
        EXPECT_FALSE(contains(file, "SECRET-BETA")) << page_version << dictionary;
        EXPECT_FALSE(contains(file, amount_bytes())) << page_version << dictionary;
      }
    }
  }
}

TEST(EncryptedWrite, PlaintextColumnsAreFoundInTheSameFiles) {
  // The search above finds what is there: with only `id` encrypted, the
  // other columns' values (pages, dictionary, statistics) are stored.
  for (bool encrypted_footer : {true, false}) {
    WriteOptions options = options_of({Algorithm::kAesGcmV1, encrypted_footer, true});
    options.encryption->column_keys = {{"id", {kSecretKey, ""}}};
    const std::string file = write_file(options);
    EXPECT_TRUE(contains(file, "SECRET-ALPHA-12345-"));
    EXPECT_TRUE(contains(file, "SECRET-BETA"));
    EXPECT_TRUE(contains(file, amount_bytes()));
  }
  WriteOptions plain = options_of({});
  plain.encryption.reset();
  const std::string file = write_file(plain);
  EXPECT_EQ(file.substr(file.size() - 4), "PAR1");
  EXPECT_TRUE(contains(file, "SECRET-ALPHA-12345-"));
}

TEST(EncryptedWrite, AadPrefixStoredOrSupplied) {
  for (bool store : {true, false}) {
    Mode mode{Algorithm::kAesGcmCtrV1, true, true};
    WriteOptions options = options_of(mode);
    options.encryption->aad_prefix = "table-7";
    options.encryption->store_aad_prefix = store;
    const std::string file = write_file(options, 50);
    const size_t start = file.size() - 8 - load_u32(file, file.size() - 8);
    const size_t length = file.size() - 8 - start;
    format::FileCryptoMetaData crypto;
    const size_t n =
        format::decode_thrift(reinterpret_cast<const uint8_t*>(file.data()) + start, length, crypto, start);
    ASSERT_TRUE(crypto.encryption_algorithm.AES_GCM_CTR_V1);
    const format::AesGcmCtrV1& a = *crypto.encryption_algorithm.AES_GCM_CTR_V1;
    EXPECT_EQ(a.aad_prefix.has_value(), store);
    EXPECT_EQ(a.supply_aad_prefix.value_or(false), !store);
    if (store) {
      EXPECT_EQ(open_file(file, mode).footer.num_rows, 50);
    } else {
      EXPECT_THROW(open_file(file, mode), Error);  // the prefix is not in the file
    }
    crypto::DecryptionOptions keys = keys_of(mode);
    keys.aad_prefix = "table-7";
    crypto::FileDecryptor decryptor(crypto.encryption_algorithm, crypto.key_metadata, keys);
    const auto footer = decode<format::FileMetaData>(
        decryptor.footer_cipher()->decrypt(ModuleType::kFooter, bytes_of(file, start + n, length - n)));
    EXPECT_EQ(footer.num_rows, 50);
    // Another prefix is another AAD: nothing authenticates.
    keys.aad_prefix = "table-8";
    if (store) {
      EXPECT_THROW(crypto::FileDecryptor(crypto.encryption_algorithm, crypto.key_metadata, keys), Error);
    } else {
      crypto::FileDecryptor wrong(crypto.encryption_algorithm, crypto.key_metadata, keys);
      EXPECT_THROW(wrong.footer_cipher()->decrypt(ModuleType::kFooter, bytes_of(file, start + n, length - n)), Error);
    }
  }
}

TEST(EncryptedWrite, KeysForColumnsTheSchemaLacksAreRefused) {
  WriteOptions options = options_of({Algorithm::kAesGcmV1, true, true});
  options.encryption->column_keys["nope"] = {kSecretKey, ""};
  try {
    write_file(options, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos);
  }
  // A group's path is not a leaf's.
  options = options_of({Algorithm::kAesGcmV1, true, true});
  options.encryption->column_keys["tags"] = {kSecretKey, ""};
  EXPECT_THROW(write_file(options, 1), Error);
  options = options_of({});
  options.encryption->footer_key = "short";
  EXPECT_THROW(write_file(options, 1), Error);
}

TEST(EncryptedWrite, EveryFileOfADatasetHasItsOwnAad) {
  testing::TempDir dir("encrypted-dataset");
  DatasetWriteOptions options;
  options.write = options_of({Algorithm::kAesGcmV1, false, true});
  options.max_rows_per_file = 300;
  const Schema schema = parse_schema_text(kSchema);
  auto writer = DatasetWriter::open(dir.str(), schema, options);
  writer->write(testing::batch_from_json(schema, rows(900)));
  writer->close();
  ASSERT_EQ(writer->files().size(), 3u);
  std::set<std::string> unique;
  for (const std::string& path : writer->files()) {
    auto input = io::open_file(path);
    const file::Footer footer = file::read_footer(*input);  // a plaintext footer opens without keys
    ASSERT_TRUE(footer.metadata.encryption_algorithm && footer.metadata.encryption_algorithm->AES_GCM_V1);
    unique.insert(footer.metadata.encryption_algorithm->AES_GCM_V1->aad_file_unique.value());
  }
  EXPECT_EQ(unique.size(), 3u);

  DatasetWriteOptions summary = options;
  summary.write_summary = true;
  EXPECT_THROW(DatasetWriter::open(dir / "other", schema, summary), Error);
}

// ---- read back through FileReader ----

ReaderOptions with(crypto::DecryptionOptions keys) {
  ReaderOptions options;
  options.footer.decryption = std::move(keys);
  return options;
}

std::string rows_of(const FileReader& file, ReadOptions options = {}) {
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

std::string expected_rows(int n) {
  const RecordBatch batch = testing::batch_from_json(parse_schema_text(kSchema), rows(n));
  std::string out;
  text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

std::unique_ptr<FileReader> open_bytes(const std::string& bytes, const ReaderOptions& options) {
  return FileReader::open(io::memory_input(bytes_of(bytes)), options);
}

TEST(EncryptedWrite, ReadsBackInEveryMode) {
  const std::string expected = expected_rows(1000);
  for (const Mode& mode : all_modes()) {
    for (int page_version : {1, 2}) {
      for (bool dictionary : {true, false}) {
        SCOPED_TRACE(mode.name() + ", v" + std::to_string(page_version) + (dictionary ? ", dictionary" : ""));
        WriteOptions options = options_of(mode);
        options.codec = {format::CompressionCodec::SNAPPY, compression::kDefaultLevel};
        options.page_version = page_version;
        options.dictionary = dictionary;
        const std::string bytes = write_file(options);
        auto file = open_bytes(bytes, with(keys_of(mode)));
        ASSERT_EQ(file->metadata().row_groups.size(), 3u);
        EXPECT_EQ(rows_of(*file), expected);
        ReadOptions threaded;
        threaded.threads = 3;
        EXPECT_EQ(rows_of(*file, threaded), expected);

        for (size_t g = 0; g < 3; ++g) {
          for (size_t c = 0; c < 4; ++c) {
            std::optional<PageIndex> index = read_page_index(*file, g, c);
            ASSERT_TRUE(index && index->column_index && index->offset_index);
            EXPECT_EQ(index->num_pages(), g < 2 ? 4u : 2u);
          }
          std::optional<BloomFilter> bloom = read_bloom_filter(*file, g, 1);
          ASSERT_TRUE(bloom);
          EXPECT_TRUE(bloom->might_contain(BloomFilter::hash(std::string_view("SECRET-ALPHA-12345-3"))));
        }

        // The page index prunes pages (id is encrypted in uniform mode),
        // the dictionary or bloom filter whole row groups.
        ReadOptions filtered;
        ReadStats stats;
        filtered.stats = &stats;
        filtered.filter = filter::parse_filter("id = 650");
        EXPECT_EQ(rows_of(*file, filtered),
                  "{\"id\":650,\"secret\":\"SECRET-ALPHA-12345-6\",\"amount\":null,"
                  "\"tags\":[\"SECRET-BETA-777\",null]}\n");
        EXPECT_EQ(stats.row_groups_pruned_by_statistics, 2) << stats.to_string();
        EXPECT_EQ(stats.pages_pruned_by_index, 3) << stats.to_string();
        stats = {};
        filtered.filter = filter::parse_filter("secret = 'SECRET-ALPHA-12345-3x'");
        EXPECT_EQ(rows_of(*file, filtered), "");
        EXPECT_EQ(stats.row_groups_pruned_by_dictionary + stats.row_groups_pruned_by_bloom_filter, 3)
            << stats.to_string();
      }
    }
  }
}

TEST(EncryptedWrite, PlaintextFooterOpensWithoutKeysForThePlaintextColumns) {
  const std::string bytes = write_file(options_of({Algorithm::kAesGcmCtrV1, false, true}));
  auto file = open_bytes(bytes, {});
  ReadOptions id_only;
  id_only.columns = {"id"};
  std::string ids = rows_of(*file, id_only);
  EXPECT_EQ(ids.substr(0, 18), "{\"id\":0}\n{\"id\":1}\n");
  ReadOptions secret;
  secret.columns = {"secret"};
  EXPECT_THROW(rows_of(*file, secret), Error);
  // Its bloom filter is encrypted too: without keys, an error naming it.
  try {
    read_bloom_filter(*file, 0, 1);
    ADD_FAILURE() << "an encrypted bloom filter read without keys";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
    EXPECT_EQ(e.location().column, "secret") << e.what();
    EXPECT_NE(std::string(e.what()).find("no keys were given"), std::string::npos) << e.what();
  }
  // Only the key of the column read is needed.
  crypto::DecryptionOptions some;
  some.column_keys = {{"secret", kSecretKey}};
  some.verify_footer_signature = false;  // its key is not given
  auto keyed = open_bytes(bytes, with(some));
  EXPECT_EQ(rows_of(*keyed, secret).substr(0, 34), "{\"secret\":\"SECRET-ALPHA-12345-0\"}\n");
}

TEST(EncryptedWrite, WrongKeysAndPrefixesDoNotRead) {
  for (const Mode& mode : all_modes()) {
    SCOPED_TRACE(mode.name());
    WriteOptions options = options_of(mode);
    options.encryption->aad_prefix = "table-7";
    options.encryption->store_aad_prefix = false;
    const std::string bytes = write_file(options, 100);
    crypto::DecryptionOptions keys = keys_of(mode);
    keys.aad_prefix = "table-7";
    EXPECT_EQ(rows_of(*open_bytes(bytes, with(keys))), expected_rows(100));
    keys.aad_prefix = "table-8";
    EXPECT_THROW(rows_of(*open_bytes(bytes, with(keys))), Error);
    keys = keys_of(mode);
    keys.aad_prefix = "table-7";
    keys.footer_key = "fedcba9876543210";
    EXPECT_THROW(rows_of(*open_bytes(bytes, with(keys))), Error);
  }
}

TEST(EncryptedWrite, SelfReferencesOfAFileGroupReadBack) {
  // Appended bytes are stored as given; the references to them, in an
  // encrypted FILE group, are encrypted like any column.
  const char* schema_text =
      "message m { required int64 id; optional group f (FILE) { optional int64 offset; optional int64 size; } }";
  const Schema schema = parse_schema_text(schema_text);
  for (const Mode& mode : {Mode{Algorithm::kAesGcmV1, true, false}, Mode{Algorithm::kAesGcmCtrV1, false, false}}) {
    SCOPED_TRACE(mode.name());
    WriteOptions options;
    options.encryption = encryption_of(mode);
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), schema, options);
    const std::string blob = "blob bytes";
    const int64_t at = writer->append_bytes(blob);
    writer->write(testing::batch_from_json(
        schema, {"{\"id\": 1, \"f\": {\"offset\": " + std::to_string(at) + ", \"size\": 10}}"}));
    writer->close();
    const std::string bytes(sink->take().view());
    auto input = io::memory_input(bytes_of(bytes));
    auto file = open_bytes(bytes, with(keys_of(mode)));
    auto source = read_batches(*file);
    RecordBatch batch;
    ASSERT_TRUE(source->next(batch));
    const auto refs = file_references(batch.columns[1]);
    ASSERT_EQ(refs.size(), 1u);
    ASSERT_TRUE(refs[0]);
    ReferenceSources sources;
    sources.this_file = input.get();
    EXPECT_EQ(read_referenced_bytes(*refs[0], sources), blob);
  }
}

}  // namespace
}  // namespace parq
