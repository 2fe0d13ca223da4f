// Key management for Parquet modular encryption, in the form parquet-java's
// key tools (org.apache.parquet.crypto.keytools) and Arrow C++'s
// parquet::encryption share, so that files encrypted by one open in the
// others given the same KMS.
//
// Data keys (DEKs) are random and never leave the file in the clear: each
// is wrapped by a KMS under a master key that the KMS holds, either directly
// (single wrapping) or through a key-encryption key (KEK) that is itself
// wrapped by the KMS (double wrapping, the default: one KMS call per master
// key and writer instead of one per column). What is needed to unwrap a DEK
// (master key id, wrapped DEK, wrapped KEK) is its "key material", a small
// JSON text (type "PKMT1") stored either in the file as the key's
// key_metadata (internal) or in a JSON file beside the data file,
// "_KEY_MATERIAL_FOR_<name>.json" (external), which key_metadata then only
// references. External material is what makes master key rotation possible
// without rewriting data files.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parq/crypto/encryption.h"

namespace parq::keys {

// A key management service. Wrapped keys are base64 text, as parquet-java's
// KmsClient returns them, because they are stored in JSON. Implementations
// throw parq::Error: kUnsupported for a master key id they do not hold,
// kCorrupt for a wrapped key that does not unwrap. Called from any thread.
class KmsClient {
 public:
  virtual ~KmsClient() = default;
  virtual std::string wrap_key(const std::string& key, const std::string& master_key_id) = 0;
  virtual std::string unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) = 0;
};

// A KMS whose master keys are given to it, wrapping as parquet-java's test
// InMemoryKMS and Arrow's TestOnlyInMemoryKms do (AES-GCM under the master
// key with the master key id as AAD): files written with it are readable by
// those given the same keys, which makes it the interop KMS for tests and
// the tool's --kms-config. It is not a real KMS: the master keys are in this
// process.
class InMemoryKms : public KmsClient {
 public:
  // master key id -> raw AES key of 16, 24 or 32 bytes (kInvalidArgument
  // otherwise).
  explicit InMemoryKms(std::map<std::string, std::string> master_keys);

  std::string wrap_key(const std::string& key, const std::string& master_key_id) override;
  std::string unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) override;

 private:
  const std::string& master_key(const std::string& master_key_id) const;
  std::map<std::string, std::string> master_keys_;  // never changed after construction: no lock
};

// The master keys of a --kms-config text: a JSON object mapping master key
// ids to keys in hexadecimal ({"kf": "30313233...", "kc1": "..."}). Throws
// kInvalidArgument naming the offending key id.
std::map<std::string, std::string> parse_kms_config(std::string_view json);
// The same from master key ids to keys in hexadecimal (a config's object
// already parsed, as Python's dict): the raw keys, or kInvalidArgument.
std::map<std::string, std::string> master_keys_from_hex(const std::map<std::string, std::string>& hex_keys);
// The same, read from a file (kIo when it cannot be read).
std::shared_ptr<InMemoryKms> load_kms_config(const std::string& path);

// AES-GCM wrapping of a key under another, in parquet-java's
// KeyToolkit.encryptKeyLocally form: base64 of nonce(12) | ciphertext | tag(16).
std::string wrap_key_locally(std::string_view key, std::string_view wrapping_key, std::string_view aad);
// Throws kCorrupt when `wrapped` is not base64 of such bytes or does not
// authenticate (a wrong wrapping key or altered material).
std::string unwrap_key_locally(std::string_view wrapped, std::string_view wrapping_key, std::string_view aad);

// The material of one key (KeyMaterial.java). Field names are parquet-java's.
struct KeyMaterial {
  bool is_footer_key = false;
  std::string kms_instance_id;   // footer key only ("DEFAULT" when unused)
  std::string kms_instance_url;  // footer key only
  std::string master_key_id;
  std::string wrapped_dek;  // base64
  bool double_wrapping = false;
  std::string kek_id;       // double wrapping: base64 of the KEK's random 16-byte id
  std::string wrapped_kek;  // double wrapping: the KEK wrapped by the KMS

  // The JSON text; internal storage adds "internalStorage":true, since the
  // text is then the key's key_metadata itself.
  std::string serialize(bool internal_storage) const;
  // Throws kCorrupt for text that is not a PKMT1 key material object.
  static KeyMaterial parse(std::string_view json);
};

// What a key's key_metadata holds (KeyMetadata.java): the material itself,
// or a reference to it in the external key material file.
struct KeyMetadata {
  bool internal_storage = true;
  KeyMaterial material;       // internal
  std::string key_reference;  // external: "footerKey", "columnKey0", ...

  // Throws kCorrupt for text that is not PKMT1 key metadata.
  static KeyMetadata parse(std::string_view json);
  static std::string serialize_external(const std::string& key_reference);
};

// "<folder>/_KEY_MATERIAL_FOR_<name>.json" for "<folder>/<name>".
std::string key_material_path(const std::string& data_file_path);
// The external key material file of a data file: key reference -> key
// material text (HadoopFSKeyMaterialStore's format). Throws kIo when it
// cannot be read, kUnsupported for remote paths (URLs), kCorrupt when it is
// not a JSON object of strings.
std::map<std::string, std::string> read_key_material(const std::string& data_file_path);
// Writes it beside the data file atomically (a temporary file renamed into
// place): readers see the old material or the new, never a part.
void write_key_material(const std::string& data_file_path, const std::map<std::string, std::string>& material);

// parquet-java's "parquet.encryption.column.keys" text,
// "kc1:a,b.c;kc2:d", as master key id -> dotted column paths. Throws
// kInvalidArgument for a malformed entry or a column named twice.
std::map<std::string, std::vector<std::string>> parse_column_keys(std::string_view text);

// What PropertiesDrivenCryptoFactory takes from Hadoop properties.
struct EncryptionConfig {
  // Either a footer key and column keys (only the columns listed are
  // encrypted, each with a DEK of its own) ...
  std::string footer_key_id;
  std::map<std::string, std::vector<std::string>> column_keys;  // master key id -> dotted paths
  // ... or one master key for the footer and every column (uniform).
  std::string uniform_key_id;
  crypto::Algorithm algorithm = crypto::Algorithm::kAesGcmV1;
  bool plaintext_footer = false;
  bool double_wrapping = true;
  bool internal_key_material = true;
  int data_key_length_bits = 128;  // 128, 192 or 256
  int kek_length_bits = 128;       // 128, 192 or 256
  // Written into the footer key's material for readers that pick their KMS
  // by it; parquet-java's defaults.
  std::string kms_instance_id = "DEFAULT";
  std::string kms_instance_url = "DEFAULT";
  std::string aad_prefix;
  bool store_aad_prefix = true;
};

// The keys of one file to write.
struct FileEncryption {
  crypto::EncryptionOptions options;
  // External key material (empty when internal): key reference -> material.
  std::map<std::string, std::string> external_key_material;

  // Writes the external key material beside the finished data file; a no-op
  // for internal material. Called only after the data file is complete, so
  // that a failed write leaves no key material behind that names no file.
  void commit(const std::string& data_file_path) const;
};

// Makes the keys of files to write from a config and a KMS. KEKs are made
// once per master key and reused for every file of the factory, as
// parquet-java caches them (for its cache lifetime, here the factory's): one
// KMS call per master key, not per file or column. Thread-safe.
class CryptoFactory {
 public:
  // Throws kInvalidArgument for an inconsistent config (no keys, footer and
  // uniform keys both, a column under two keys, a bad key length).
  CryptoFactory(EncryptionConfig config, std::shared_ptr<KmsClient> kms);
  // Fresh random DEKs for one file, wrapped; KMS errors pass through.
  FileEncryption file_encryption();

  // A key-encryption key with what its material records (public for the
  // rotation code, which makes them too).
  struct Kek {
    std::string key;
    std::string id;  // raw 16 bytes: the AAD of the DEKs it wraps
    std::string encoded_id;
    std::string wrapped;
  };

 private:
  EncryptionConfig config_;
  std::shared_ptr<KmsClient> kms_;
  std::mutex mutex_;
  std::map<std::string, Kek> keks_;  // by master key id
};

// A writer's keys as a user gives them (the tool's options, Python's
// Encryption): explicit keys, or with `kms` master key ids whose random
// data keys are wrapped as CryptoFactory does.
struct EncryptionRequest {
  std::string footer_key;                                        // a key, or a master key id
  std::vector<std::pair<std::string, std::string>> column_keys;  // dotted path, key or master key id
  crypto::Algorithm algorithm = crypto::Algorithm::kAesGcmV1;
  bool plaintext_footer = false;
  std::string aad_prefix;
  bool store_aad_prefix = true;
  std::shared_ptr<KmsClient> kms;  // null: the keys are the keys
  bool double_wrapping = true;
  bool internal_key_material = true;
  int data_key_length_bits = 128;
};
// One file's keys for the request (no column keys: every column under the
// footer key). Throws kInvalidArgument for wrapping settings without a KMS.
FileEncryption file_encryption(const EncryptionRequest& request);

// The key retriever a reader needs for files written with key material:
// parses each key_metadata, finds external material beside
// `data_file_path` (read once, on first need), and unwraps with `kms`. KEKs
// are unwrapped once per retriever. key_metadata that is not JSON (keys
// named by other schemes) yields "" (unknown); malformed PKMT1 material and
// KMS failures throw parq::Error. Local paths only for external material.
crypto::KeyRetriever make_key_retriever(std::shared_ptr<KmsClient> kms, std::string data_file_path = {});

// Re-wraps every key of a data file's external key material: unwrapped with
// `current`, wrapped again with `next` under the same master key ids (new
// KEKs when double wrapped), and the material file replaced atomically. The
// data file is not touched. Throws kInvalidArgument when the file has no
// external key material: keys stored inside a file cannot be rotated
// without rewriting it (parquet-java refuses too).
void rotate_master_keys(const std::string& data_file_path, KmsClient& current, KmsClient& next);

}  // namespace parq::keys
