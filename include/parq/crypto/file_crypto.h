// The keys of one encrypted file: which cipher each module is read or
// written with.
//
// FileDecryptor is made from what the file says (its algorithm, the footer
// key's metadata) and what the reader was given (DecryptionOptions); it
// finds each column's key (explicit, or from the key retriever with the
// column's key metadata) on first use. FileEncryptor is made from
// EncryptionOptions and says, for the writer, how each module is encrypted
// and what crypto metadata goes into the file.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "parq/crypto/encryption.h"
#include "parq/crypto/module_cipher.h"
#include "parq/format/metadata.h"

namespace parq::crypto {

// The algorithm the union holds; throws parq::Error (kUnsupported) for one
// this version does not know.
Algorithm algorithm_of(const format::EncryptionAlgorithm& algorithm);

class FileDecryptor {
 public:
  // Throws parq::Error (kInvalidArgument) when the file needs an AAD prefix
  // that was not supplied, or stores one that differs from the one given.
  FileDecryptor(const format::EncryptionAlgorithm& algorithm, std::optional<std::string> footer_key_metadata,
                DecryptionOptions options);

  Algorithm algorithm() const { return algorithm_; }
  // The AAD prefix the file stores or the reader supplied ("" for none).
  const std::string& aad_prefix() const { return aad_prefix_; }
  const std::optional<std::string>& footer_key_metadata() const { return footer_key_metadata_; }

  // The footer key's cipher, or nullopt when it is neither given nor
  // retrievable: `why` then says why, and `failed` whether retrieving it
  // failed (the KMS refused) rather than no key being known for it.
  std::optional<ModuleCipher> footer_cipher(std::string* why = nullptr, bool* failed = nullptr) const;

  // The cipher of a column chunk: invalid (valid() false) for a plaintext
  // chunk. Throws parq::Error (kUnsupported) naming the column when its key
  // is not known.
  ModuleCipher column_cipher(const format::FileMetaData& file, size_t row_group, size_t column) const;
  // The same, with nullopt for a key not known.
  std::optional<ModuleCipher> find_column_cipher(const format::FileMetaData& file, size_t row_group, size_t column,
                                                 std::string* why = nullptr) const;

 private:
  struct Resolved {
    std::shared_ptr<const DataKey> key;
    std::string why;      // when key is null: what failed
    bool failed = false;  // the retriever threw
  };
  const Resolved& resolve(const std::string& cache_key, const std::string& explicit_key,
                          const std::optional<std::string>& key_metadata, const std::string& what) const;

  Algorithm algorithm_;
  std::optional<std::string> footer_key_metadata_;
  DecryptionOptions options_;
  std::string aad_prefix_;
  std::shared_ptr<const std::string> file_aad_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, Resolved> keys_;  // by "" (footer) or "c:" + dotted path
};

// The cipher of a chunk of a file read with `decryptor` (null when no keys
// were given), for every reader of its modules (pages, indexes, bloom
// filters): invalid for a plaintext chunk. Throws parq::Error
// (kUnsupported) for an encrypted chunk read without keys or without its
// key; callers add where.
ModuleCipher chunk_cipher(const FileDecryptor* decryptor, const format::FileMetaData& file, size_t row_group,
                          size_t column);

class FileEncryptor {
 public:
  // Checks the keys' sizes; draws the file's unique AAD part.
  explicit FileEncryptor(EncryptionOptions options);

  const EncryptionOptions& options() const { return options_; }
  bool encrypted_footer() const { return options_.encrypted_footer; }
  // The algorithm union as the file stores it (prefix, unique part, and
  // whether readers must supply the prefix).
  format::EncryptionAlgorithm algorithm() const;
  ModuleCipher footer_cipher() const;

  // Throws parq::Error (kInvalidArgument) naming a column given a key that
  // the schema has no leaf for.
  void check_columns(const std::vector<std::string>& leaf_paths) const;
  bool is_encrypted(const std::string& dotted_path) const;
  // The chunk's cipher (invalid for a plaintext column) and its crypto
  // metadata (nullopt for a plaintext column).
  ModuleCipher column_cipher(const std::string& dotted_path, int32_t row_group, int32_t column) const;
  std::optional<format::ColumnCryptoMetaData> crypto_metadata(const std::string& dotted_path,
                                                              const std::vector<std::string>& path) const;
  // Whether the column's metadata is encrypted on its own (a column key
  // other than the footer's, or any key under a plaintext footer).
  bool encrypts_column_metadata(const std::string& dotted_path) const;

 private:
  EncryptionOptions options_;
  std::shared_ptr<const std::string> file_aad_;
  std::string aad_file_unique_;
  std::shared_ptr<const DataKey> footer_key_;
  std::map<std::string, std::shared_ptr<const DataKey>> column_keys_;
};

}  // namespace parq::crypto
