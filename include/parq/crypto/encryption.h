// What a writer encrypts and what a reader is given to decrypt: Parquet
// modular encryption (the format's Encryption.md) with explicit keys.
//
// Keys are raw AES keys of 16, 24 or 32 bytes. Columns are named by their
// dotted leaf path ("a.b.list.element"), as in path_in_schema. Key
// management (keys wrapped by a KMS, key material in the file or beside it)
// builds these options; see keys/key_tools.h.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace parq::crypto {

enum class Algorithm {
  kAesGcmV1,     // every module AES-GCM
  kAesGcmCtrV1,  // pages AES-CTR, every other module AES-GCM
};
const char* to_string(Algorithm algorithm);

// The key a file's key metadata stands for: empty when unknown (the reader
// then reports the key as missing). Called for the footer key and for each
// column key that explicit keys do not give; may throw parq::Error.
using KeyRetriever = std::function<std::string(const std::string& key_metadata)>;

struct DecryptionOptions {
  std::string footer_key;
  std::map<std::string, std::string> column_keys;  // dotted path -> key
  KeyRetriever key_retriever;
  // The retriever of each file opened (by its input's name), when key
  // material lies beside files (a dataset's, each its own): used where
  // key_retriever is empty.
  std::function<KeyRetriever(const std::string& file)> file_key_retriever;
  // Required when the file was written with an AAD prefix it does not store;
  // when the file stores one, a given prefix must match it.
  std::optional<std::string> aad_prefix;
  // A plaintext footer's signature is checked when the footer key is known.
  bool verify_footer_signature = true;

  bool empty() const {
    return footer_key.empty() && column_keys.empty() && !key_retriever && !file_key_retriever && !aad_prefix;
  }
};

struct ColumnKey {
  std::string key;
  std::string key_metadata;
};

struct EncryptionOptions {
  Algorithm algorithm = Algorithm::kAesGcmV1;
  std::string footer_key;
  std::string footer_key_metadata;
  // false: a plaintext footer, signed with the footer key, that readers
  // without keys open to read the plaintext columns.
  bool encrypted_footer = true;
  // Columns encrypted with keys of their own; the others are left in
  // plaintext. Empty: every column is encrypted with the footer key
  // (uniform encryption).
  std::map<std::string, ColumnKey> column_keys;
  std::string aad_prefix;
  // false: the prefix is not written, and readers must supply it.
  bool store_aad_prefix = true;
};

}  // namespace parq::crypto
