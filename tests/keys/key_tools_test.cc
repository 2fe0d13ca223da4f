// Key management: parquet-java's external key material unwraps here and its
// file's footer and columns decrypt with the keys; our own key material
// round-trips through single and double wrapping, internal and external
// storage and master key rotation; configs and material that are wrong
// fail with errors that say what is wrong.
#include "parq/keys/key_tools.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "parq/crypto/file_crypto.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"
#include "parq/text/json_text.h"
#include "test_paths.h"
#include "util/base64.h"

namespace parq::keys {
namespace {

const std::string kJavaFile = "external_key_material_java.parquet.encrypted";

std::string java_file() { return (testing::corpus_dir() / "data" / kJavaFile).string(); }

std::map<std::string, std::string> java_master_keys() {
  return {{"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};
}

// Counts the KMS calls that reach the wrapped KMS.
class CountingKms : public KmsClient {
 public:
  explicit CountingKms(std::shared_ptr<KmsClient> kms) : kms_(std::move(kms)) {}
  std::string wrap_key(const std::string& key, const std::string& id) override {
    ++wraps;
    return kms_->wrap_key(key, id);
  }
  std::string unwrap_key(const std::string& wrapped, const std::string& id) override {
    ++unwraps;
    return kms_->unwrap_key(wrapped, id);
  }
  std::atomic<int> wraps{0};
  std::atomic<int> unwraps{0};

 private:
  std::shared_ptr<KmsClient> kms_;
};

// Matches a callable that throws parq::Error of `kind` whose message holds
// `fragment`.
auto throws(ErrorKind kind, const std::string& fragment = "") {
  using ::testing::ResultOf;
  return ::testing::Throws<Error>(::testing::AllOf(
      ResultOf(
          "kind", [](const Error& e) { return e.kind(); }, kind),
      ResultOf(
          "what()", [](const Error& e) { return std::string(e.what()); }, ::testing::HasSubstr(fragment))));
}

EncryptionConfig column_config(bool double_wrapping, bool internal) {
  EncryptionConfig c;
  c.footer_key_id = "kf";
  c.column_keys = {{"kc1", {"a", "b.c"}}, {"kc2", {"d"}}};
  c.double_wrapping = double_wrapping;
  c.internal_key_material = internal;
  return c;
}

// --- parquet-java's external key material --------------------------------

TEST(KeyToolsJava, UnwrapsEveryKeyOfParquetJavaExternalMaterial) {
  const std::map<std::string, std::string> material = read_key_material(java_file());
  ASSERT_EQ(material.size(), 3u);
  ASSERT_TRUE(material.count("footerKey"));
  ASSERT_TRUE(material.count("columnKey0"));
  ASSERT_TRUE(material.count("columnKey1"));
  auto retriever = make_key_retriever(std::make_shared<InMemoryKms>(java_master_keys()), java_file());
  std::set<std::string> deks;
  for (const auto& [reference, text] : material) {
    const std::string dek = retriever(KeyMetadata::serialize_external(reference));
    EXPECT_EQ(dek.size(), 16u) << reference;
    deks.insert(dek);
  }
  EXPECT_EQ(deks.size(), 3u);  // three distinct data keys
}

TEST(KeyToolsJava, ExternalKeyMetadataIsByteForByteParquetJavas) {
  // The file's footer key metadata (in its plaintext FileCryptoMetaData).
  const std::vector<uint8_t> bytes = testing::read_file_bytes(java_file());
  const std::string file(bytes.begin(), bytes.end());
  EXPECT_NE(file.find(KeyMetadata::serialize_external("footerKey")), std::string::npos);
  EXPECT_EQ(KeyMetadata::serialize_external("footerKey"),
            R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"})");
}

TEST(KeyToolsJava, ParsesParquetJavaKeyMaterialFields) {
  const auto material = read_key_material(java_file());
  const KeyMaterial footer = KeyMaterial::parse(material.at("footerKey"));
  EXPECT_TRUE(footer.is_footer_key);
  EXPECT_EQ(footer.kms_instance_id, "DEFAULT");
  EXPECT_EQ(footer.kms_instance_url, "DEFAULT");
  EXPECT_EQ(footer.master_key_id, "kf");
  EXPECT_TRUE(footer.double_wrapping);
  EXPECT_EQ(footer.kek_id, "NFkiTmDXYzZMTb+O3b9nSA==");
  const KeyMaterial c1 = KeyMaterial::parse(material.at("columnKey1"));
  EXPECT_FALSE(c1.is_footer_key);
  EXPECT_EQ(c1.master_key_id, "kc2");
  EXPECT_TRUE(c1.kms_instance_id.empty());
}

TEST(KeyToolsJava, ParquetJavaFileFooterAndColumnsDecryptWithRetrievedKeys) {
  const std::vector<uint8_t> bytes = testing::read_file_bytes(java_file());
  ASSERT_GT(bytes.size(), 12u);
  ASSERT_EQ(std::string(bytes.end() - 4, bytes.end()), "PARE");
  uint32_t tail = 0;
  std::memcpy(&tail, bytes.data() + bytes.size() - 8, 4);
  ASSERT_LE(tail, bytes.size() - 12);
  const uint8_t* region = bytes.data() + bytes.size() - 8 - tail;
  format::FileCryptoMetaData crypto_metadata;
  const size_t header = format::decode_thrift(region, tail, crypto_metadata);
  ASSERT_TRUE(crypto_metadata.key_metadata.has_value());

  crypto::DecryptionOptions options;
  options.key_retriever = make_key_retriever(std::make_shared<InMemoryKms>(java_master_keys()), java_file());
  const crypto::FileDecryptor decryptor(crypto_metadata.encryption_algorithm, crypto_metadata.key_metadata,
                                        std::move(options));
  std::string why;
  const std::optional<crypto::ModuleCipher> footer_cipher = decryptor.footer_cipher(&why);
  ASSERT_TRUE(footer_cipher.has_value()) << why;
  const std::string footer =
      footer_cipher->decrypt(crypto::ModuleType::kFooter, std::span<const uint8_t>(region + header, tail - header));
  format::FileMetaData metadata;
  format::decode_thrift(reinterpret_cast<const uint8_t*>(footer.data()), footer.size(), metadata);
  ASSERT_FALSE(metadata.row_groups.empty());
  size_t column_keyed = 0;
  for (size_t c = 0; c < metadata.row_groups[0].columns.size(); ++c) {
    const auto cipher = decryptor.find_column_cipher(metadata, 0, c, &why);
    ASSERT_TRUE(cipher.has_value()) << "column " << c << ": " << why;
    const auto& meta = metadata.row_groups[0].columns[c].crypto_metadata;
    if (meta && meta->ENCRYPTION_WITH_COLUMN_KEY) ++column_keyed;
  }
  EXPECT_EQ(column_keyed, 2u);  // columnKey0 and columnKey1
}

TEST(KeyToolsJava, WrongMasterKeyFailsGcmAuthenticationClearly) {
  auto keys = java_master_keys();
  keys["kf"] = "0123456789012346";
  auto retriever = make_key_retriever(std::make_shared<InMemoryKms>(keys), java_file());
  const auto footer = [&] { retriever(KeyMetadata::serialize_external("footerKey")); };
  EXPECT_THAT(footer, throws(ErrorKind::kCorrupt, "does not authenticate (AES-GCM)"));
  EXPECT_THAT(footer, throws(ErrorKind::kCorrupt, "master key 'kf'"));
  // The column keys, under the right master keys, still unwrap.
  EXPECT_EQ(retriever(KeyMetadata::serialize_external("columnKey0")).size(), 16u);
}

TEST(KeyToolsJava, MissingMasterKeyIsUnsupportedAndNamed) {
  auto keys = java_master_keys();
  keys.erase("kc2");
  auto retriever = make_key_retriever(std::make_shared<InMemoryKms>(keys), java_file());
  EXPECT_THAT([&] { retriever(KeyMetadata::serialize_external("columnKey1")); },
              throws(ErrorKind::kUnsupported, "no master key 'kc2'"));
}

TEST(KeyToolsJava, UnknownKeyReferenceAndMissingMaterialFileFail) {
  auto kms = std::make_shared<InMemoryKms>(java_master_keys());
  auto retriever = make_key_retriever(kms, java_file());
  EXPECT_THAT([&] { retriever(KeyMetadata::serialize_external("columnKey7")); },
              throws(ErrorKind::kCorrupt, "columnKey7"));

  testing::TempDir dir("keys");
  auto lost = make_key_retriever(kms, dir / "lost.parquet");
  EXPECT_THAT([&] { lost(KeyMetadata::serialize_external("footerKey")); },
              throws(ErrorKind::kIo, "_KEY_MATERIAL_FOR_lost.parquet.json"));

  auto no_path = make_key_retriever(kms);
  EXPECT_THAT([&] { no_path(KeyMetadata::serialize_external("footerKey")); }, throws(ErrorKind::kInvalidArgument));
  auto remote = make_key_retriever(kms, "s3://bucket/f.parquet");
  EXPECT_THAT([&] { remote(KeyMetadata::serialize_external("footerKey")); }, throws(ErrorKind::kUnsupported));
}

// --- Round trips -----------------------------------------------------------

struct Mode {
  bool double_wrapping;
  bool internal;
};

class KeyRoundTrip : public ::testing::TestWithParam<Mode> {};

TEST_P(KeyRoundTrip, EveryKeyUnwrapsToTheDataKey) {
  const Mode mode = GetParam();
  auto kms = std::make_shared<InMemoryKms>(java_master_keys());
  CryptoFactory factory(column_config(mode.double_wrapping, mode.internal), kms);
  const FileEncryption file = factory.file_encryption();
  const crypto::EncryptionOptions& o = file.options;
  EXPECT_EQ(o.footer_key.size(), 16u);
  ASSERT_EQ(o.column_keys.size(), 3u);
  EXPECT_TRUE(o.encrypted_footer);
  EXPECT_EQ(file.external_key_material.empty(), mode.internal);

  testing::TempDir dir("keys");
  const std::string path = dir / "data.parquet";
  // External material appears only once committed.
  EXPECT_FALSE(std::filesystem::exists(key_material_path(path)));
  file.commit(path);
  EXPECT_EQ(std::filesystem::exists(key_material_path(path)), !mode.internal);

  const KeyMetadata footer = KeyMetadata::parse(o.footer_key_metadata);
  EXPECT_EQ(footer.internal_storage, mode.internal);
  if (mode.internal) {
    EXPECT_EQ(footer.material.double_wrapping, mode.double_wrapping);
    EXPECT_EQ(footer.material.master_key_id, "kf");
    EXPECT_TRUE(footer.material.is_footer_key);
    EXPECT_EQ(footer.material.kms_instance_id, "DEFAULT");
  } else {
    EXPECT_EQ(footer.key_reference, "footerKey");
    EXPECT_EQ(read_key_material(path), file.external_key_material);
  }

  auto retriever = make_key_retriever(kms, path);
  EXPECT_EQ(retriever(o.footer_key_metadata), o.footer_key);
  for (const auto& [column, key] : o.column_keys) EXPECT_EQ(retriever(key.key_metadata), key.key) << column;

  // Another KMS holding other master keys under the same ids cannot.
  auto other =
      make_key_retriever(std::make_shared<InMemoryKms>(std::map<std::string, std::string>{
                             {"kf", "abcdefghijklmnop"}, {"kc1", "abcdefghijklmnop"}, {"kc2", "abcdefghijklmnop"}}),
                         path);
  EXPECT_THROW(other(o.footer_key_metadata), Error);
}

TEST_P(KeyRoundTrip, KeysWorkThroughTheFileEncryptorAndDecryptor) {
  const Mode mode = GetParam();
  auto kms = std::make_shared<InMemoryKms>(java_master_keys());
  const FileEncryption file = CryptoFactory(column_config(mode.double_wrapping, mode.internal), kms).file_encryption();
  testing::TempDir dir("keys");
  const std::string path = dir / "data.parquet";
  file.commit(path);

  const crypto::FileEncryptor encryptor(file.options);
  const std::string plain = "a footer's bytes";
  std::string module;
  encryptor.footer_cipher().encrypt(crypto::ModuleType::kFooter,
                                    {reinterpret_cast<const uint8_t*>(plain.data()), plain.size()}, module);
  crypto::DecryptionOptions options;
  options.key_retriever = make_key_retriever(kms, path);
  const crypto::FileDecryptor decryptor(encryptor.algorithm(), file.options.footer_key_metadata, std::move(options));
  std::string why;
  const auto cipher = decryptor.footer_cipher(&why);
  ASSERT_TRUE(cipher.has_value()) << why;
  EXPECT_EQ(
      cipher->decrypt(crypto::ModuleType::kFooter, {reinterpret_cast<const uint8_t*>(module.data()), module.size()}),
      plain);
}

INSTANTIATE_TEST_SUITE_P(Modes, KeyRoundTrip,
                         ::testing::Values(Mode{true, true}, Mode{true, false}, Mode{false, true}, Mode{false, false}),
                         [](const auto& info) {
                           return std::string(info.param.double_wrapping ? "Double" : "Single") +
                                  (info.param.internal ? "Internal" : "External");
                         });

TEST(KeyTools, UniformEncryptionHasOnlyAFooterKey) {
  EncryptionConfig c;
  c.uniform_key_id = "kf";
  c.data_key_length_bits = 256;
  c.plaintext_footer = true;
  c.algorithm = crypto::Algorithm::kAesGcmCtrV1;
  c.aad_prefix = "tbl";
  c.store_aad_prefix = false;
  auto kms = std::make_shared<InMemoryKms>(java_master_keys());
  const FileEncryption file = CryptoFactory(c, kms).file_encryption();
  EXPECT_TRUE(file.options.column_keys.empty());
  EXPECT_EQ(file.options.footer_key.size(), 32u);
  EXPECT_FALSE(file.options.encrypted_footer);
  EXPECT_EQ(file.options.algorithm, crypto::Algorithm::kAesGcmCtrV1);
  EXPECT_EQ(file.options.aad_prefix, "tbl");
  EXPECT_FALSE(file.options.store_aad_prefix);
  EXPECT_EQ(KeyMetadata::parse(file.options.footer_key_metadata).material.master_key_id, "kf");
  EXPECT_EQ(make_key_retriever(kms)(file.options.footer_key_metadata), file.options.footer_key);
}

TEST(KeyTools, DoubleWrappingMakesOneKekPerMasterKeyAcrossFiles) {
  auto counting = std::make_shared<CountingKms>(std::make_shared<InMemoryKms>(java_master_keys()));
  CryptoFactory factory(column_config(true, true), counting);
  const FileEncryption f1 = factory.file_encryption();
  const FileEncryption f2 = factory.file_encryption();
  EXPECT_EQ(counting->wraps.load(), 3);  // kf, kc1, kc2: one KEK each, for both files
  const auto kek_of = [](const std::string& metadata) { return KeyMetadata::parse(metadata).material.kek_id; };
  EXPECT_EQ(kek_of(f1.options.column_keys.at("a").key_metadata), kek_of(f1.options.column_keys.at("b.c").key_metadata));
  EXPECT_NE(kek_of(f1.options.column_keys.at("a").key_metadata), kek_of(f1.options.column_keys.at("d").key_metadata));
  EXPECT_EQ(kek_of(f1.options.footer_key_metadata), kek_of(f2.options.footer_key_metadata));
  EXPECT_NE(f1.options.footer_key, f2.options.footer_key);  // fresh data keys per file
  EXPECT_EQ(base64_decode(kek_of(f1.options.footer_key_metadata))->size(), 16u);

  // The reader unwraps each KEK once.
  auto retriever = make_key_retriever(counting);
  for (const auto& [column, key] : f1.options.column_keys) EXPECT_EQ(retriever(key.key_metadata), key.key);
  EXPECT_EQ(retriever(f1.options.footer_key_metadata), f1.options.footer_key);
  EXPECT_EQ(counting->unwraps.load(), 3);
}

TEST(KeyTools, SingleWrappingCallsTheKmsPerKey) {
  auto counting = std::make_shared<CountingKms>(std::make_shared<InMemoryKms>(java_master_keys()));
  const FileEncryption f = CryptoFactory(column_config(false, true), counting).file_encryption();
  EXPECT_EQ(counting->wraps.load(), 4);
  const KeyMaterial m = KeyMetadata::parse(f.options.column_keys.at("d").key_metadata).material;
  EXPECT_FALSE(m.double_wrapping);
  EXPECT_TRUE(m.kek_id.empty());
  EXPECT_EQ(m.master_key_id, "kc2");
  // The KMS's own wrapping: the master key id is the AAD.
  EXPECT_EQ(unwrap_key_locally(m.wrapped_dek, "1234567890123451", "kc2"), f.options.column_keys.at("d").key);
  EXPECT_THROW(unwrap_key_locally(m.wrapped_dek, "1234567890123451", "kc1"), Error);
}

TEST(KeyTools, NonJsonKeyMetadataIsLeftUnknown) {
  auto retriever = make_key_retriever(std::make_shared<InMemoryKms>(java_master_keys()));
  EXPECT_EQ(retriever("kf"), "");
  EXPECT_EQ(retriever(""), "");
  EXPECT_THAT([&] { retriever(R"({"keyMaterialType":"PKMT2","internalStorage":true})"); }, throws(ErrorKind::kCorrupt));
}

// --- Key material text ------------------------------------------------------

TEST(KeyMaterialText, SerializesParquetJavaFieldNames) {
  KeyMaterial m;
  m.is_footer_key = true;
  m.kms_instance_id = "DEFAULT";
  m.kms_instance_url = "DEFAULT";
  m.master_key_id = "kf";
  m.wrapped_dek = "AAAA";
  m.double_wrapping = true;
  m.kek_id = "BBBB";
  m.wrapped_kek = "CCCC";
  EXPECT_EQ(m.serialize(true),
            R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,"kmsInstanceID":"DEFAULT",)"
            R"("kmsInstanceURL":"DEFAULT","masterKeyID":"kf","wrappedDEK":"AAAA","doubleWrapping":true,)"
            R"("keyEncryptionKeyID":"BBBB","wrappedKEK":"CCCC"})");
  m.is_footer_key = false;
  m.double_wrapping = false;
  EXPECT_EQ(m.serialize(false),
            R"({"keyMaterialType":"PKMT1","isFooterKey":false,"masterKeyID":"kf","wrappedDEK":"AAAA",)"
            R"("doubleWrapping":false})");
  const KeyMetadata back = KeyMetadata::parse(m.serialize(true));
  EXPECT_TRUE(back.internal_storage);
  EXPECT_EQ(back.material.master_key_id, "kf");
  EXPECT_FALSE(back.material.double_wrapping);
}

TEST(KeyMaterialText, MalformedMaterialNamesWhatIsWrong) {
  const auto material = [](std::string_view json) { return [json] { KeyMaterial::parse(json); }; };
  EXPECT_THAT(material("[]"), throws(ErrorKind::kCorrupt, "not a JSON object"));
  EXPECT_THAT(material("{"), throws(ErrorKind::kCorrupt, "not JSON"));
  EXPECT_THAT(material(R"({"keyMaterialType":"X"})"), throws(ErrorKind::kCorrupt, "PKMT1"));
  EXPECT_THAT(material(R"({"keyMaterialType":"PKMT1","isFooterKey":false})"),
              throws(ErrorKind::kCorrupt, "masterKeyID"));
  EXPECT_THAT(material(R"({"keyMaterialType":"PKMT1","isFooterKey":"no"})"),
              throws(ErrorKind::kCorrupt, "not a boolean"));
  EXPECT_THAT(material(R"({"keyMaterialType":"PKMT1","isFooterKey":false,"masterKeyID":"k","wrappedDEK":"A",)"
                       R"("doubleWrapping":true})"),
              throws(ErrorKind::kCorrupt, "keyEncryptionKeyID"));
  EXPECT_THAT([] { KeyMaterial::parse("{}"); }, throws(ErrorKind::kCorrupt));
  EXPECT_THAT([] { KeyMetadata::parse(R"({"keyMaterialType":"PKMT1","internalStorage":false})"); },
              throws(ErrorKind::kCorrupt, "keyReference"));
}

TEST(KeyMaterialText, KeyMaterialPathSitsBesideTheDataFile) {
  EXPECT_EQ(key_material_path("/d/x/f.parquet"), "/d/x/_KEY_MATERIAL_FOR_f.parquet.json");
  EXPECT_EQ(key_material_path("f.parquet"), "_KEY_MATERIAL_FOR_f.parquet.json");
}

TEST(KeyMaterialText, Base64DecodesWhatAppendBase64Encodes) {
  std::string bytes;
  for (int n = 0; n < 20; ++n) {
    std::string quoted;
    text::append_base64(quoted, bytes);
    const auto back = base64_decode(std::string_view(quoted).substr(1, quoted.size() - 2));
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, bytes);
    bytes.push_back(static_cast<char>(n * 37 + 200));
  }
  EXPECT_FALSE(base64_decode("abc"));
  EXPECT_FALSE(base64_decode("ab=c"));
  EXPECT_FALSE(base64_decode("a==="));
  EXPECT_FALSE(base64_decode("ab.d"));
  EXPECT_FALSE(base64_decode("QR=="));  // non-zero bits after the last byte
  EXPECT_EQ(base64_decode("QQ=="), "A");
}

// --- Rotation ---------------------------------------------------------------

TEST(KeyRotation, RewrapsExternalMaterialWithNewMasterKeys) {
  for (const bool double_wrapping : {true, false}) {
    SCOPED_TRACE(double_wrapping ? "double" : "single");
    auto old_ptr = std::make_shared<InMemoryKms>(java_master_keys());
    auto new_ptr = std::make_shared<InMemoryKms>(std::map<std::string, std::string>{
        {"kf", "ABCDEFGHIJKLMNOP"}, {"kc1", "BCDEFGHIJKLMNOPQ"}, {"kc2", "CDEFGHIJKLMNOPQR"}});
    const FileEncryption file = CryptoFactory(column_config(double_wrapping, false), old_ptr).file_encryption();
    testing::TempDir dir("keys");
    const std::string path = dir / "data.parquet";
    file.commit(path);
    const auto before = read_key_material(path);

    rotate_master_keys(path, *old_ptr, *new_ptr);
    const auto after = read_key_material(path);
    ASSERT_EQ(after.size(), before.size());
    for (const auto& [reference, text] : after) {
      EXPECT_NE(text, before.at(reference)) << reference;
      const KeyMaterial was = KeyMaterial::parse(before.at(reference));
      const KeyMaterial now = KeyMaterial::parse(text);
      EXPECT_EQ(now.master_key_id, was.master_key_id);
      EXPECT_EQ(now.is_footer_key, was.is_footer_key);
      EXPECT_EQ(now.double_wrapping, double_wrapping);
    }
    // No temporary left behind.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files += entry.is_regular_file();
    EXPECT_EQ(files, 1u);

    auto stale = make_key_retriever(old_ptr, path);
    EXPECT_THROW(stale(file.options.footer_key_metadata), Error);
    EXPECT_THROW(stale(file.options.column_keys.at("d").key_metadata), Error);
    auto fresh = make_key_retriever(new_ptr, path);
    EXPECT_EQ(fresh(file.options.footer_key_metadata), file.options.footer_key);
    for (const auto& [column, key] : file.options.column_keys) EXPECT_EQ(fresh(key.key_metadata), key.key) << column;
  }
}

TEST(KeyRotation, RefusesInternalKeyMaterial) {
  InMemoryKms kms(java_master_keys());
  testing::TempDir dir("keys");
  const std::string path = dir / "data.parquet";
  const FileEncryption file =
      CryptoFactory(column_config(true, true), std::make_shared<InMemoryKms>(java_master_keys())).file_encryption();
  file.commit(path);
  EXPECT_THAT([&] { rotate_master_keys(path, kms, kms); }, throws(ErrorKind::kInvalidArgument, "not inside it"));
}

TEST(KeyRotation, ParquetJavaMaterialRotatesInACopy) {
  testing::TempDir dir("keys");
  const std::string path = dir / kJavaFile;
  std::filesystem::copy_file(key_material_path(java_file()), key_material_path(path));
  InMemoryKms old_kms(java_master_keys());
  InMemoryKms new_kms({{"kf", std::string(32, 'f')}, {"kc1", std::string(24, '1')}, {"kc2", std::string(16, '2')}});
  auto before = make_key_retriever(std::make_shared<InMemoryKms>(java_master_keys()), path);
  const std::string footer_key = before(KeyMetadata::serialize_external("footerKey"));
  rotate_master_keys(path, old_kms, new_kms);
  auto after = make_key_retriever(
      std::make_shared<InMemoryKms>(std::map<std::string, std::string>{
          {"kf", std::string(32, 'f')}, {"kc1", std::string(24, '1')}, {"kc2", std::string(16, '2')}}),
      path);
  EXPECT_EQ(after(KeyMetadata::serialize_external("footerKey")), footer_key);
  EXPECT_EQ(after(KeyMetadata::serialize_external("columnKey1")).size(), 16u);
}

// --- Configs ----------------------------------------------------------------

TEST(KmsConfigKeys, ParsesHexMasterKeys) {
  const auto keys = parse_kms_config(R"({"kf": "30313233343536373839303132333435", "kc1": )"
                                     R"("000102030405060708090a0b0c0d0e0f1011121314151617"})");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys.at("kf"), "0123456789012345");
  EXPECT_EQ(keys.at("kc1").size(), 24u);
  EXPECT_EQ(keys.at("kc1")[10], '\x0a');
}

TEST(KmsConfigKeys, BadConfigsSayWhatIsWrong) {
  const auto config = [](std::string_view json) { return [json] { parse_kms_config(json); }; };
  EXPECT_THAT(config(R"(["kf"])"), throws(ErrorKind::kInvalidArgument, "JSON object"));
  EXPECT_THAT(config(R"({"kf": )"), throws(ErrorKind::kInvalidArgument, "invalid JSON"));
  EXPECT_THAT(config(R"({"kf": "3031323334353637383930313233343g"})"),
              throws(ErrorKind::kInvalidArgument, "not hexadecimal"));
  EXPECT_THAT(config(R"({"kf": "303"})"), throws(ErrorKind::kInvalidArgument, "odd number"));
  EXPECT_THAT(config(R"({"kf": "3031323334353637"})"), throws(ErrorKind::kInvalidArgument, "8 bytes"));
  EXPECT_THAT(config(R"({"kf": 12})"), throws(ErrorKind::kInvalidArgument, "'kf' is not a string"));
  EXPECT_THAT(config("{}"), throws(ErrorKind::kInvalidArgument, "no master keys"));
  EXPECT_THAT(
      [] {
        InMemoryKms(std::map<std::string, std::string>{{"k", "short"}});
      },
      throws(ErrorKind::kInvalidArgument));
}

TEST(KmsConfigKeys, LoadsAFileAndNamesAMissingOne) {
  testing::TempDir dir("keys");
  const std::string path = dir / "kms.json";
  std::ofstream(path) << R"({"kf": "30313233343536373839303132333435"})";
  auto kms = load_kms_config(path);
  EXPECT_EQ(kms->unwrap_key(kms->wrap_key("0123456789abcdef", "kf"), "kf"), "0123456789abcdef");
  EXPECT_THAT([&] { load_kms_config(dir / "none.json"); }, throws(ErrorKind::kIo, "none.json"));
}

TEST(KmsConfigKeys, ColumnKeysPropertyParsesLikeParquetJava) {
  const auto keys = parse_column_keys(" kc1: a, b.c ; kc2:d;");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys.at("kc1"), (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(keys.at("kc2"), (std::vector<std::string>{"d"}));
  EXPECT_THAT([] { parse_column_keys("kc1"); }, throws(ErrorKind::kInvalidArgument));
  EXPECT_THAT([] { parse_column_keys("kc1:a;kc2:a"); }, throws(ErrorKind::kInvalidArgument, "column 'a'"));
  EXPECT_THAT([] { parse_column_keys(":a"); }, throws(ErrorKind::kInvalidArgument));
  EXPECT_THAT([] { parse_column_keys("kc1:a,"); }, throws(ErrorKind::kInvalidArgument));
}

TEST(KmsConfigKeys, InconsistentEncryptionConfigsAreRefused) {
  auto kms = std::make_shared<InMemoryKms>(java_master_keys());
  const auto refused = [&](const EncryptionConfig& c, std::string_view fragment) {
    EXPECT_THAT([&] { CryptoFactory(c, kms); }, throws(ErrorKind::kInvalidArgument, std::string(fragment)));
  };
  refused(EncryptionConfig{}, "no master keys");
  EncryptionConfig c = column_config(true, true);
  c.uniform_key_id = "kf";
  refused(c, "uniform");
  c = column_config(true, true);
  c.column_keys.clear();
  refused(c, "needs column keys");
  c = column_config(true, true);
  c.column_keys["kc2"].push_back("a");
  refused(c, "column 'a' is given two keys");
  c = column_config(true, true);
  c.data_key_length_bits = 100;
  refused(c, "128, 192 or 256");
  EXPECT_THAT([] { CryptoFactory(column_config(true, true), nullptr); }, throws(ErrorKind::kInvalidArgument));
}

// What the tool and Python hand over: explicit keys pass through as they
// are; master key ids become wrapped data keys; wrapping settings without a
// KMS are refused.
TEST(EncryptionRequests, ExplicitKeysOrMasterKeyIds) {
  EncryptionRequest explicit_keys;
  explicit_keys.footer_key = "0123456789012345";
  explicit_keys.column_keys = {{"a.b", "1234567890123450"}};
  explicit_keys.plaintext_footer = true;
  explicit_keys.aad_prefix = "t";
  FileEncryption e = file_encryption(explicit_keys);
  EXPECT_EQ(e.options.footer_key, "0123456789012345");
  EXPECT_EQ(e.options.column_keys.at("a.b").key, "1234567890123450");
  EXPECT_FALSE(e.options.encrypted_footer);
  EXPECT_EQ(e.options.aad_prefix, "t");
  EXPECT_TRUE(e.external_key_material.empty());

  EncryptionRequest ids = explicit_keys;
  ids.footer_key = "kf";
  ids.column_keys = {{"a.b", "kc1"}};
  ids.kms = std::make_shared<InMemoryKms>(java_master_keys());
  ids.internal_key_material = false;
  e = file_encryption(ids);
  EXPECT_EQ(e.options.footer_key.size(), 16u);
  EXPECT_NE(e.options.footer_key, "0123456789012345");  // a data key, not the master key
  EXPECT_EQ(e.options.column_keys.count("a.b"), 1u);
  EXPECT_FALSE(e.external_key_material.empty());

  explicit_keys.double_wrapping = false;
  EXPECT_THAT([&] { file_encryption(explicit_keys); }, throws(ErrorKind::kInvalidArgument, "need a KMS"));
  EXPECT_THAT([] { master_keys_from_hex({{"kf", "3031"}}); }, throws(ErrorKind::kInvalidArgument, "16, 24 or 32"));
  EXPECT_THAT([] { master_keys_from_hex({}); }, throws(ErrorKind::kInvalidArgument, "no master keys"));
}

}  // namespace
}  // namespace parq::keys
