// What the commands share for encrypted files: the keys to read them with
// (--footer-key, --column-key, --aad-prefix, --kms-config) and, for the
// writing commands, the keys to encrypt their output with.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "parq/crypto/encryption.h"
#include "parq/file/file_reader.h"

namespace parq::tool {

// `options` and the reading key options. `prefix` is put before their names
// ("in-" for rewrite and convert, whose plain names encrypt the output).
std::vector<OptionSpec> with_key_options(std::vector<OptionSpec> options, const std::string& prefix = "");

#define PARQ_KEY_HELP                                                                   \
  "Encrypted files (KEY: hex, base64:..., or @FILE holding the raw key):\n"             \
  "  --footer-key KEY   the footer key (and the key of uniformly encrypted files)\n"    \
  "  --column-key COL=KEY  the key of column COL (a dotted leaf path); repeatable\n"    \
  "  --aad-prefix TEXT  the AAD prefix, for files that do not store theirs\n"           \
  "  --kms-config FILE  a JSON object of master keys in hex ({\"kf\": \"3031...\"}):\n" \
  "                     keys come from the files' key material (PKMT1)\n"

// A key as the options give it: hex, "base64:..." or "@path". `what` names
// the option in errors (UsageError).
std::string parse_key(const std::string& text, const std::string& what);

// The decryption the arguments ask for; `location` is the file read, whose
// external key material (if any) lies beside it.
crypto::DecryptionOptions decryption_options(const Args& args, const std::string& location,
                                             const std::string& prefix = "");
// ReaderOptions with those keys.
ReaderOptions reader_options(const Args& args, const std::string& location, const std::string& prefix = "");

}  // namespace parq::tool
