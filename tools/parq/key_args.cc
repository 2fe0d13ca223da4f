// The commands' key options; see key_args.h.
#include "key_args.h"

#include <fstream>
#include <initializer_list>
#include <sstream>

#include "parq/error.h"

namespace parq::tool {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

std::string from_base64(const std::string& text, const std::string& what) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const int d = base64_digit(c);
    if (d < 0) throw UsageError(what + ": '" + std::string(1, c) + "' is not a base64 digit");
    acc = acc << 6 | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>(acc >> bits & 0xff));
    }
  }
  return out;
}

}  // namespace

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

std::optional<crypto::EncryptionOptions> parse_encryption(const Args& args) {
  const auto footer = args.value("footer-key");
  if (!footer) {
    for (const char* needs : {"column-key", "plaintext-footer", "encryption-algorithm", "no-store-aad-prefix",
                              "external-key-material", "single-wrapping", "data-key-bits"})
      if (args.value(needs)) throw UsageError(std::string("--") + needs + " needs --footer-key");
    return std::nullopt;
  }
  crypto::EncryptionOptions out;
  if (auto v = args.value("encryption-algorithm")) {
    if (*v == "AES_GCM_V1" || *v == "gcm") {
      out.algorithm = crypto::Algorithm::kAesGcmV1;
    } else if (*v == "AES_GCM_CTR_V1" || *v == "gcm-ctr") {
      out.algorithm = crypto::Algorithm::kAesGcmCtrV1;
    } else {
      throw UsageError("--encryption-algorithm takes AES_GCM_V1 or AES_GCM_CTR_V1, not '" + *v + "'");
    }
  }
  out.encrypted_footer = !args.flag("plaintext-footer");
  if (auto v = args.value("aad-prefix")) out.aad_prefix = *v;
  out.store_aad_prefix = !args.flag("no-store-aad-prefix");
  if (!out.store_aad_prefix && out.aad_prefix.empty()) throw UsageError("--no-store-aad-prefix needs --aad-prefix");
  if (args.value("kms-config")) throw UsageError("--kms-config: not available yet");
  out.footer_key = parse_key(*footer, "--footer-key");
  for (const std::string& entry : args.all("column-key")) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--column-key takes COLUMN=KEY, not '" + entry + "'");
    out.column_keys[entry.substr(0, eq)].key = parse_key(entry.substr(eq + 1), "--column-key " + entry.substr(0, eq));
  }
  return out;
}

std::string parse_key(const std::string& text, const std::string& what) {
  if (text.rfind("base64:", 0) == 0) return from_base64(text.substr(7), what);
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
    const int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
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
  if (args.value(prefix + "kms-config")) throw UsageError("--" + prefix + "kms-config: not available yet");
  return out;
}

ReaderOptions reader_options(const Args& args, const std::string& location, const std::string& prefix) {
  ReaderOptions options;
  options.footer.decryption = decryption_options(args, location, prefix);
  return options;
}

}  // namespace parq::tool
