// The in-memory KMS, its config file, and local AES-GCM key wrapping.

#include "../crypto/aes.h"
#include "../util/base64.h"
#include "../util/hex.h"
#include "local_text.h"
#include "parq/crypto/module_cipher.h"
#include "parq/error.h"
#include "parq/keys/key_tools.h"
#include "parq/text/json_text.h"
#include "parq/text/text_input.h"

namespace parq::keys {
namespace {

constexpr size_t kNonceSize = 12;
constexpr size_t kTagSize = 16;

bool valid_key_size(size_t n) { return n == 16 || n == 24 || n == 32; }

[[noreturn]] void bad_config(const std::string& detail) {
  throw Error(ErrorKind::kInvalidArgument, {}, "KMS config: " + detail);
}

std::string decode_hex_key(std::string_view id, std::string_view hex) {
  if (hex.size() % 2 != 0)
    bad_config("master key '" + std::string(id) + "' has an odd number of hexadecimal digits (" +
               std::to_string(hex.size()) + ")");
  std::string key(hex.size() / 2, '\0');
  for (size_t i = 0; i < hex.size(); ++i) {
    const int d = hex_value(hex[i]);
    if (d < 0)
      bad_config("master key '" + std::string(id) + "' is not hexadecimal: '" + std::string(1, hex[i]) +
                 "' at character " + std::to_string(i + 1));
    key[i / 2] = static_cast<char>(i % 2 == 0 ? d << 4 : static_cast<uint8_t>(key[i / 2]) | d);
  }
  if (!valid_key_size(key.size()))
    bad_config("master key '" + std::string(id) + "' is " + std::to_string(key.size()) +
               " bytes; an AES key is 16, 24 or 32 bytes (32, 48 or 64 hexadecimal digits)");
  return key;
}

}  // namespace

std::string wrap_key_locally(std::string_view key, std::string_view wrapping_key, std::string_view aad) {
  std::string out(kNonceSize + key.size() + kTagSize, '\0');
  auto* p = reinterpret_cast<uint8_t*>(out.data());
  crypto::random_bytes(p, kNonceSize);
  crypto::gcm_encrypt(wrapping_key, p, crypto::bytes_of(aad), crypto::bytes_of(key), p + kNonceSize,
                      p + kNonceSize + key.size());
  std::string quoted;
  text::append_base64(quoted, out);
  return quoted.substr(1, quoted.size() - 2);
}

std::string unwrap_key_locally(std::string_view wrapped, std::string_view wrapping_key, std::string_view aad) {
  const std::optional<std::string> raw = base64_decode(wrapped);
  if (!raw) throw Error(ErrorKind::kCorrupt, {}, "a wrapped key is not base64: '" + std::string(wrapped) + "'");
  if (raw->size() <= kNonceSize + kTagSize)
    throw Error(ErrorKind::kCorrupt, {},
                "a wrapped key is " + std::to_string(raw->size()) + " bytes, too short for a nonce, a key and a tag");
  const auto* p = reinterpret_cast<const uint8_t*>(raw->data());
  const size_t n = raw->size() - kNonceSize - kTagSize;
  std::string key(n, '\0');
  if (!crypto::gcm_decrypt(wrapping_key, p, crypto::bytes_of(aad), {p + kNonceSize, n}, p + kNonceSize + n,
                           reinterpret_cast<uint8_t*>(key.data())))
    throw Error(ErrorKind::kCorrupt, {},
                "a wrapped key does not authenticate (AES-GCM): a wrong wrapping key or altered key material");
  return key;
}

InMemoryKms::InMemoryKms(std::map<std::string, std::string> master_keys) : master_keys_(std::move(master_keys)) {
  for (const auto& [id, key] : master_keys_)
    if (!valid_key_size(key.size()))
      throw Error(
          ErrorKind::kInvalidArgument, {},
          "master key '" + id + "' is " + std::to_string(key.size()) + " bytes; an AES key is 16, 24 or 32 bytes");
}

const std::string& InMemoryKms::master_key(const std::string& master_key_id) const {
  auto it = master_keys_.find(master_key_id);
  if (it == master_keys_.end())
    throw Error(ErrorKind::kUnsupported, {}, "the KMS has no master key '" + master_key_id + "'");
  return it->second;
}

std::string InMemoryKms::wrap_key(const std::string& key, const std::string& master_key_id) {
  return wrap_key_locally(key, master_key(master_key_id), master_key_id);
}

std::string InMemoryKms::unwrap_key(const std::string& wrapped_key, const std::string& master_key_id) {
  try {
    return unwrap_key_locally(wrapped_key, master_key(master_key_id), master_key_id);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kCorrupt) throw;
    throw Error(ErrorKind::kCorrupt, {}, "unwrapping with master key '" + master_key_id + "': " + e.detail());
  }
}

std::map<std::string, std::string> parse_kms_config(std::string_view json) {
  text::TextRow row;
  try {
    text::parse_json(json, row);
  } catch (const Error& e) {
    bad_config(e.detail());
  }
  const text::TextNode& root = row.nodes[0];
  if (root.kind != text::NodeKind::kObject)
    bad_config("expected a JSON object mapping master key ids to hexadecimal keys");
  std::map<std::string, std::string> keys;
  size_t i = 1;
  for (uint32_t k = 0; k < root.size; ++k) {
    const text::TextNode& node = row.nodes[i];
    i += node.span + 1;
    if (node.kind != text::NodeKind::kText)
      bad_config("master key '" + std::string(node.key) + "' is not a string of hexadecimal digits");
    if (node.key.empty()) bad_config("a master key id is empty");
    if (keys.count(std::string(node.key))) bad_config("master key '" + std::string(node.key) + "' is given twice");
    keys.emplace(std::string(node.key), std::string(node.text));
  }
  return master_keys_from_hex(keys);
}

std::map<std::string, std::string> master_keys_from_hex(const std::map<std::string, std::string>& hex_keys) {
  if (hex_keys.empty()) bad_config("no master keys");
  std::map<std::string, std::string> keys;
  for (const auto& [id, hex] : hex_keys) {
    if (id.empty()) bad_config("a master key id is empty");
    keys.emplace(id, decode_hex_key(id, hex));
  }
  return keys;
}

std::shared_ptr<InMemoryKms> load_kms_config(const std::string& path) {
  const std::string text = read_local_text(path, "the KMS config");
  try {
    return std::make_shared<InMemoryKms>(parse_kms_config(text));
  } catch (const Error& e) {
    throw e.within({.file = path});
  }
}

}  // namespace parq::keys
