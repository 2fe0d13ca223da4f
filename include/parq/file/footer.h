// The file envelope: `PAR1` at both ends, the Thrift-encoded FileMetaData and
// its 4-byte little-endian length just before the trailing magic.
//
//   PAR1 | column chunks ... | FileMetaData | u32 length | PAR1
//
// A file whose footer is encrypted (Encryption.md) starts and ends in `PARE`
// instead, and its footer is the FileCryptoMetaData followed by the
// encrypted FileMetaData. An encrypted file with a plaintext footer ends in
// PAR1 and its FileMetaData is followed by a 28-byte signature; readers
// without keys open it to read its plaintext columns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "parq/crypto/encryption.h"
#include "parq/crypto/file_crypto.h"
#include "parq/crypto/module_cipher.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"
#include "parq/thrift/compact_protocol.h"

namespace parq::file {

inline constexpr char kMagic[] = "PAR1";
inline constexpr char kEncryptedMagic[] = "PARE";
inline constexpr uint64_t kMagicSize = 4;
// Leading magic, footer length, trailing magic.
inline constexpr uint64_t kMinimumFileSize = 12;

struct FooterOptions {
  thrift::DecodeLimits limits;
  // Largest FileMetaData accepted; a longer one claimed by the file is an error
  // rather than an allocation.
  uint64_t max_footer_bytes = uint64_t{1} << 30;
  // How many trailing bytes to fetch in the first read, so that most footers
  // need a single I/O.
  uint64_t speculative_read_bytes = 64 * 1024;
  // Keys for an encrypted file; empty for a file that is not, or to read
  // only the plaintext columns of one with a plaintext footer.
  crypto::DecryptionOptions decryption;
};

struct Footer {
  format::FileMetaData metadata;
  uint64_t metadata_offset = 0;  // where the Thrift bytes start
  uint32_t metadata_length = 0;
  // An encrypted file's keys, when keys were given: the column readers, the
  // page index and bloom filter readers decrypt with it. The metadata of
  // every column whose key is known is decrypted into `meta_data` already.
  std::shared_ptr<const crypto::FileDecryptor> decryptor;
  bool encrypted_footer = false;    // PARE
  bool signature_verified = false;  // a plaintext footer's, checked with the footer key
};

// Validates the envelope and decodes the footer. Throws parq::Error naming
// the input and what is wrong: too small, a missing magic, a length that
// reaches past the file start, malformed Thrift; for an encrypted file, a
// missing or wrong key, a missing AAD prefix, a footer that does not
// authenticate or whose signature does not verify.
Footer read_footer(io::RandomAccessInput& input, const FooterOptions& options = {});

// Appends FileMetaData, its length and the trailing magic to `out`.
void append_footer(const format::FileMetaData& metadata, std::string& out);

// An encrypted file's footers, as Encryption.md lays them out; `cipher` is
// the footer key's. Encrypted (the file starts and ends with PARE):
//   FileCryptoMetaData | FileMetaData as a footer module | u32 length | PARE
// Plaintext, for readers without keys, signed so that readers with the key
// notice tampering (`metadata` holds the algorithm):
//   FileMetaData | nonce and tag | u32 length | PAR1
void append_encrypted_footer(const format::FileCryptoMetaData& crypto, const format::FileMetaData& metadata,
                             const crypto::ModuleCipher& cipher, std::string& out);
void append_signed_footer(const format::FileMetaData& metadata, const crypto::ModuleCipher& cipher, std::string& out);

}  // namespace parq::file
