// The keys of an encrypted file; see crypto/file_crypto.h.
#include "parq/crypto/file_crypto.h"

#include "aes.h"
#include "parq/error.h"

namespace parq::crypto {
namespace {

// Long enough that two files written with one key never share it (the
// format leaves the length to the writer; parquet-java draws 8 bytes).
constexpr size_t kFileUniqueSize = 8;

std::string dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

struct AlgorithmFields {
  const std::optional<std::string>* aad_prefix;
  const std::optional<std::string>* aad_file_unique;
  const std::optional<bool>* supply_aad_prefix;
};

AlgorithmFields fields_of(const format::EncryptionAlgorithm& a) {
  if (a.AES_GCM_V1)
    return {&a.AES_GCM_V1->aad_prefix, &a.AES_GCM_V1->aad_file_unique, &a.AES_GCM_V1->supply_aad_prefix};
  return {&a.AES_GCM_CTR_V1->aad_prefix, &a.AES_GCM_CTR_V1->aad_file_unique, &a.AES_GCM_CTR_V1->supply_aad_prefix};
}

}  // namespace

Algorithm algorithm_of(const format::EncryptionAlgorithm& algorithm) {
  if (algorithm.AES_GCM_V1) return Algorithm::kAesGcmV1;
  if (algorithm.AES_GCM_CTR_V1) return Algorithm::kAesGcmCtrV1;
  throw Error(ErrorKind::kUnsupported, {}, "the file is encrypted with an algorithm this version does not know");
}

FileDecryptor::FileDecryptor(const format::EncryptionAlgorithm& algorithm,
                             std::optional<std::string> footer_key_metadata, DecryptionOptions options)
    : algorithm_(algorithm_of(algorithm)),
      footer_key_metadata_(std::move(footer_key_metadata)),
      options_(std::move(options)) {
  const AlgorithmFields f = fields_of(algorithm);
  if (*f.aad_prefix) {
    if (options_.aad_prefix && *options_.aad_prefix != **f.aad_prefix)
      throw Error(ErrorKind::kInvalidArgument, {},
                  "the AAD prefix given (\"" + *options_.aad_prefix + "\") is not the one the file stores (\"" +
                      **f.aad_prefix + "\")");
    aad_prefix_ = **f.aad_prefix;
  } else if (options_.aad_prefix) {
    aad_prefix_ = *options_.aad_prefix;
  } else if (f.supply_aad_prefix->value_or(false)) {
    throw Error(ErrorKind::kInvalidArgument, {},
                "the file was encrypted with an AAD prefix it does not store: the reader must supply it");
  }
  file_aad_ = std::make_shared<const std::string>(aad_prefix_ + f.aad_file_unique->value_or(""));
}

const FileDecryptor::Resolved& FileDecryptor::resolve(const std::string& cache_key, const std::string& explicit_key,
                                                      const std::optional<std::string>& key_metadata,
                                                      const std::string& what) const {
  // A key given in the options with a wrong size is the caller's mistake,
  // reported as such (a retrieved one is the KMS's: kept as the reason).
  if (!explicit_key.empty()) check_key(explicit_key, what);
  std::lock_guard lock(mutex_);
  auto [it, fresh] = keys_.try_emplace(cache_key);
  if (!fresh) return it->second;
  Resolved& r = it->second;
  std::string key = explicit_key;
  if (key.empty() && options_.key_retriever) {
    try {
      key = options_.key_retriever(key_metadata.value_or(""));
    } catch (const Error& e) {
      r.why = "its key could not be retrieved: " + std::string(e.what());
      r.failed = true;
      return r;
    }
    if (key.empty()) {
      const std::string& m = key_metadata.value_or("");
      r.why = "the key retriever does not know its key metadata";
      if (!m.empty() && m.size() <= 64) r.why += " (\"" + m + "\")";
    }
  }
  if (key.empty()) {
    if (r.why.empty()) r.why = "no key was given for it";
    return r;
  }
  try {
    check_key(key, what);
  } catch (const Error& e) {
    r.why = e.detail();
    return r;
  }
  r.key = std::make_shared<const DataKey>(std::move(key));
  return r;
}

std::optional<ModuleCipher> FileDecryptor::footer_cipher(std::string* why, bool* failed) const {
  const Resolved& r = resolve("", options_.footer_key, footer_key_metadata_, "the footer key");
  if (!r.key) {
    if (why) *why = r.why;
    if (failed) *failed = r.failed;
    return std::nullopt;
  }
  return ModuleCipher(r.key, file_aad_, algorithm_);
}

std::optional<ModuleCipher> FileDecryptor::find_column_cipher(const format::FileMetaData& file, size_t row_group,
                                                              size_t column, std::string* why) const {
  const format::RowGroup& group = file.row_groups.at(row_group);
  const format::ColumnChunk& chunk = group.columns.at(column);
  if (!chunk.crypto_metadata) return ModuleCipher();
  const int32_t group_ordinal = group.ordinal ? *group.ordinal : static_cast<int32_t>(row_group);
  const Resolved* r;
  if (chunk.crypto_metadata->ENCRYPTION_WITH_COLUMN_KEY) {
    const format::EncryptionWithColumnKey& ck = *chunk.crypto_metadata->ENCRYPTION_WITH_COLUMN_KEY;
    const std::string path = dotted(ck.path_in_schema);
    auto given = options_.column_keys.find(path);
    r = &resolve("c:" + path, given == options_.column_keys.end() ? "" : given->second, ck.key_metadata,
                 "the key of column " + path);
  } else if (chunk.crypto_metadata->ENCRYPTION_WITH_FOOTER_KEY) {
    r = &resolve("", options_.footer_key, footer_key_metadata_, "the footer key");
  } else {
    if (why) *why = "its crypto metadata names no key";
    return std::nullopt;
  }
  if (!r->key) {
    if (why) *why = r->why;
    return std::nullopt;
  }
  return ModuleCipher(r->key, file_aad_, algorithm_, group_ordinal, static_cast<int32_t>(column));
}

ModuleCipher FileDecryptor::column_cipher(const format::FileMetaData& file, size_t row_group, size_t column) const {
  std::string why;
  std::optional<ModuleCipher> c = find_column_cipher(file, row_group, column, &why);
  if (!c) throw Error(ErrorKind::kUnsupported, {}, "the column is encrypted and cannot be read: " + why);
  return *c;
}

ModuleCipher chunk_cipher(const FileDecryptor* decryptor, const format::FileMetaData& file, size_t row_group,
                          size_t column) {
  if (!file.row_groups.at(row_group).columns.at(column).crypto_metadata) return ModuleCipher();
  if (decryptor == nullptr) throw Error(ErrorKind::kUnsupported, {}, "the column is encrypted, and no keys were given");
  return decryptor->column_cipher(file, row_group, column);
}

FileEncryptor::FileEncryptor(EncryptionOptions options) : options_(std::move(options)) {
  check_key(options_.footer_key, "the footer key");
  for (const auto& [path, ck] : options_.column_keys) {
    check_key(ck.key, "the key of column " + path);
    column_keys_[path] = std::make_shared<const DataKey>(ck.key);
  }
  footer_key_ = std::make_shared<const DataKey>(options_.footer_key);
  aad_file_unique_.resize(kFileUniqueSize);
  random_bytes(reinterpret_cast<uint8_t*>(aad_file_unique_.data()), aad_file_unique_.size());
  file_aad_ = std::make_shared<const std::string>(options_.aad_prefix + aad_file_unique_);
}

format::EncryptionAlgorithm FileEncryptor::algorithm() const {
  auto fill = [&](auto& a) {
    a.aad_file_unique = aad_file_unique_;
    if (!options_.aad_prefix.empty()) {
      if (options_.store_aad_prefix)
        a.aad_prefix = options_.aad_prefix;
      else
        a.supply_aad_prefix = true;
    }
  };
  format::EncryptionAlgorithm out;
  if (options_.algorithm == Algorithm::kAesGcmV1)
    fill(out.AES_GCM_V1.emplace());
  else
    fill(out.AES_GCM_CTR_V1.emplace());
  return out;
}

ModuleCipher FileEncryptor::footer_cipher() const { return ModuleCipher(footer_key_, file_aad_, options_.algorithm); }

void FileEncryptor::check_columns(const std::vector<std::string>& leaf_paths) const {
  for (const auto& [path, ck] : options_.column_keys) {
    bool found = false;
    for (const std::string& leaf : leaf_paths) found = found || leaf == path;
    if (!found)
      throw Error(ErrorKind::kInvalidArgument, {},
                  "a key is given for column " + path + ", which is not a leaf of the schema");
  }
}

bool FileEncryptor::is_encrypted(const std::string& dotted_path) const {
  return options_.column_keys.empty() || column_keys_.count(dotted_path) != 0;
}

ModuleCipher FileEncryptor::column_cipher(const std::string& dotted_path, int32_t row_group, int32_t column) const {
  if (options_.column_keys.empty()) return ModuleCipher(footer_key_, file_aad_, options_.algorithm, row_group, column);
  auto it = column_keys_.find(dotted_path);
  if (it == column_keys_.end()) return ModuleCipher();
  return ModuleCipher(it->second, file_aad_, options_.algorithm, row_group, column);
}

std::optional<format::ColumnCryptoMetaData> FileEncryptor::crypto_metadata(const std::string& dotted_path,
                                                                           const std::vector<std::string>& path) const {
  if (!is_encrypted(dotted_path)) return std::nullopt;
  format::ColumnCryptoMetaData out;
  if (options_.column_keys.empty()) {
    out.ENCRYPTION_WITH_FOOTER_KEY.emplace();
  } else {
    format::EncryptionWithColumnKey& ck = out.ENCRYPTION_WITH_COLUMN_KEY.emplace();
    ck.path_in_schema = path;
    const std::string& metadata = options_.column_keys.at(dotted_path).key_metadata;
    if (!metadata.empty()) ck.key_metadata = metadata;
  }
  return out;
}

bool FileEncryptor::encrypts_column_metadata(const std::string& dotted_path) const {
  if (!is_encrypted(dotted_path)) return false;
  return !options_.encrypted_footer || !options_.column_keys.empty();
}

}  // namespace parq::crypto
