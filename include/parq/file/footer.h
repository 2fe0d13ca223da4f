// The file envelope: `PAR1` at both ends, the Thrift-encoded FileMetaData and
// its 4-byte little-endian length just before the trailing magic.
//
//   PAR1 | column chunks ... | FileMetaData | u32 length | PAR1
//
// A file whose footer is encrypted ends in `PARE` instead, and its footer
// cannot be read without a key; plaintext-footer encrypted files end in PAR1
// and open normally (their encrypted columns carry crypto metadata).
#pragma once

#include <cstdint>
#include <string>

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
};

struct Footer {
  format::FileMetaData metadata;
  uint64_t metadata_offset = 0;  // where the Thrift bytes start
  uint32_t metadata_length = 0;
};

// Validates the envelope and decodes the footer. Throws parq::Error naming
// the input and what is wrong: too small, a missing magic, a length that
// reaches past the file start, an encrypted footer, malformed Thrift.
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
