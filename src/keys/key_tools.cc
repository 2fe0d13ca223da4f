// Wrapping the keys of files to write, unwrapping them for readers, and
// rotating master keys: parquet-java's FileKeyWrapper, FileKeyUnwrapper and
// KeyToolkit.rotateMasterKeys.

#include "parq/keys/key_tools.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <set>

#include "../crypto/aes.h"
#include "../util/base64.h"
#include "parq/error.h"
#include "parq/text/json_text.h"

namespace parq::keys {
namespace {

constexpr size_t kKekIdSize = 16;  // FileKeyWrapper.KEK_ID_LENGTH

std::string random_key(size_t n) {
  std::string key(n, '\0');
  crypto::random_bytes(reinterpret_cast<uint8_t*>(key.data()), n);
  return key;
}

CryptoFactory::Kek make_kek(KmsClient& kms, const std::string& master_key_id, size_t length) {
  CryptoFactory::Kek kek;
  kek.key = random_key(length);
  kek.id = random_key(kKekIdSize);
  std::string quoted;
  text::append_base64(quoted, kek.id);
  kek.encoded_id = quoted.substr(1, quoted.size() - 2);
  kek.wrapped = kms.wrap_key(kek.key, master_key_id);
  return kek;
}

// Makes the key metadata of the keys of one file, and for external storage
// collects their material under "footerKey", "columnKey0", "columnKey1"...
class KeyWrapper {
 public:
  using KekSource = std::function<CryptoFactory::Kek(const std::string& master_key_id)>;

  KeyWrapper(KmsClient& kms, bool double_wrapping, KekSource keks, bool internal, std::string kms_instance_id,
             std::string kms_instance_url)
      : kms_(kms),
        double_wrapping_(double_wrapping),
        keks_(std::move(keks)),
        internal_(internal),
        kms_instance_id_(std::move(kms_instance_id)),
        kms_instance_url_(std::move(kms_instance_url)) {}

  // `reference` names the key in external material; empty: the next name.
  std::string key_metadata(const std::string& dek, const std::string& master_key_id, bool footer,
                           std::string reference = {}) {
    KeyMaterial m;
    m.is_footer_key = footer;
    if (footer) {
      m.kms_instance_id = kms_instance_id_;
      m.kms_instance_url = kms_instance_url_;
    }
    m.master_key_id = master_key_id;
    m.double_wrapping = double_wrapping_;
    if (double_wrapping_) {
      const CryptoFactory::Kek kek = keks_(master_key_id);
      m.wrapped_dek = wrap_key_locally(dek, kek.key, kek.id);
      m.kek_id = kek.encoded_id;
      m.wrapped_kek = kek.wrapped;
    } else {
      m.wrapped_dek = kms_.wrap_key(dek, master_key_id);
    }
    if (internal_) return m.serialize(true);
    if (reference.empty()) reference = footer ? "footerKey" : "columnKey" + std::to_string(column_keys_++);
    material_[reference] = m.serialize(false);
    return KeyMetadata::serialize_external(reference);
  }

  std::map<std::string, std::string>& material() { return material_; }

 private:
  KmsClient& kms_;
  bool double_wrapping_;
  KekSource keks_;
  bool internal_;
  std::string kms_instance_id_;
  std::string kms_instance_url_;
  int column_keys_ = 0;
  std::map<std::string, std::string> material_;
};

// Unwraps DEKs from their material, each KEK once.
class KeyUnwrapper {
 public:
  explicit KeyUnwrapper(KmsClient& kms) : kms_(kms) {}

  std::string dek(const KeyMaterial& m) {
    try {
      if (!m.double_wrapping) return kms_.unwrap_key(m.wrapped_dek, m.master_key_id);
      const std::optional<std::string> kek_id = base64_decode(m.kek_id);
      if (!kek_id) throw Error(ErrorKind::kCorrupt, {}, "its keyEncryptionKeyID is not base64: '" + m.kek_id + "'");
      return unwrap_key_locally(m.wrapped_dek, kek(m), *kek_id);
    } catch (const Error& e) {
      throw e.with_context(describe(m));
    }
  }

  // The KEK of double-wrapped material, unwrapped once per KEK id.
  const std::string& kek(const KeyMaterial& m) {
    auto it = keks_.find(m.kek_id);
    if (it == keks_.end()) it = keks_.emplace(m.kek_id, kms_.unwrap_key(m.wrapped_kek, m.master_key_id)).first;
    return it->second;
  }

  static std::string describe(const KeyMaterial& m) {
    return std::string(m.is_footer_key ? "the footer key" : "a column key") + " (master key '" + m.master_key_id + "')";
  }

 private:
  KmsClient& kms_;
  std::map<std::string, std::string> keks_;  // by encoded KEK id
};

void check_length(int bits, const char* what) {
  if (bits != 128 && bits != 192 && bits != 256)
    throw Error(ErrorKind::kInvalidArgument, {},
                std::string(what) + " must be 128, 192 or 256 bits, not " + std::to_string(bits));
}

}  // namespace

void FileEncryption::commit(const std::string& data_file_path) const {
  if (!external_key_material.empty()) write_key_material(data_file_path, external_key_material);
}

namespace {

// What every way of making a file's keys sets alike.
crypto::EncryptionOptions options_without_keys(crypto::Algorithm algorithm, bool plaintext_footer,
                                               const std::string& aad_prefix, bool store_aad_prefix) {
  crypto::EncryptionOptions o;
  o.algorithm = algorithm;
  o.encrypted_footer = !plaintext_footer;
  o.aad_prefix = aad_prefix;
  o.store_aad_prefix = store_aad_prefix;
  return o;
}

}  // namespace

FileEncryption file_encryption(const EncryptionRequest& r) {
  if (!r.kms) {
    if (!r.double_wrapping || !r.internal_key_material || r.data_key_length_bits != 128)
      throw Error(ErrorKind::kInvalidArgument, {},
                  "double wrapping, external key material and the data key length need a KMS");
    FileEncryption out;
    crypto::EncryptionOptions& o = out.options;
    o = options_without_keys(r.algorithm, r.plaintext_footer, r.aad_prefix, r.store_aad_prefix);
    o.footer_key = r.footer_key;
    for (const auto& [column, key] : r.column_keys) o.column_keys[column].key = key;
    return out;
  }
  EncryptionConfig c;
  if (r.column_keys.empty()) {
    c.uniform_key_id = r.footer_key;
  } else {
    c.footer_key_id = r.footer_key;
    for (const auto& [column, id] : r.column_keys) c.column_keys[id].push_back(column);
  }
  c.algorithm = r.algorithm;
  c.plaintext_footer = r.plaintext_footer;
  c.double_wrapping = r.double_wrapping;
  c.internal_key_material = r.internal_key_material;
  c.data_key_length_bits = r.data_key_length_bits;
  c.aad_prefix = r.aad_prefix;
  c.store_aad_prefix = r.store_aad_prefix;
  return CryptoFactory(std::move(c), r.kms).file_encryption();
}

CryptoFactory::CryptoFactory(EncryptionConfig config, std::shared_ptr<KmsClient> kms)
    : config_(std::move(config)), kms_(std::move(kms)) {
  auto bad = [](const std::string& detail) { throw Error(ErrorKind::kInvalidArgument, {}, detail); };
  if (!kms_) bad("no KMS client given to make the file's keys");
  if (!config_.uniform_key_id.empty()) {
    if (!config_.footer_key_id.empty())
      bad("uniform encryption (master key '" + config_.uniform_key_id + "') cannot have a footer key too");
    if (!config_.column_keys.empty())
      bad("uniform encryption (master key '" + config_.uniform_key_id + "') cannot have column keys too");
  } else {
    if (config_.footer_key_id.empty())
      bad(config_.column_keys.empty() ? "no master keys configured: give a uniform key, or a footer key and column keys"
                                      : "column keys need a footer key too");
    if (config_.column_keys.empty())
      bad("a footer key needs column keys (or give it as the uniform key to encrypt every column with it)");
    std::set<std::string> seen;
    for (const auto& [id, paths] : config_.column_keys) {
      if (id.empty()) bad("a column master key id is empty");
      if (paths.empty()) bad("master key '" + id + "' has no columns");
      for (const std::string& path : paths) {
        if (path.empty()) bad("an empty column name for master key '" + id + "'");
        if (!seen.insert(path).second) bad("column '" + path + "' is given two keys");
      }
    }
  }
  check_length(config_.data_key_length_bits, "the data key length");
  check_length(config_.kek_length_bits, "the key encryption key length");
}

FileEncryption CryptoFactory::file_encryption() {
  const bool uniform = !config_.uniform_key_id.empty();
  const size_t dek_length = static_cast<size_t>(config_.data_key_length_bits / 8);
  const size_t kek_length = static_cast<size_t>(config_.kek_length_bits / 8);
  KeyWrapper wrapper(
      *kms_, config_.double_wrapping,
      [&](const std::string& master_key_id) {
        std::lock_guard lock(mutex_);
        auto it = keks_.find(master_key_id);
        if (it == keks_.end()) it = keks_.emplace(master_key_id, make_kek(*kms_, master_key_id, kek_length)).first;
        return it->second;
      },
      config_.internal_key_material, config_.kms_instance_id, config_.kms_instance_url);

  FileEncryption file;
  crypto::EncryptionOptions& o = file.options;
  o = options_without_keys(config_.algorithm, config_.plaintext_footer, config_.aad_prefix, config_.store_aad_prefix);
  o.footer_key = random_key(dek_length);
  o.footer_key_metadata =
      wrapper.key_metadata(o.footer_key, uniform ? config_.uniform_key_id : config_.footer_key_id, true);
  if (!uniform) {
    for (const auto& [master_key_id, paths] : config_.column_keys) {
      for (const std::string& path : paths) {
        crypto::ColumnKey& c = o.column_keys[path];
        c.key = random_key(dek_length);
        c.key_metadata = wrapper.key_metadata(c.key, master_key_id, false);
      }
    }
  }
  file.external_key_material = std::move(wrapper.material());
  return file;
}

crypto::KeyRetriever make_key_retriever(std::shared_ptr<KmsClient> kms, std::string data_file_path) {
  if (!kms) throw Error(ErrorKind::kInvalidArgument, {}, "no KMS client given to unwrap the file's keys");
  struct State {
    std::shared_ptr<KmsClient> kms;
    std::string path;
    KeyUnwrapper unwrapper;
    std::optional<std::map<std::string, std::string>> external;
    std::mutex mutex;
    State(std::shared_ptr<KmsClient> k, std::string p) : kms(std::move(k)), path(std::move(p)), unwrapper(*kms) {}
  };
  auto state = std::make_shared<State>(std::move(kms), std::move(data_file_path));
  return [state](const std::string& key_metadata) -> std::string {
    // Key metadata of other schemes (a key's name, say) is not ours to judge.
    const size_t start = key_metadata.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || key_metadata[start] != '{') return {};
    const KeyMetadata metadata = KeyMetadata::parse(key_metadata);
    std::lock_guard lock(state->mutex);
    if (metadata.internal_storage) return state->unwrapper.dek(metadata.material);
    if (state->path.empty())
      throw Error(ErrorKind::kInvalidArgument, {},
                  "the file's key material is stored beside it, and no data file path was given to find it");
    if (!state->external) state->external = read_key_material(state->path);
    auto it = state->external->find(metadata.key_reference);
    if (it == state->external->end())
      throw Error(ErrorKind::kCorrupt, {.file = key_material_path(state->path)},
                  "the external key material has no key \"" + metadata.key_reference + "\"");
    return state->unwrapper.dek(KeyMaterial::parse(it->second));
  };
}

void rotate_master_keys(const std::string& data_file_path, KmsClient& current, KmsClient& next) {
  const std::string material_path = key_material_path(data_file_path);
  if (data_file_path.find("://") == std::string::npos && !std::filesystem::exists(material_path))
    throw Error(ErrorKind::kInvalidArgument, {.file = data_file_path},
                "no external key material at " + material_path +
                    ": master keys can be rotated only for key material stored beside the file, not inside it");
  const std::map<std::string, std::string> old_material = read_key_material(data_file_path);
  KeyUnwrapper unwrapper(current);
  std::map<std::string, CryptoFactory::Kek> keks;  // new ones, by master key id
  std::map<std::string, std::string> new_material;
  for (const auto& [reference, text] : old_material) {
    try {
      const KeyMaterial old_key = KeyMaterial::parse(text);
      const std::string dek = unwrapper.dek(old_key);
      KeyWrapper wrapper(
          next, old_key.double_wrapping,
          [&](const std::string& master_key_id) {
            auto it = keks.find(master_key_id);
            // A new KEK as long as the old: rotation changes master keys, not key sizes.
            if (it == keks.end())
              it = keks.emplace(master_key_id, make_kek(next, master_key_id, unwrapper.kek(old_key).size())).first;
            return it->second;
          },
          false, old_key.kms_instance_id, old_key.kms_instance_url);
      wrapper.key_metadata(dek, old_key.master_key_id, old_key.is_footer_key, reference);
      new_material.emplace(reference, wrapper.material().at(reference));
    } catch (const Error& e) {
      throw e.with_context("rotating key \"" + reference + "\"").within({.file = material_path});
    }
  }
  write_key_material(data_file_path, new_material);
}

}  // namespace parq::keys
