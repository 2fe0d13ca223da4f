// Keys for encrypted files: the `decryption` and `encryption` arguments as
// the Python layer normalizes them (parq/_crypto.py), and the in-memory KMS.
#include "encryption.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include "common.h"
#include "parq/error.h"
#include "parq/keys/key_tools.h"

namespace parq::python {
namespace {

[[noreturn]] void invalid(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, {}, what); }

std::string bytes_of(nb::handle v, const std::string& what) {
  if (nb::isinstance<nb::bytes>(v)) {
    nb::bytes b = nb::borrow<nb::bytes>(v);
    return {b.c_str(), b.size()};
  }
  invalid(what + " is bytes");
}

nb::dict dict_of(nb::handle v, const std::string& what) {
  if (!nb::isinstance<nb::dict>(v)) invalid(what + " is a dict");
  return nb::borrow<nb::dict>(v);
}

// A KMS from "kms_config": a path to a JSON file, or a dict of master key
// ids to keys in hex.
std::shared_ptr<keys::InMemoryKms> kms_of(nb::handle v) {
  if (nb::isinstance<nb::str>(v)) return keys::load_kms_config(nb::cast<std::string>(v));
  std::map<std::string, std::string> hex_keys;
  for (auto [k, hex] : dict_of(v, "kms_config")) {
    if (!nb::isinstance<nb::str>(k) || !nb::isinstance<nb::str>(hex))
      invalid("kms_config maps master key ids to keys in hex (both str)");
    hex_keys[nb::cast<std::string>(k)] = nb::cast<std::string>(hex);
  }
  return std::make_shared<keys::InMemoryKms>(keys::master_keys_from_hex(hex_keys));
}

void check_known(const nb::dict& d, std::initializer_list<const char*> known, const char* what) {
  for (auto [k, v] : d) {
    const std::string key = nb::cast<std::string>(nb::str(k));
    bool ok = false;
    for (const char* name : known) ok = ok || key == name;
    if (!ok) invalid(std::string(what) + ": unknown option '" + key + "'");
  }
}

}  // namespace

crypto::DecryptionOptions decryption_of(nb::handle decryption) {
  crypto::DecryptionOptions out;
  if (decryption.is_none()) return out;
  nb::dict d = dict_of(decryption, "decryption");
  check_known(d, {"footer_key", "column_keys", "aad_prefix", "kms_config", "verify_footer_signature"}, "decryption");
  if (d.contains("footer_key")) out.footer_key = bytes_of(d["footer_key"], "decryption footer_key");
  if (d.contains("column_keys"))
    for (auto [column, key] : dict_of(d["column_keys"], "decryption column_keys"))
      out.column_keys[nb::cast<std::string>(column)] = bytes_of(key, "a column key");
  if (d.contains("aad_prefix")) out.aad_prefix = bytes_of(d["aad_prefix"], "decryption aad_prefix");
  if (d.contains("verify_footer_signature")) out.verify_footer_signature = nb::cast<bool>(d["verify_footer_signature"]);
  if (d.contains("kms_config")) {
    std::shared_ptr<keys::KmsClient> kms = kms_of(d["kms_config"]);
    out.file_key_retriever = [kms](const std::string& file) { return keys::make_key_retriever(kms, file); };
  }
  return out;
}

std::optional<keys::FileEncryption> encryption_of(nb::handle encryption) {
  if (encryption.is_none()) return std::nullopt;
  nb::dict d = dict_of(encryption, "encryption");
  check_known(d,
              {"footer_key", "column_keys", "plaintext_footer", "algorithm", "aad_prefix", "store_aad_prefix",
               "kms_config", "external_key_material", "double_wrapping", "data_key_bits"},
              "encryption");
  if (!d.contains("footer_key")) invalid("encryption needs a footer_key");
  keys::EncryptionRequest r;
  const std::string algorithm = d.contains("algorithm") ? nb::cast<std::string>(d["algorithm"]) : "AES_GCM_V1";
  if (algorithm != "AES_GCM_V1" && algorithm != "AES_GCM_CTR_V1")
    invalid("encryption algorithm is AES_GCM_V1 or AES_GCM_CTR_V1, not '" + algorithm + "'");
  r.algorithm = algorithm == "AES_GCM_V1" ? crypto::Algorithm::kAesGcmV1 : crypto::Algorithm::kAesGcmCtrV1;
  r.plaintext_footer = d.contains("plaintext_footer") && nb::cast<bool>(d["plaintext_footer"]);
  if (d.contains("aad_prefix")) r.aad_prefix = bytes_of(d["aad_prefix"], "encryption aad_prefix");
  r.store_aad_prefix = !d.contains("store_aad_prefix") || nb::cast<bool>(d["store_aad_prefix"]);
  // With a KMS, keys are master key ids (str); without, the keys (bytes).
  const bool kms = d.contains("kms_config");
  auto key = [&](nb::handle v, const char* what) { return kms ? nb::cast<std::string>(v) : bytes_of(v, what); };
  r.footer_key = key(d["footer_key"], "encryption footer_key");
  if (d.contains("column_keys"))
    for (auto [column, k] : dict_of(d["column_keys"], "encryption column_keys"))
      r.column_keys.emplace_back(nb::cast<std::string>(column), key(k, "a column key"));
  if (kms) {
    r.kms = kms_of(d["kms_config"]);
    r.double_wrapping = !d.contains("double_wrapping") || nb::cast<bool>(d["double_wrapping"]);
    r.internal_key_material = !(d.contains("external_key_material") && nb::cast<bool>(d["external_key_material"]));
    if (d.contains("data_key_bits")) r.data_key_length_bits = nb::cast<int>(d["data_key_bits"]);
  } else {
    for (const char* needs : {"external_key_material", "double_wrapping", "data_key_bits"})
      if (d.contains(needs)) invalid(std::string("encryption ") + needs + " needs kms_config");
  }
  return keys::file_encryption(r);
}

void register_encryption(nb::module_& m) {
  nb::class_<keys::InMemoryKms>(m, "_InMemoryKms",
                                "A KMS holding its master keys, wrapping as parquet-java's InMemoryKMS.")
      .def_static(
          "from_config", [](nb::handle config) { return kms_of(config); }, nb::arg("config"),
          "From a path to a JSON file, or a dict of master key ids to keys in hex.")
      .def(
          "wrap_key",
          [](keys::InMemoryKms& kms, nb::bytes key, const std::string& id) {
            return kms.wrap_key(std::string(key.c_str(), key.size()), id);
          },
          nb::arg("key"), nb::arg("master_key_id"), "The key wrapped (base64 text).")
      .def(
          "unwrap_key",
          [](keys::InMemoryKms& kms, const std::string& wrapped, const std::string& id) {
            std::string key = kms.unwrap_key(wrapped, id);
            return nb::bytes(key.data(), key.size());
          },
          nb::arg("wrapped_key"), nb::arg("master_key_id"), "The key a wrap_key result holds.");
  m.def(
      "_rotate_master_keys",
      [](const std::string& path, nb::handle current, nb::handle next) {
        auto from = kms_of(current);
        auto to = kms_of(next);
        nb::gil_scoped_release release;
        keys::rotate_master_keys(path, *from, *to);
      },
      nb::arg("path"), nb::arg("current"), nb::arg("next"));
}

}  // namespace parq::python
