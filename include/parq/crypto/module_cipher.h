// Encrypting and decrypting one module of a file: a footer, a column's
// metadata, a page header or page, a page index, a bloom filter part.
//
// Every module is stored as its length (4 bytes, little-endian) followed by
// a 12-byte random nonce, the ciphertext and, for AES-GCM, a 16-byte tag.
// GCM authenticates the ciphertext together with the module's AAD: the file
// AAD (an optional prefix and the file's unique part) followed by the module
// type and the ordinals of its row group, column and page, so that a module
// moved to another place in the file, or to another file, fails to decrypt.
// AES_GCM_CTR_V1 encrypts pages with AES-CTR (no tag, no AAD).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "parq/crypto/encryption.h"
#include "parq/util/buffer.h"

namespace parq::crypto {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};
// "data page header", ...: for errors.
const char* to_string(ModuleType type);

inline constexpr size_t kLengthSize = 4;
inline constexpr size_t kNonceSize = 12;
inline constexpr size_t kTagSize = 16;
inline constexpr size_t kGcmOverhead = kLengthSize + kNonceSize + kTagSize;
inline constexpr size_t kCtrOverhead = kLengthSize + kNonceSize;
// A plaintext footer's signature: the nonce and tag of its GCM encryption.
inline constexpr size_t kSignatureSize = kNonceSize + kTagSize;

// Serialized Thrift (a std::string) as the bytes a module holds.
inline std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Throws parq::Error (kInvalidArgument) unless `key` is 16, 24 or 32 bytes;
// `what` names the key ("the footer key", "the key of column a").
void check_key(const std::string& key, const std::string& what);

// A key with its count of encryptions: NIST SP 800-38D allows 2^32 random
// nonces per key, and a writer that reaches them stops.
struct DataKey {
  explicit DataKey(std::string bytes) : bytes(std::move(bytes)) {}
  std::string bytes;
  mutable std::atomic<uint64_t> encryptions{0};
};

// The cipher of one column chunk's modules (or of the footer's, with
// ordinals unset): cheap to copy.
class ModuleCipher {
 public:
  ModuleCipher() = default;
  ModuleCipher(std::shared_ptr<const DataKey> key, std::shared_ptr<const std::string> file_aad, Algorithm algorithm,
               int32_t row_group = -1, int32_t column = -1);

  bool valid() const { return key_ != nullptr; }
  Algorithm algorithm() const { return algorithm_; }
  // Pages of AES_GCM_CTR_V1 files are CTR; every other module GCM.
  bool is_ctr(ModuleType type) const {
    return algorithm_ == Algorithm::kAesGcmCtrV1 &&
           (type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage);
  }
  size_t overhead(ModuleType type) const { return is_ctr(type) ? kCtrOverhead : kGcmOverhead; }

  // The stored size (length prefix included) of the module at the start of
  // `bytes`. Throws parq::Error (kCorrupt) when its length runs past them
  // or is too short to hold a nonce (and tag).
  size_t module_size(ModuleType type, std::span<const uint8_t> bytes) const;

  // Decrypts the module that is exactly `module` (length prefix included)
  // into `out` and returns the plaintext (out's bytes). `page` is the
  // page's ordinal among the chunk's data pages (data pages and their
  // headers only). Throws parq::Error naming the module when it does not
  // authenticate: a wrong key, a wrong AAD prefix, or tampered bytes.
  std::span<const uint8_t> decrypt(ModuleType type, std::span<const uint8_t> module, Buffer& out,
                                   int32_t page = -1) const;
  // The same into a string.
  std::string decrypt(ModuleType type, std::span<const uint8_t> module, int32_t page = -1) const;
  // The same into `out`, which must hold plaintext_size(type, module)
  // bytes; returns that size.
  size_t decrypt(ModuleType type, std::span<const uint8_t> module, uint8_t* out, int32_t page = -1) const;
  // The plaintext's size of the module that is exactly `module` (kCorrupt
  // when its length says otherwise).
  size_t plaintext_size(ModuleType type, std::span<const uint8_t> module) const;

  // Appends the module (length, nonce, ciphertext, tag) encrypting
  // `plaintext` to `out`.
  void encrypt(ModuleType type, std::span<const uint8_t> plaintext, std::string& out, int32_t page = -1) const;
  // Encrypts into `out`, which must hold plaintext.size() + overhead(type)
  // bytes; returns the bytes written.
  size_t encrypt(ModuleType type, std::span<const uint8_t> plaintext, uint8_t* out, int32_t page = -1) const;

  // A plaintext footer's signature (nonce and tag of the footer's GCM
  // encryption with a fresh nonce), and its check.
  std::string sign_footer(std::span<const uint8_t> footer) const;
  bool verify_footer(std::span<const uint8_t> footer, std::span<const uint8_t> signature) const;

 private:
  // The module's AAD into `aad` (a stack buffer of the file AAD's size + 7).
  size_t module_aad(ModuleType type, int32_t page, uint8_t* aad) const;

  std::shared_ptr<const DataKey> key_;
  std::shared_ptr<const std::string> file_aad_;
  Algorithm algorithm_ = Algorithm::kAesGcmV1;
  int32_t row_group_ = -1;
  int32_t column_ = -1;
};

}  // namespace parq::crypto
