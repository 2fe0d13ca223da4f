// Reading and writing the file envelope; see file/footer.h.
#include "parq/file/footer.h"

#include <cstring>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq::file {
namespace {

uint32_t load_u32_le(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

bool has_magic(const uint8_t* p, const char* magic) { return std::memcmp(p, magic, kMagicSize) == 0; }

// The reader's options with the retriever of this file.
crypto::DecryptionOptions options_for(const crypto::DecryptionOptions& given, const std::string& name) {
  crypto::DecryptionOptions out = given;
  if (!out.key_retriever && out.file_key_retriever) out.key_retriever = out.file_key_retriever(name);
  return out;
}

std::string printable(const uint8_t* p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    char c = static_cast<char>(p[i]);
    if (c >= 0x20 && c < 0x7f) {
      s += c;
    } else {
      static const char hex[] = "0123456789abcdef";
      s += "\\x";
      s += hex[p[i] >> 4];
      s += hex[p[i] & 15];
    }
  }
  return s;
}

void check_leading_magic(io::RandomAccessInput& input) {
  uint8_t head[kMagicSize];
  input.read_at(0, kMagicSize, head);
  if (!has_magic(head, kMagic) && !has_magic(head, kEncryptedMagic))
    throw Error(ErrorKind::kCorrupt, {.file = input.name(), .offset = 0},
                "not a Parquet file: missing PAR1 magic at the start (found \"" + printable(head, kMagicSize) + "\")");
}

// The footer of a PARE file: FileCryptoMetaData, then the FileMetaData as
// an encrypted module.
void decode_encrypted_footer(const uint8_t* start, uint32_t length, const FooterOptions& options,
                             const std::string& name, Footer& footer) {
  if (options.decryption.empty())
    throw Error(ErrorKind::kUnsupported, {.file = name},
                "encrypted file: its footer is encrypted (PARE magic), and no keys were given");
  format::FileCryptoMetaData crypto;
  size_t used = 0;
  try {
    used = format::decode_thrift(start, length, crypto, footer.metadata_offset, options.limits);
  } catch (const Error& e) {
    throw Error(ErrorKind::kCorrupt, {.file = name}, "corrupt file crypto metadata: " + e.detail());
  }
  try {
    footer.decryptor = std::make_shared<crypto::FileDecryptor>(crypto.encryption_algorithm, crypto.key_metadata,
                                                               options_for(options.decryption, name));
  } catch (const Error& e) {
    throw e.within({.file = name});
  }
  std::string why;
  std::optional<crypto::ModuleCipher> cipher = footer.decryptor->footer_cipher(&why);
  if (!cipher)
    throw Error(ErrorKind::kUnsupported, {.file = name}, "the encrypted footer needs the footer key: " + why);
  Buffer plain;
  try {
    cipher->decrypt(crypto::ModuleType::kFooter, {start + used, length - used}, plain);
  } catch (const Error& e) {
    throw e.within({.file = name, .offset = static_cast<int64_t>(footer.metadata_offset + used)});
  }
  try {
    format::decode_thrift(plain.data(), plain.size(), footer.metadata, 0, options.limits);
  } catch (const Error& e) {
    throw Error(ErrorKind::kCorrupt, {.file = name}, "corrupt footer (decrypted): " + e.detail());
  }
  footer.encrypted_footer = true;
}

// A plaintext footer of an encrypted file: its signature is checked when
// keys were given.
void check_signed_footer(const uint8_t* start, size_t used, uint32_t length, const FooterOptions& options,
                         const std::string& name, Footer& footer) {
  if (used + crypto::kSignatureSize != length)
    throw Error(ErrorKind::kCorrupt, {.file = name},
                "corrupt footer: an encrypted file's plaintext footer of " + std::to_string(used) +
                    " bytes must be followed by its 28-byte signature, and " + std::to_string(length - used) +
                    " bytes are");
  if (options.decryption.empty()) return;
  const format::FileMetaData& md = footer.metadata;
  try {
    footer.decryptor = std::make_shared<crypto::FileDecryptor>(*md.encryption_algorithm, md.footer_signing_key_metadata,
                                                               options_for(options.decryption, name));
  } catch (const Error& e) {
    throw e.within({.file = name});
  }
  if (!options.decryption.verify_footer_signature) return;
  // Without the footer key (a reader given only column keys) the footer is
  // read as a legacy reader reads it, unverified (signature_verified stays
  // false); the encrypted columns' own metadata still authenticates.
  std::string why;
  bool failed = false;
  std::optional<crypto::ModuleCipher> cipher = footer.decryptor->footer_cipher(&why, &failed);
  if (!cipher && failed)
    throw Error(ErrorKind::kUnsupported, {.file = name},
                "the plaintext footer's signature cannot be checked with the footer key: " + why);
  if (!cipher) return;
  if (!cipher->verify_footer({start, used}, {start + used, crypto::kSignatureSize}))
    throw Error(ErrorKind::kCorrupt, {.file = name},
                "the plaintext footer's signature does not verify: the footer was altered, or the footer key or "
                "AAD prefix is wrong");
  footer.signature_verified = true;
}

// Replaces the stripped (or absent) metadata of every encrypted column
// whose key is known by the decrypted one. A column without its key keeps
// what the footer has: it fails when a read selects it.
void decrypt_column_metadata(const FooterOptions& options, const std::string& name, Footer& footer) {
  format::FileMetaData& md = footer.metadata;
  for (size_t g = 0; g < md.row_groups.size(); ++g)
    for (size_t c = 0; c < md.row_groups[g].columns.size(); ++c) {
      format::ColumnChunk& chunk = md.row_groups[g].columns[c];
      if (!chunk.crypto_metadata || !chunk.encrypted_column_metadata) continue;
      std::optional<crypto::ModuleCipher> cipher = footer.decryptor->find_column_cipher(md, g, c);
      if (!cipher) continue;
      const std::string& module = *chunk.encrypted_column_metadata;
      format::ColumnMetaData decrypted;
      try {
        Buffer plain;
        cipher->decrypt(crypto::ModuleType::kColumnMetaData, crypto::bytes_of(module), plain);
        try {
          format::decode_thrift(plain.data(), plain.size(), decrypted, 0, options.limits);
        } catch (const Error& e) {
          throw Error(ErrorKind::kCorrupt, {}, "corrupt column metadata (decrypted): " + e.detail());
        }
      } catch (const Error& e) {
        throw e.within(chunk_location(name, md, g, c));
      }
      chunk.meta_data = std::move(decrypted);
    }
}

}  // namespace

Footer read_footer(io::RandomAccessInput& input, const FooterOptions& options) {
  const uint64_t size = input.size();
  if (size < kMinimumFileSize)
    throw Error(ErrorKind::kCorrupt, {.file = input.name()},
                "not a Parquet file: " + std::to_string(size) + " bytes is too small (at least " +
                    std::to_string(kMinimumFileSize) + " needed)");
  // The leading magic where it costs no read of its own: in memory, or
  // inside the tail (a remote input would spend a request, a round trip,
  // on four bytes that the first page read checks anyway).
  const bool resident = input.memory_resident();
  if (resident) check_leading_magic(input);

  // One read for the tail, large enough for most footers.
  uint64_t tail_size = std::min(size, std::max<uint64_t>(options.speculative_read_bytes, 8));
  io::ByteRange tail = io::ByteRange::read(input, size - tail_size, tail_size);
  if (!resident && tail_size == size) check_leading_magic(input);
  const uint8_t* end = tail.data() + tail_size;
  const bool encrypted_footer = has_magic(end - kMagicSize, kEncryptedMagic);
  if (!encrypted_footer && !has_magic(end - kMagicSize, kMagic))
    throw Error(ErrorKind::kCorrupt, {.file = input.name(), .offset = static_cast<int64_t>(size - kMagicSize)},
                "not a Parquet file: missing PAR1 magic at the end (found \"" +
                    printable(end - kMagicSize, kMagicSize) + "\")");

  const uint32_t length = load_u32_le(end - 8);
  const uint64_t room = size - kMinimumFileSize;
  if (length > room)
    throw Error(ErrorKind::kCorrupt, {.file = input.name()},
                "corrupt footer: metadata length " + std::to_string(length) + " reaches past the start of the file (" +
                    std::to_string(size) + " bytes)");
  if (length > options.max_footer_bytes)
    throw Error(ErrorKind::kLimit, {.file = input.name()},
                "footer of " + std::to_string(length) + " bytes exceeds the limit of " +
                    std::to_string(options.max_footer_bytes));

  Footer footer;
  footer.metadata_length = length;
  footer.metadata_offset = size - 8 - length;
  io::ByteRange bytes;
  const uint8_t* start;
  if (uint64_t{length} + 8 <= tail_size) {
    start = end - 8 - length;
  } else {
    bytes = io::ByteRange::read(input, footer.metadata_offset, length);
    start = bytes.data();
  }
  if (encrypted_footer) {
    decode_encrypted_footer(start, length, options, input.name(), footer);
  } else {
    size_t used = 0;
    try {
      used = format::decode_thrift(start, length, footer.metadata, footer.metadata_offset, options.limits);
    } catch (const Error& e) {
      throw Error(ErrorKind::kCorrupt, {.file = input.name()}, "corrupt footer: " + e.detail());
    }
    if (footer.metadata.encryption_algorithm) check_signed_footer(start, used, length, options, input.name(), footer);
  }
  if (footer.decryptor) decrypt_column_metadata(options, input.name(), footer);
  return footer;
}

namespace {

// The u32 length of what `out` holds past `start`, and `magic`.
void append_tail(std::string& out, size_t start, const char* magic) {
  uint64_t length = out.size() - start;
  if (length > UINT32_MAX) throw Error("footer of " + std::to_string(length) + " bytes does not fit a u32 length");
  char len[4] = {static_cast<char>(length), static_cast<char>(length >> 8), static_cast<char>(length >> 16),
                 static_cast<char>(length >> 24)};
  out.append(len, 4);
  out.append(magic, kMagicSize);
}

}  // namespace

void append_footer(const format::FileMetaData& metadata, std::string& out) {
  size_t start = out.size();
  format::encode_thrift(metadata, out);
  append_tail(out, start, kMagic);
}

void append_encrypted_footer(const format::FileCryptoMetaData& crypto, const format::FileMetaData& metadata,
                             const crypto::ModuleCipher& cipher, std::string& out) {
  size_t start = out.size();
  format::encode_thrift(crypto, out);
  std::string plain;
  format::encode_thrift(metadata, plain);
  cipher.encrypt(crypto::ModuleType::kFooter, crypto::bytes_of(plain), out);
  append_tail(out, start, kEncryptedMagic);
}

void append_signed_footer(const format::FileMetaData& metadata, const crypto::ModuleCipher& cipher, std::string& out) {
  size_t start = out.size();
  format::encode_thrift(metadata, out);
  out += cipher.sign_footer(crypto::bytes_of(std::string_view(out).substr(start)));
  append_tail(out, start, kMagic);
}

}  // namespace parq::file
