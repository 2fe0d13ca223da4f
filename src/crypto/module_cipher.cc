// Module encryption and decryption; see crypto/module_cipher.h.
#include "parq/crypto/module_cipher.h"

#include <openssl/crypto.h>

#include <cstring>
#include <limits>

#include "aes.h"
#include "parq/error.h"

namespace parq::crypto {
namespace {

constexpr uint64_t kMaxEncryptionsPerKey = uint64_t{1} << 32;

uint32_t load_u32_le(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void store_u32_le(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v >> 16);
  p[3] = static_cast<uint8_t>(v >> 24);
}

void store_i16_le(uint8_t* p, int32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

// Ordinals are 16-bit in the AAD; a larger one cannot be encrypted (or
// written by any writer that follows the format).
void check_ordinal(int32_t v, const char* what) {
  if (v > std::numeric_limits<int16_t>::max())
    throw Error(ErrorKind::kUnsupported, {},
                std::string("the ") + what + " ordinal " + std::to_string(v) +
                    " does not fit the 16 bits an encrypted file's AAD gives it");
}

// A module's AAD: on the stack for the usual short file AADs (a long AAD
// prefix goes to the heap), so that a module costs no allocation.
class AadBuffer {
 public:
  explicit AadBuffer(size_t file_aad_size) {
    if (file_aad_size + 7 > sizeof stack_) heap_.reset(new uint8_t[file_aad_size + 7]);
  }
  uint8_t* data() { return heap_ ? heap_.get() : stack_; }

 private:
  uint8_t stack_[256];
  std::unique_ptr<uint8_t[]> heap_;
};

}  // namespace

const char* to_string(Algorithm algorithm) {
  return algorithm == Algorithm::kAesGcmV1 ? "AES_GCM_V1" : "AES_GCM_CTR_V1";
}

const char* to_string(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter:
      return "footer";
    case ModuleType::kColumnMetaData:
      return "column metadata";
    case ModuleType::kDataPage:
      return "data page";
    case ModuleType::kDictionaryPage:
      return "dictionary page";
    case ModuleType::kDataPageHeader:
      return "data page header";
    case ModuleType::kDictionaryPageHeader:
      return "dictionary page header";
    case ModuleType::kColumnIndex:
      return "column index";
    case ModuleType::kOffsetIndex:
      return "offset index";
    case ModuleType::kBloomFilterHeader:
      return "bloom filter header";
    case ModuleType::kBloomFilterBitset:
      return "bloom filter bitset";
  }
  return "module";
}

void check_key(const std::string& key, const std::string& what) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    throw Error(ErrorKind::kInvalidArgument, {},
                what + " is " + std::to_string(key.size()) + " bytes; an AES key is 16, 24 or 32 bytes");
}

ModuleCipher::ModuleCipher(std::shared_ptr<const DataKey> key, std::shared_ptr<const std::string> file_aad,
                           Algorithm algorithm, int32_t row_group, int32_t column)
    : key_(std::move(key)),
      file_aad_(std::move(file_aad)),
      algorithm_(algorithm),
      row_group_(row_group),
      column_(column) {
  if (row_group_ >= 0) check_ordinal(row_group_, "row group");
  if (column_ >= 0) check_ordinal(column_, "column");
}

size_t ModuleCipher::module_aad(ModuleType type, int32_t page, uint8_t* aad) const {
  const std::string& file = *file_aad_;
  std::memcpy(aad, file.data(), file.size());
  size_t n = file.size();
  aad[n++] = static_cast<uint8_t>(type);
  if (type == ModuleType::kFooter) return n;
  store_i16_le(aad + n, row_group_);
  store_i16_le(aad + n + 2, column_);
  n += 4;
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) {
    check_ordinal(page, "page");
    store_i16_le(aad + n, page);
    n += 2;
  }
  return n;
}

size_t ModuleCipher::module_size(ModuleType type, std::span<const uint8_t> bytes) const {
  if (bytes.size() < kLengthSize)
    throw Error(ErrorKind::kCorrupt, {},
                std::string("the encrypted ") + to_string(type) + " is cut short: " + std::to_string(bytes.size()) +
                    " bytes left, its length needs 4");
  const uint64_t length = load_u32_le(bytes.data());
  const size_t least = overhead(type) - kLengthSize;
  if (length < least || length > bytes.size() - kLengthSize)
    throw Error(ErrorKind::kCorrupt, {},
                std::string("the encrypted ") + to_string(type) + " claims " + std::to_string(length) + " bytes; " +
                    (length < least ? "a module holds at least " + std::to_string(least)
                                    : std::to_string(bytes.size() - kLengthSize) + " are left"));
  return kLengthSize + static_cast<size_t>(length);
}

size_t ModuleCipher::plaintext_size(ModuleType type, std::span<const uint8_t> module) const {
  const size_t size = module_size(type, module);
  if (size != module.size())
    throw Error(ErrorKind::kCorrupt, {},
                std::string("the encrypted ") + to_string(type) + " claims " + std::to_string(size) + " bytes where " +
                    std::to_string(module.size()) + " are stored");
  return size - overhead(type);
}

size_t ModuleCipher::decrypt(ModuleType type, std::span<const uint8_t> module, uint8_t* out, int32_t page) const {
  const size_t n = plaintext_size(type, module);
  const uint8_t* nonce = module.data() + kLengthSize;
  const uint8_t* body = nonce + kNonceSize;
  if (is_ctr(type)) {
    ctr_crypt(key_->bytes, nonce, {body, n}, out);
    return n;
  }
  AadBuffer aad(file_aad_->size());
  const size_t aad_size = module_aad(type, page, aad.data());
  if (!gcm_decrypt(key_->bytes, nonce, {aad.data(), aad_size}, {body, n}, body + n, out))
    throw Error(ErrorKind::kCorrupt, {},
                std::string("the ") + to_string(type) +
                    " does not authenticate: a wrong key, a wrong AAD prefix, or bytes altered or moved");
  return n;
}

std::span<const uint8_t> ModuleCipher::decrypt(ModuleType type, std::span<const uint8_t> module, Buffer& out,
                                               int32_t page) const {
  out.resize(plaintext_size(type, module));
  return {out.data(), decrypt(type, module, out.data(), page)};
}

std::string ModuleCipher::decrypt(ModuleType type, std::span<const uint8_t> module, int32_t page) const {
  Buffer out;
  std::span<const uint8_t> plain = decrypt(type, module, out, page);
  return {reinterpret_cast<const char*>(plain.data()), plain.size()};
}

size_t ModuleCipher::encrypt(ModuleType type, std::span<const uint8_t> plaintext, uint8_t* out, int32_t page) const {
  if (key_->encryptions.fetch_add(1, std::memory_order_relaxed) >= kMaxEncryptionsPerKey)
    throw Error(ErrorKind::kLimit, {},
                "a key has encrypted 2^32 modules, the most NIST SP 800-38D allows with random nonces");
  const size_t size = plaintext.size() + overhead(type);
  if (size - kLengthSize > std::numeric_limits<uint32_t>::max())
    throw Error(ErrorKind::kLimit, {},
                std::string("a ") + to_string(type) + " of " + std::to_string(plaintext.size()) +
                    " bytes is too large to encrypt (4 GiB at most)");
  store_u32_le(out, static_cast<uint32_t>(size - kLengthSize));
  uint8_t* nonce = out + kLengthSize;
  random_bytes(nonce, kNonceSize);
  uint8_t* body = nonce + kNonceSize;
  if (is_ctr(type)) {
    ctr_crypt(key_->bytes, nonce, plaintext, body);
    return size;
  }
  AadBuffer aad(file_aad_->size());
  const size_t aad_size = module_aad(type, page, aad.data());
  gcm_encrypt(key_->bytes, nonce, {aad.data(), aad_size}, plaintext, body, body + plaintext.size());
  return size;
}

void ModuleCipher::encrypt(ModuleType type, std::span<const uint8_t> plaintext, std::string& out, int32_t page) const {
  const size_t at = out.size();
  out.resize(at + plaintext.size() + overhead(type));
  encrypt(type, plaintext, reinterpret_cast<uint8_t*>(out.data() + at), page);
}

std::string ModuleCipher::sign_footer(std::span<const uint8_t> footer) const {
  std::string module;
  encrypt(ModuleType::kFooter, footer, module);
  // Nonce and tag; the ciphertext between them is not stored.
  std::string signature = module.substr(kLengthSize, kNonceSize);
  signature += module.substr(module.size() - kTagSize);
  return signature;
}

bool ModuleCipher::verify_footer(std::span<const uint8_t> footer, std::span<const uint8_t> signature) const {
  if (signature.size() != kSignatureSize) return false;
  // Encrypting the footer again with the stored nonce must give the stored
  // tag.
  std::string file_aad = *file_aad_;
  file_aad.push_back(static_cast<char>(ModuleType::kFooter));
  Buffer cipher(footer.size());
  uint8_t tag[kTagSize];
  gcm_encrypt(key_->bytes, signature.data(), bytes_of(file_aad), footer, cipher.data(), tag);
  return CRYPTO_memcmp(tag, signature.data() + kNonceSize, kTagSize) == 0;
}

}  // namespace parq::crypto
