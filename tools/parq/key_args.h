// What the commands share for encrypted files: the keys to read them with
// (--footer-key, --column-key, --aad-prefix, --kms-config) and, for the
// writing commands, the keys to encrypt their output with.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "parq/crypto/encryption.h"
#include "parq/file/file_reader.h"
#include "parq/keys/key_tools.h"

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

// `options` and the options that encrypt a writing command's output:
// --footer-key, --column-key, --plaintext-footer, --encryption-algorithm,
// --aad-prefix, --no-store-aad-prefix, --kms-config, --external-key-material,
// --single-wrapping, --data-key-bits.
std::vector<OptionSpec> with_encryption_options(std::vector<OptionSpec> options);

#define PARQ_ENCRYPTION_HELP                                                              \
  "Encryption of the output (KEY: hex, base64:..., or @FILE holding the raw key):\n"      \
  "  --footer-key KEY       encrypt with this footer key; without --column-key,\n"        \
  "                         every column with it (uniform encryption)\n"                  \
  "  --column-key COL=KEY   encrypt column COL (a dotted leaf path) with KEY; the\n"      \
  "                         columns not named stay in plaintext (repeatable)\n"           \
  "  --plaintext-footer     leave the footer readable (signed with the footer key),\n"    \
  "                         so that readers without keys read the plaintext columns\n"    \
  "  --encryption-algorithm AES_GCM_V1 (default) or AES_GCM_CTR_V1 (pages in CTR)\n"      \
  "  --aad-prefix TEXT      bind the file to TEXT (a table and partition name)\n"         \
  "  --no-store-aad-prefix  do not store the prefix: readers must supply it\n"            \
  "  --kms-config FILE      master keys in hex ({\"kf\": \"3031...\"}); KEYs above are\n" \
  "                         then master key ids, and random data keys wrapped by\n"       \
  "                         them are stored as key material (PKMT1)\n"                    \
  "  --external-key-material  store it in _KEY_MATERIAL_FOR_<file>.json beside OUT\n"     \
  "  --single-wrapping      wrap data keys with the master keys directly (default:\n"     \
  "                         with key-encryption keys, themselves wrapped)\n"              \
  "  --data-key-bits N      128 (default), 192 or 256\n"

// The keys those options ask for, nullopt without --footer-key (their
// commit() writes external key material beside the finished file).
std::optional<keys::FileEncryption> parse_encryption(const Args& args);

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
