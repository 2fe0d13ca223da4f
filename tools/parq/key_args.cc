// The commands' key options; see key_args.h.
#include "key_args.h"

#include <fstream>
#include <initializer_list>
#include <sstream>

#include "../../src/util/base64.h"
#include "../../src/util/hex.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/keys/key_tools.h"

namespace parq::tool {
namespace {}  // namespace

std::vector<OptionSpec> with_key_options(std::vector<OptionSpec> options, const std::string& prefix) {
  // The specs keep pointers to their names for the parser's lifetime.
  static std::vector<std::unique_ptr<std::string>> names;
  for (const char* name : {"footer-key", "column-key", "aad-prefix", "kms-config"}) {
    names.push_back(std::make_unique<std::string>(prefix + name));
    options.push_back({names.back()->c_str(), true});
  }
  return options;
}

std::vector<OptionSpec> with_encryption_options(std::vector<OptionSpec> options) {
  for (OptionSpec spec : std::initializer_list<OptionSpec>{{"footer-key", true},
                                                           {"column-key", true},
                                                           {"plaintext-footer", false},
                                                           {"encryption-algorithm", true},
                                                           {"aad-prefix", true},
                                                           {"no-store-aad-prefix", false},
                                                           {"kms-config", true},
                                                           {"external-key-material", false},
                                                           {"single-wrapping", false},
                                                           {"data-key-bits", true}})
    options.push_back(spec);
  return options;
}

std::optional<keys::FileEncryption> parse_encryption(const Args& args) {
  const auto footer = args.value("footer-key");
  if (!footer) {
    for (const char* needs : {"column-key", "plaintext-footer", "encryption-algorithm", "no-store-aad-prefix",
                              "external-key-material", "single-wrapping", "data-key-bits"})
      if (args.value(needs)) throw UsageError(std::string("--") + needs + " needs --footer-key");
    return std::nullopt;
  }
  keys::EncryptionRequest r;
  if (auto v = args.value("encryption-algorithm")) {
    if (*v == "AES_GCM_V1" || *v == "gcm") {
      r.algorithm = crypto::Algorithm::kAesGcmV1;
    } else if (*v == "AES_GCM_CTR_V1" || *v == "gcm-ctr") {
      r.algorithm = crypto::Algorithm::kAesGcmCtrV1;
    } else {
      throw UsageError("--encryption-algorithm takes AES_GCM_V1 or AES_GCM_CTR_V1, not '" + *v + "'");
    }
  }
  r.plaintext_footer = args.flag("plaintext-footer");
  r.aad_prefix = args.value("aad-prefix").value_or("");
  r.store_aad_prefix = !args.flag("no-store-aad-prefix");
  if (!r.store_aad_prefix && r.aad_prefix.empty()) throw UsageError("--no-store-aad-prefix needs --aad-prefix");
  const auto config = args.value("kms-config");
  if (!config)
    for (const char* needs : {"external-key-material", "single-wrapping", "data-key-bits"})
      if (args.flag(needs)) throw UsageError(std::string("--") + needs + " needs --kms-config");
  // With a KMS, KEYs are master key ids: data keys are drawn per file and
  // wrapped.
  auto key = [&](const std::string& text, const std::string& what) { return config ? text : parse_key(text, what); };
  r.footer_key = key(*footer, "--footer-key");
  for (const std::string& entry : args.all("column-key")) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--column-key takes COLUMN=KEY, not '" + entry + "'");
    const std::string column = entry.substr(0, eq);
    r.column_keys.emplace_back(column, key(entry.substr(eq + 1), "--column-key " + column));
  }
  if (config) {
    r.kms = keys::load_kms_config(*config);
    r.double_wrapping = !args.flag("single-wrapping");
    r.internal_key_material = !args.flag("external-key-material");
    if (auto v = args.value("data-key-bits")) {
      const int64_t bits = parse_count("data-key-bits", *v);
      if (bits != 128 && bits != 192 && bits != 256) throw UsageError("--data-key-bits takes 128, 192 or 256");
      r.data_key_length_bits = static_cast<int>(bits);
    }
  }
  return keys::file_encryption(r);
}

std::string parse_key(const std::string& text, const std::string& what) {
  if (text.rfind("base64:", 0) == 0) {
    std::optional<std::string> key = base64_decode(text.substr(7));
    if (!key) throw UsageError(what + ": not base64 (with its '=' padding)");
    return *key;
  }
  if (text.rfind('@', 0) == 0) {
    std::ifstream in(text.substr(1), std::ios::binary);
    if (!in) throw UsageError(what + ": cannot read the key file " + text.substr(1));
    std::ostringstream bytes;
    bytes << in.rdbuf();
    std::string key = bytes.str();
    // A key file written by echo ends in a line break that is not the key's.
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r') && key.size() % 8 != 0) key.pop_back();
    return key;
  }
  if (text.size() % 2 != 0) throw UsageError(what + ": a hex key needs an even number of digits");
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2) {
    const int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0)
      throw UsageError(what + ": '" + text.substr(i, 2) + "' is not hex (give base64:... or @FILE otherwise)");
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return out;
}

crypto::DecryptionOptions decryption_options(const Args& args, const std::string& location, const std::string& prefix) {
  (void)location;
  crypto::DecryptionOptions out;
  if (auto v = args.value(prefix + "footer-key")) out.footer_key = parse_key(*v, "--" + prefix + "footer-key");
  for (const std::string& entry : args.all(prefix + "column-key")) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--" + prefix + "column-key takes COLUMN=KEY, not '" + entry + "'");
    out.column_keys[entry.substr(0, eq)] =
        parse_key(entry.substr(eq + 1), "--" + prefix + "column-key " + entry.substr(0, eq));
  }
  if (auto v = args.value(prefix + "aad-prefix")) out.aad_prefix = *v;
  if (auto v = args.value(prefix + "kms-config")) {
    std::shared_ptr<keys::KmsClient> kms = keys::load_kms_config(*v);
    // Each file's external key material lies beside it.
    out.file_key_retriever = [kms](const std::string& file) { return keys::make_key_retriever(kms, file); };
  }
  return out;
}

ReaderOptions reader_options(const Args& args, const std::string& location, const std::string& prefix) {
  ReaderOptions options;
  options.footer.decryption = decryption_options(args, location, prefix);
  return options;
}

}  // namespace parq::tool
