// Reading the encrypted files of the shared corpus (parquet-cpp and
// parquet-mr writers, 128- and 256-bit keys, both algorithms, encrypted and
// plaintext footers, stored and supplied AAD prefixes) with the keys its
// README documents, and what wrong keys, missing keys and altered bytes do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "../rows_text.h"
#include "../test_paths.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/page_index.h"
#include "parq/filter/expression.h"
#include "parq/io/input.h"
#include "parq/keys/key_tools.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

using testing::corpus_dir;
using ::testing::HasSubstr;
using testing::rows_of;

std::string data(const std::string& name) { return (corpus_dir() / "data" / name).string(); }

crypto::DecryptionOptions keys_128() {
  crypto::DecryptionOptions k;
  k.footer_key = "0123456789012345";
  k.column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
  return k;
}

crypto::DecryptionOptions keys_256() {
  crypto::DecryptionOptions k;
  k.footer_key = "01234567890123456789012345678901";
  const std::string stem = "123456789012345678901234567890";
  k.column_keys = {{"double_field", stem + "12"},
                   {"float_field", stem + "13"},
                   {"boolean_field", stem + "14"},
                   {"int32_field", stem + "15"},
                   {"ba_field", stem + "16"},
                   {"flba_field", stem + "17"},
                   {"int64_field.list.element", stem + "18"},
                   {"int96_field", stem + "19"}};
  return k;
}

ReaderOptions with(crypto::DecryptionOptions keys) {
  ReaderOptions options;
  options.footer.decryption = std::move(keys);
  return options;
}

Error caught(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error("none");
}

// The writers' generated values: row i holds i in int32_field (as a time
// of i ms), i * 1.1f and i * 1.1111111 in the floating columns, and a
// boolean that alternates.
void expect_generated_values(const FileReader& file) {
  ReadOptions options;
  options.columns = {"boolean_field", "int32_field", "float_field", "double_field"};
  auto source = read_batches(file, options);
  RecordBatch batch;
  int64_t row = 0;
  while (source->next(batch)) {
    const Array& b = batch.columns[0];
    const Array& i32 = batch.columns[1];
    const Array& f = batch.columns[2];
    const Array& d = batch.columns[3];
    for (int64_t r = 0; r < batch.num_rows; ++r, ++row) {
      EXPECT_EQ((b.values.data()[r >> 3] >> (r & 7) & 1) != 0, row % 2 == 0) << row;
      EXPECT_EQ(i32.values.data_as<int32_t>()[r], row) << row;
      EXPECT_EQ(f.values.data_as<float>()[r], static_cast<float>(row) * 1.1f) << row;
      EXPECT_NEAR(d.values.data_as<double>()[r], static_cast<double>(row) * 1.1111111, 1e-9) << row;
    }
  }
  EXPECT_EQ(row, 50);
}

TEST(EncryptedRead, EveryCorpusFileReadsToTheSameRowsWithItsKeys) {
  const std::vector<std::string> files_128 = {"encrypt_columns_and_footer.parquet.encrypted",
                                              "encrypt_columns_and_footer_aad.parquet.encrypted",
                                              "encrypt_columns_and_footer_ctr.parquet.encrypted",
                                              "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                                              "encrypt_columns_plaintext_footer.parquet.encrypted",
                                              "uniform_encryption.parquet.encrypted"};
  const std::vector<std::string> files_256 = {
      "aes256/encrypt_columns_and_footer.parquet.encrypted", "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted",
      "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
      "aes256/encrypt_columns_plaintext_footer.parquet.encrypted", "aes256/uniform_encryption.parquet.encrypted"};
  for (const auto* set : {&files_128, &files_256}) {
    std::string first;
    for (const std::string& name : *set) {
      SCOPED_TRACE(name);
      crypto::DecryptionOptions keys = set == &files_128 ? keys_128() : keys_256();
      if (name.find("disable_aad_storage") != std::string::npos) keys.aad_prefix = "tester";
      auto file = FileReader::open(data(name), with(keys));
      EXPECT_EQ(file->metadata().num_rows, 50);
      expect_generated_values(*file);
      const std::string rows = rows_of(*file);
      EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 50);
      if (first.empty()) first = rows;
      EXPECT_EQ(rows, first);
    }
  }
}

TEST(EncryptedRead, AlgorithmsAndFootersAreWhatTheFilesSay) {
  auto ctr = FileReader::open(data("encrypt_columns_and_footer_ctr.parquet.encrypted"), with(keys_128()));
  ASSERT_TRUE(ctr->footer().decryptor);
  EXPECT_EQ(ctr->footer().decryptor->algorithm(), crypto::Algorithm::kAesGcmCtrV1);
  EXPECT_TRUE(ctr->footer().encrypted_footer);
  auto plain = FileReader::open(data("encrypt_columns_plaintext_footer.parquet.encrypted"), with(keys_128()));
  EXPECT_FALSE(plain->footer().encrypted_footer);
  EXPECT_TRUE(plain->footer().signature_verified);
  auto aad = FileReader::open(data("encrypt_columns_and_footer_aad.parquet.encrypted"), with(keys_128()));
  EXPECT_EQ(aad->footer().decryptor->aad_prefix(), "tester");
  // The decrypted column metadata has the statistics the footer hides.
  const auto& chunk = plain->metadata().row_groups[0].columns[5];
  ASSERT_TRUE(chunk.meta_data && chunk.meta_data->statistics);
  EXPECT_TRUE(chunk.meta_data->statistics->min_value.has_value());
}

TEST(EncryptedRead, PlaintextColumnsNeedNoColumnKeysAndEncryptedOnesFailOnlyWhenRead) {
  crypto::DecryptionOptions footer_only;
  footer_only.footer_key = "0123456789012345";
  for (const char* name :
       {"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    auto file = FileReader::open(data(name), with(footer_only));
    ReadOptions plain_columns;
    plain_columns.columns = {"int32_field", "ba_field"};
    const std::string rows = rows_of(*file, plain_columns);
    EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 50);
    for (const char* secret : {"double_field", "float_field"}) {
      ReadOptions options;
      options.columns = {secret};
      Error e = caught([&] { rows_of(*file, options); });
      EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
      EXPECT_EQ(e.location().column, secret) << e.what();
    }
  }
  // Without any key, a plaintext footer still opens for its plaintext
  // columns, as legacy readers read it.
  auto legacy = FileReader::open(data("encrypt_columns_plaintext_footer.parquet.encrypted"));
  ReadOptions options;
  options.columns = {"int32_field"};
  EXPECT_FALSE(rows_of(*legacy, options).empty());
  EXPECT_EQ(caught([&] { FileReader::open(data("uniform_encryption.parquet.encrypted")); }).kind(),
            ErrorKind::kUnsupported);
}

// An encrypted footer with only column keys given; an encrypted column's
// page index read without keys (its bloom filter: encrypted_write_test).
TEST(EncryptedRead, WhatCannotBeDecryptedWithoutItsKeyIsNamed) {
  crypto::DecryptionOptions columns_only = keys_128();
  columns_only.footer_key.clear();
  Error footer =
      caught([&] { FileReader::open(data("encrypt_columns_and_footer.parquet.encrypted"), with(columns_only)); });
  EXPECT_EQ(footer.kind(), ErrorKind::kUnsupported);
  EXPECT_THAT(footer.what(), HasSubstr("the encrypted footer needs the footer key"));

  auto legacy = FileReader::open(data("encrypt_columns_plaintext_footer.parquet.encrypted"));
  const size_t double_field = 5;
  ASSERT_TRUE(legacy->metadata().row_groups[0].columns[double_field].crypto_metadata);
  Error index = caught([&] { read_page_index(*legacy, 0, double_field); });
  EXPECT_EQ(index.kind(), ErrorKind::kUnsupported) << index.what();
  EXPECT_EQ(index.location().column, "double_field") << index.what();
  EXPECT_THAT(index.what(), HasSubstr("no keys were given"));
}

TEST(EncryptedRead, WrongKeysAndPrefixesAreNamed) {
  crypto::DecryptionOptions wrong_footer = keys_128();
  wrong_footer.footer_key = "1234567890123450";
  Error footer =
      caught([&] { FileReader::open(data("encrypt_columns_and_footer.parquet.encrypted"), with(wrong_footer)); });
  EXPECT_EQ(footer.kind(), ErrorKind::kCorrupt);
  EXPECT_THAT(footer.what(), HasSubstr("the footer does not authenticate"));
  Error signature =
      caught([&] { FileReader::open(data("encrypt_columns_plaintext_footer.parquet.encrypted"), with(wrong_footer)); });
  EXPECT_THAT(signature.what(), HasSubstr("signature does not verify"));

  crypto::DecryptionOptions wrong_column = keys_128();
  wrong_column.column_keys["double_field"] = "1234567890123451";
  Error column =
      caught([&] { FileReader::open(data("encrypt_columns_and_footer.parquet.encrypted"), with(wrong_column)); });
  EXPECT_EQ(column.location().column, "double_field") << column.what();
  EXPECT_THAT(column.what(), HasSubstr("column metadata does not authenticate"));

  crypto::DecryptionOptions short_key = keys_128();
  short_key.footer_key = "0123";
  EXPECT_THAT(caught([&] { FileReader::open(data("uniform_encryption.parquet.encrypted"), with(short_key)); }).what(),
              HasSubstr("16, 24 or 32 bytes"));

  const std::string no_prefix = data("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  Error missing = caught([&] { FileReader::open(no_prefix, with(keys_128())); });
  EXPECT_EQ(missing.kind(), ErrorKind::kInvalidArgument);
  EXPECT_THAT(missing.what(), HasSubstr("must supply it"));
  crypto::DecryptionOptions wrong_prefix = keys_128();
  wrong_prefix.aad_prefix = "tester2";
  EXPECT_THAT(caught([&] { FileReader::open(no_prefix, with(wrong_prefix)); }).what(),
              HasSubstr("does not authenticate"));
  EXPECT_THAT(caught([&] {
                FileReader::open(data("encrypt_columns_and_footer_aad.parquet.encrypted"), with(wrong_prefix));
              }).what(),
              HasSubstr("is not the one the file stores"));
}

// Every byte of an encrypted GCM column's pages flipped in turn: each read
// fails with an error naming the column (never wrong rows), and so does
// every byte of the plaintext footer.
TEST(EncryptedRead, AlteredBytesAreDetected) {
  const std::vector<uint8_t> original =
      testing::read_file_bytes(data("encrypt_columns_plaintext_footer.parquet.encrypted"));
  auto file = FileReader::open(data("encrypt_columns_plaintext_footer.parquet.encrypted"), with(keys_128()));
  const auto& md = *file->metadata().row_groups[0].columns[5].meta_data;  // double_field
  const uint64_t begin = static_cast<uint64_t>(md.dictionary_page_offset.value_or(md.data_page_offset));
  const uint64_t end = begin + static_cast<uint64_t>(md.total_compressed_size);
  int detected = 0, tried = 0;
  for (uint64_t at = begin; at < end; at += 7) {
    std::vector<uint8_t> bytes = original;
    bytes[at] ^= 0x10;
    ++tried;
    try {
      auto altered = FileReader::open(io::buffer_input(bytes, "altered"), with(keys_128()));
      ReadOptions options;
      options.columns = {"double_field"};
      rows_of(*altered, options);
    } catch (const Error& e) {
      ++detected;
      EXPECT_EQ(e.location().column, "double_field") << e.what();
    }
  }
  EXPECT_EQ(detected, tried);
  const uint32_t footer_length = original[original.size() - 8] | original[original.size() - 7] << 8;
  int footer_detected = 0, footer_tried = 0;
  for (uint64_t at = original.size() - 8 - footer_length; at < original.size() - 8; at += 11) {
    std::vector<uint8_t> bytes = original;
    bytes[at] ^= 0x01;
    ++footer_tried;
    try {
      auto altered = FileReader::open(io::buffer_input(bytes, "altered"), with(keys_128()));
    } catch (const Error&) {
      ++footer_detected;
    }
  }
  EXPECT_EQ(footer_detected, footer_tried);
}

TEST(EncryptedRead, PageIndexesAndBloomFiltersOfEncryptedColumnsDecryptAndPrune) {
  crypto::DecryptionOptions keys = keys_128();
  auto file = FileReader::open(data("encrypt_columns_and_footer_bloom_filter.parquet.encrypted"), with(keys));
  const size_t double_field = 0;
  ASSERT_TRUE(file->metadata().row_groups[0].columns[double_field].crypto_metadata);
  std::optional<BloomFilter> bloom = read_bloom_filter(*file, 0, double_field);
  ASSERT_TRUE(bloom);
  int present = 0, absent = 0;
  for (int i = 0; i < 2000; ++i) present += bloom->might_contain(BloomFilter::hash(0.5 + i));
  for (int i = 0; i < 2000; ++i) absent += !bloom->might_contain(BloomFilter::hash(0.25 + i * 3.0 + 7000));
  EXPECT_EQ(present, 2000);
  EXPECT_GT(absent, 1900);
  std::optional<PageIndex> index = read_page_index(*file, 0, double_field);
  ASSERT_TRUE(index && index->column_index && index->offset_index);
  EXPECT_GT(index->num_pages(), 0u);

  ReadOptions options;
  options.filter = filter::parse_filter("double_field = 1.5");
  EXPECT_EQ(rows_of(*file, options),
            "{\"double_field\":1.5,\"float_field\":1.25,\"int32_field\":1,\"name\":\"name_1\"}\n");
  ReadStats stats;
  options.filter = filter::parse_filter("double_field = 7000.5");
  options.stats = &stats;
  EXPECT_EQ(rows_of(*file, options), "");
  EXPECT_EQ(stats.row_groups_pruned_by_statistics + stats.row_groups_pruned_by_bloom_filter, 1) << stats.to_string();
}

}  // namespace
}  // namespace parq

namespace parq {
namespace {

// parquet-java's file with external key material (PKMT1, double wrapping):
// keys come from _KEY_MATERIAL_FOR_<file>.json beside it, unwrapped by the
// in-memory KMS that holds the master keys.
TEST(EncryptedRead, ExternalKeyMaterialOfParquetJavaUnwrapsThroughTheKms) {
  auto kms = std::make_shared<keys::InMemoryKms>(std::map<std::string, std::string>{
      {"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}});
  ReaderOptions options;
  options.footer.decryption.file_key_retriever = [kms](const std::string& file) {
    return keys::make_key_retriever(kms, file);
  };
  auto file = FileReader::open(data("external_key_material_java.parquet.encrypted"), options);
  ASSERT_EQ(file->metadata().num_rows, 100);
  std::string expected;
  for (int i = 0; i < 100; ++i)
    expected += "{\"integers\":" + std::to_string(i) + ",\"strings\":\"" +
                std::string(1, static_cast<char>('a' + i % 10)) + std::to_string(i) + "\"}\n";
  EXPECT_EQ(rows_of(*file), expected);
  // Another master key for the columns: the footer opens, the columns do
  // not, and the error names the column.
  auto wrong = std::make_shared<keys::InMemoryKms>(std::map<std::string, std::string>{
      {"kf", "0123456789012345"}, {"kc1", "0000000000000000"}, {"kc2", "1234567890123451"}});
  options.footer.decryption.file_key_retriever = [wrong](const std::string& f) {
    return keys::make_key_retriever(wrong, f);
  };
  auto partly = FileReader::open(data("external_key_material_java.parquet.encrypted"), options);
  ReadOptions integers;
  integers.columns = {"integers"};
  ReadOptions strings;
  strings.columns = {"strings"};
  // Which of the two master keys wraps which column is the file's choice:
  // one column fails, naming itself and the master key; the other reads.
  std::vector<std::string> failures;
  for (const ReadOptions* read : {&integers, &strings}) {
    try {
      EXPECT_EQ(rows_of(*partly, *read).size() > 0, true);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
      EXPECT_EQ(e.location().column, read->columns[0]) << e.what();
      failures.push_back(e.what());
    }
  }
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_THAT(failures[0], HasSubstr("kc1"));
}

}  // namespace
}  // namespace parq
