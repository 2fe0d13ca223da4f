// AES through OpenSSL against published vectors, and module encryption:
// framing, AADs that tie a module to its place, tampering, footer signing.
#include "parq/crypto/module_cipher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "../../src/crypto/aes.h"
#include "parq/crypto/file_crypto.h"
#include "parq/error.h"

namespace parq::crypto {
namespace {

using ::testing::HasSubstr;

std::string unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::span<const uint8_t> bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

// Runs a test's body once with each AES-GCM backend this build has on this
// CPU, and leaves the preferred one chosen.
class EachAesBackend {
 public:
  template <typename Body>
  static void run(Body body) {
    const AesBackend preferred = aes_backend();
    for (AesBackend b : aes_backends()) {
      use_aes_backend(b);
      SCOPED_TRACE(b == AesBackend::kOpenSsl ? "OpenSSL" : "ipsec-mb");
      body();
    }
    use_aes_backend(preferred);
  }
};

void expect_gcm_vector(const std::string& key, const std::string& nonce, const std::string& aad,
                       const std::string& plain, const std::string& cipher_hex, const std::string& tag_hex) {
  std::string cipher(plain.size(), '\0'), tag(16, '\0');
  gcm_encrypt(key, bytes(nonce).data(), bytes(aad), bytes(plain), reinterpret_cast<uint8_t*>(cipher.data()),
              reinterpret_cast<uint8_t*>(tag.data()));
  EXPECT_EQ(cipher, unhex(cipher_hex));
  EXPECT_EQ(tag, unhex(tag_hex));
  std::string back(plain.size(), 'x');
  EXPECT_TRUE(gcm_decrypt(key, bytes(nonce).data(), bytes(aad), bytes(cipher), bytes(tag).data(),
                          reinterpret_cast<uint8_t*>(back.data())));
  EXPECT_EQ(back, plain);
  tag[0] ^= 1;
  EXPECT_FALSE(gcm_decrypt(key, bytes(nonce).data(), bytes(aad), bytes(cipher), bytes(tag).data(),
                           reinterpret_cast<uint8_t*>(back.data())));
  tag[0] ^= 1;
  if (!aad.empty()) {
    std::string other_aad = aad;
    other_aad.back() ^= 1;
    EXPECT_FALSE(gcm_decrypt(key, bytes(nonce).data(), bytes(other_aad), bytes(cipher), bytes(tag).data(),
                             reinterpret_cast<uint8_t*>(back.data())));
  }
}

// The GCM specification's test cases 2 (zero key, zero nonce, one zero
// block), 4 (AES-128 with an AAD and a partial last block) and 16 (the same
// with AES-256).
TEST(Aes, GcmMatchesThePublishedVectors) {
  const std::string k4 = unhex("feffe9928665731c6d6a8f9467308308");
  const std::string iv4 = unhex("cafebabefacedbaddecaf888");
  const std::string aad4 = unhex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
  const std::string p4 = unhex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657"
      "ba637b39");
  EachAesBackend::run([&] {
    expect_gcm_vector(std::string(16, '\0'), std::string(12, '\0'), "", std::string(16, '\0'),
                      "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf");
    expect_gcm_vector(k4, iv4, aad4, p4,
                      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
                      "1ba30b396a0aac973d58e091",
                      "5bc94fbc3221a5db94fae95ae7121a47");
    expect_gcm_vector(k4 + k4, iv4, aad4, p4,
                      "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b10568288"
                      "38c5f61e6393ba7a0abcc9f662",
                      "76fc6ece0f4e1768cddf8853bb2d551b");
  });
}

// Every backend against OpenSSL's, over lengths around the block sizes the
// vector kernels fold (16, 64, 256 bytes and beyond), every key size, and
// more keys than a thread keeps expanded, so that evicted keys come back.
TEST(Aes, BackendsAgreeWithOpenSsl) {
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back(std::string(16 + 8 * (i % 3), static_cast<char>('a' + i)));
  std::string message;
  for (int i = 0; i < 5000; ++i) message.push_back(static_cast<char>(i * 131 + 7));
  const std::string nonce = "twelve-bytes";
  const AesBackend preferred = aes_backend();
  int compared = 0;
  for (size_t length : {0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 4099, 5000}) {
    for (size_t k = 0; k < keys.size(); k += (length % 7) + 1) {
      const std::string& key = keys[k];
      const std::string aad = message.substr(length % 40, k % 23);
      const std::string plain = message.substr(0, length);
      std::string expected(length, '\0'), expected_tag(16, '\0');
      use_aes_backend(AesBackend::kOpenSsl);
      gcm_encrypt(key, bytes(nonce).data(), bytes(aad), bytes(plain), reinterpret_cast<uint8_t*>(expected.data()),
                  reinterpret_cast<uint8_t*>(expected_tag.data()));
      for (AesBackend b : aes_backends()) {
        use_aes_backend(b);
        std::string cipher(length, '\0'), tag(16, '\0'), back(length, '\0');
        gcm_encrypt(key, bytes(nonce).data(), bytes(aad), bytes(plain), reinterpret_cast<uint8_t*>(cipher.data()),
                    reinterpret_cast<uint8_t*>(tag.data()));
        EXPECT_EQ(cipher, expected) << length << " " << key.size();
        EXPECT_EQ(tag, expected_tag) << length << " " << key.size();
        EXPECT_TRUE(gcm_decrypt(key, bytes(nonce).data(), bytes(aad), bytes(expected), bytes(expected_tag).data(),
                                reinterpret_cast<uint8_t*>(back.data())));
        EXPECT_EQ(back, plain);
        ++compared;
      }
    }
  }
  use_aes_backend(preferred);
  EXPECT_GT(compared, 100);
}

TEST(Aes, AKeyOfAnotherSizeIsRefusedByEveryBackend) {
  const std::string nonce(12, '\0'), plain = "x";
  std::string cipher(1, '\0'), tag(16, '\0');
  EachAesBackend::run([&] {
    EXPECT_THROW(gcm_encrypt(std::string(20, 'k'), bytes(nonce).data(), {}, bytes(plain),
                             reinterpret_cast<uint8_t*>(cipher.data()), reinterpret_cast<uint8_t*>(tag.data())),
                 Error);
  });
}

// GCM encrypts from counter 2 of the same counter sequence whose counter 1
// the format's CTR starts at: the CTR keystream shifted by a block is GCM's.
TEST(Aes, CtrStartsAtCounterOne) {
  EachAesBackend::run([] {
    for (size_t key_size : {16, 24, 32}) {
      const std::string key(key_size, 'k'), nonce = "nonce-twelve";
      const std::string plain = "a page of values that spans more than two AES blocks";
      std::string gcm(plain.size(), '\0'), tag(16, '\0');
      gcm_encrypt(key, bytes(nonce).data(), {}, bytes(plain), reinterpret_cast<uint8_t*>(gcm.data()),
                  reinterpret_cast<uint8_t*>(tag.data()));
      const std::string padded = std::string(16, '\0') + plain;
      std::string ctr(padded.size(), '\0');
      ctr_crypt(key, bytes(nonce).data(), bytes(padded), reinterpret_cast<uint8_t*>(ctr.data()));
      EXPECT_EQ(ctr.substr(16), gcm) << key_size;
      std::string back(ctr.size(), '\0');
      ctr_crypt(key, bytes(nonce).data(), bytes(ctr), reinterpret_cast<uint8_t*>(back.data()));
      EXPECT_EQ(back, padded);
    }
  });
}

// CTR of every backend against OpenSSL's, over lengths around the block
// sizes and every key size.
TEST(Aes, CtrBackendsAgreeWithOpenSsl) {
  // Past a MiB too, where the counter runs on across pieces.
  std::string message;
  for (int i = 0; i < (3 << 20) + 5; ++i) message.push_back(static_cast<char>(i * 77 + 3));
  const std::string nonce = "twelve-bytes";
  const AesBackend preferred = aes_backend();
  int compared = 0;
  for (size_t key_size : {16, 24, 32}) {
    const std::string key(key_size, static_cast<char>('A' + key_size));
    for (size_t length : {0, 1, 15, 16, 17, 255, 256, 257, 4096, 8999, (3 << 20) + 5}) {
      const std::string plain = message.substr(0, length);
      std::string expected(length, '\0');
      use_aes_backend(AesBackend::kOpenSsl);
      ctr_crypt(key, bytes(nonce).data(), bytes(plain), reinterpret_cast<uint8_t*>(expected.data()));
      for (AesBackend b : aes_backends()) {
        use_aes_backend(b);
        std::string out(length, '\0');
        ctr_crypt(key, bytes(nonce).data(), bytes(plain), reinterpret_cast<uint8_t*>(out.data()));
        EXPECT_EQ(out, expected) << key_size << " " << length;
        ++compared;
      }
    }
  }
  use_aes_backend(preferred);
  EXPECT_GE(compared, 30);
}

ModuleCipher cipher_at(Algorithm algorithm, int32_t row_group, int32_t column,
                       const std::string& key = "0123456789abcdef", const std::string& file_aad = "prefix-unique") {
  return ModuleCipher(std::make_shared<DataKey>(key), std::make_shared<const std::string>(file_aad), algorithm,
                      row_group, column);
}

TEST(ModuleCipher, RoundTripsEveryModuleTypeWithItsFraming) {
  const std::string plain = "the bytes of one module";
  for (Algorithm a : {Algorithm::kAesGcmV1, Algorithm::kAesGcmCtrV1}) {
    ModuleCipher c = cipher_at(a, 3, 7);
    for (int t = 0; t <= 9; ++t) {
      const auto type = static_cast<ModuleType>(t);
      std::string module = "leading";
      c.encrypt(type, bytes(plain), module, 5);
      module.erase(0, 7);
      ASSERT_EQ(module.size(), plain.size() + c.overhead(type));
      const uint32_t length = static_cast<uint8_t>(module[0]) | static_cast<uint8_t>(module[1]) << 8;
      EXPECT_EQ(length + kLengthSize, module.size());
      EXPECT_EQ(c.module_size(type, bytes(module + "trailing")), module.size());
      EXPECT_EQ(module.find(plain), std::string::npos);
      EXPECT_EQ(c.decrypt(type, bytes(module), 5), plain) << to_string(type);
    }
    EXPECT_EQ(c.overhead(ModuleType::kDataPage), a == Algorithm::kAesGcmV1 ? kGcmOverhead : kCtrOverhead);
    EXPECT_EQ(c.overhead(ModuleType::kDataPageHeader), kGcmOverhead);
  }
}

TEST(ModuleCipher, AModuleMovedToAnotherPlaceDoesNotAuthenticate) {
  const std::string plain = "page header";
  ModuleCipher home = cipher_at(Algorithm::kAesGcmV1, 1, 2);
  std::string module;
  home.encrypt(ModuleType::kDataPageHeader, bytes(plain), module, 4);
  EXPECT_EQ(home.decrypt(ModuleType::kDataPageHeader, bytes(module), 4), plain);
  auto refused = [&](const ModuleCipher& c, ModuleType type, int32_t page) {
    try {
      c.decrypt(type, bytes(module), page);
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("does not authenticate"));
      return true;
    }
    return false;
  };
  EXPECT_TRUE(refused(home, ModuleType::kDataPageHeader, 5));                                   // another page
  EXPECT_TRUE(refused(home, ModuleType::kDictionaryPageHeader, -1));                            // another type
  EXPECT_TRUE(refused(cipher_at(Algorithm::kAesGcmV1, 0, 2), ModuleType::kDataPageHeader, 4));  // row group
  EXPECT_TRUE(refused(cipher_at(Algorithm::kAesGcmV1, 1, 3), ModuleType::kDataPageHeader, 4));  // column
  EXPECT_TRUE(
      refused(cipher_at(Algorithm::kAesGcmV1, 1, 2, "0123456789abcdef", "other-file"), ModuleType::kDataPageHeader, 4));
  EXPECT_TRUE(refused(cipher_at(Algorithm::kAesGcmV1, 1, 2, "fedcba9876543210"), ModuleType::kDataPageHeader, 4));
  for (size_t i = kLengthSize; i < module.size(); ++i) {
    std::string tampered = module;
    tampered[i] ^= 0x20;
    EXPECT_THROW(home.decrypt(ModuleType::kDataPageHeader, bytes(tampered), 4), Error) << i;
  }
}

TEST(ModuleCipher, CtrPagesDecryptWithoutAuthentication) {
  // AES_GCM_CTR_V1 leaves pages unauthenticated by design: a flipped bit
  // decrypts to a flipped bit.
  ModuleCipher c = cipher_at(Algorithm::kAesGcmCtrV1, 0, 0);
  const std::string plain = "page bytes";
  std::string module;
  c.encrypt(ModuleType::kDataPage, bytes(plain), module, 0);
  module[kLengthSize + kNonceSize] ^= 1;
  std::string back = c.decrypt(ModuleType::kDataPage, bytes(module), 0);
  EXPECT_EQ(back[0], plain[0] ^ 1);
  EXPECT_EQ(back.substr(1), plain.substr(1));
}

TEST(ModuleCipher, LengthsThatDoNotFitAreCorrupt) {
  ModuleCipher c = cipher_at(Algorithm::kAesGcmV1, 0, 0);
  std::string module;
  c.encrypt(ModuleType::kColumnIndex, bytes(std::string("x")), module);
  EXPECT_THROW(c.module_size(ModuleType::kColumnIndex, bytes(module.substr(0, 3))), Error);
  EXPECT_THROW(c.module_size(ModuleType::kColumnIndex, bytes(module.substr(0, module.size() - 1))), Error);
  std::string short_length = module;
  short_length[0] = 10;  // less than nonce and tag
  try {
    c.module_size(ModuleType::kColumnIndex, bytes(short_length));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_THAT(e.what(), HasSubstr("at least 28"));
  }
  EXPECT_THROW(c.decrypt(ModuleType::kColumnIndex, bytes(module + "x")), Error);
}

TEST(ModuleCipher, FooterSignatureVerifiesOnlyTheSignedBytes) {
  ModuleCipher c = cipher_at(Algorithm::kAesGcmV1, -1, -1);
  const std::string footer = "serialized FileMetaData";
  const std::string signature = c.sign_footer(bytes(footer));
  ASSERT_EQ(signature.size(), kSignatureSize);
  EXPECT_TRUE(c.verify_footer(bytes(footer), bytes(signature)));
  std::string altered = footer;
  altered[3] ^= 1;
  EXPECT_FALSE(c.verify_footer(bytes(altered), bytes(signature)));
  EXPECT_FALSE(
      cipher_at(Algorithm::kAesGcmV1, -1, -1, "fedcba9876543210").verify_footer(bytes(footer), bytes(signature)));
  EXPECT_FALSE(c.verify_footer(bytes(footer), bytes(signature.substr(1))));
}

TEST(ModuleCipher, OrdinalsBeyondSixteenBitsAreRefused) {
  EXPECT_THROW(cipher_at(Algorithm::kAesGcmV1, 40000, 0), Error);
  ModuleCipher c = cipher_at(Algorithm::kAesGcmV1, 0, 0);
  std::string module;
  EXPECT_THROW(c.encrypt(ModuleType::kDataPage, bytes(std::string("x")), module, 32768), Error);
}

TEST(Keys, SizesOtherThanAesKeysAreRefusedByName) {
  EXPECT_NO_THROW(check_key(std::string(24, 'k'), "the footer key"));
  try {
    check_key("short", "the key of column a.b");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    EXPECT_THAT(e.what(), HasSubstr("the key of column a.b is 5 bytes"));
  }
  EncryptionOptions options;
  options.footer_key = "0123456789abcdef";
  options.column_keys["a"] = {"bad", ""};
  EXPECT_THROW(FileEncryptor{options}, Error);
}

TEST(Keys, AadPrefixMustBeSuppliedWhenTheFileDoesNotStoreItAndMatchWhenItDoes) {
  format::EncryptionAlgorithm stored;
  stored.AES_GCM_V1.emplace().aad_prefix = "tester";
  DecryptionOptions options;
  options.footer_key = "0123456789abcdef";
  EXPECT_EQ(FileDecryptor(stored, std::nullopt, options).aad_prefix(), "tester");
  options.aad_prefix = "other";
  EXPECT_THROW(FileDecryptor(stored, std::nullopt, options), Error);
  format::EncryptionAlgorithm supplied;
  supplied.AES_GCM_CTR_V1.emplace().supply_aad_prefix = true;
  options.aad_prefix.reset();
  EXPECT_THROW(FileDecryptor(supplied, std::nullopt, options), Error);
  options.aad_prefix = "tester";
  FileDecryptor d(supplied, std::nullopt, options);
  EXPECT_EQ(d.algorithm(), Algorithm::kAesGcmCtrV1);
  EXPECT_EQ(d.aad_prefix(), "tester");
}

TEST(Keys, TheRetrieverIsAskedWithKeyMetadataAndItsFailureIsReported) {
  format::EncryptionAlgorithm algorithm;
  algorithm.AES_GCM_V1.emplace();
  DecryptionOptions options;
  std::vector<std::string> asked;
  options.key_retriever = [&](const std::string& metadata) -> std::string {
    asked.push_back(metadata);
    if (metadata == "kf") return "0123456789abcdef";
    if (metadata == "broken") throw Error(ErrorKind::kUnsupported, {}, "the KMS is down");
    return "";
  };
  EXPECT_TRUE(FileDecryptor(algorithm, "kf", options).footer_cipher().has_value());
  std::string why;
  EXPECT_FALSE(FileDecryptor(algorithm, "broken", options).footer_cipher(&why).has_value());
  EXPECT_THAT(why, HasSubstr("the KMS is down"));
  EXPECT_FALSE(FileDecryptor(algorithm, "unknown", options).footer_cipher(&why).has_value());
  EXPECT_THAT(why, HasSubstr("does not know"));
  EXPECT_EQ(asked, (std::vector<std::string>{"kf", "broken", "unknown"}));
}

}  // namespace
}  // namespace parq::crypto
