// FILE references (parq/file/file_reference.h): resolution by the spec's
// table, the group's schema check, and reading the bytes with their
// checksum verified.
//
// MD5 and SHA-256 come from OpenSSL and CRC32 from libdeflate, which the
// library links already. CRC32C is here: the one Debian package providing
// it is not in the dependency set, and the SSE4.2 instruction makes it a
// few lines.
#include "parq/file/file_reference.h"

#include <libdeflate.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>

#include "../util/hex.h"
#include "parq/error.h"
#include "parq/io/remote.h"
#include "parq/util/cpu.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace parq {
namespace {

struct FieldSpec {
  const char* name;
  format::Type physical;
  bool is_string;
};

constexpr std::array<FieldSpec, 6> kFields = {{{"uri", format::Type::BYTE_ARRAY, true},
                                               {"offset", format::Type::INT64, false},
                                               {"size", format::Type::INT64, false},
                                               {"content_type", format::Type::BYTE_ARRAY, true},
                                               {"checksum", format::Type::BYTE_ARRAY, true},
                                               {"inline", format::Type::BYTE_ARRAY, false}}};

const FieldSpec* field_spec(const std::string& name) {
  for (const FieldSpec& f : kFields)
    if (name == f.name) return &f;
  return nullptr;
}

[[noreturn]] void bad_reference(const std::string& what, ErrorKind kind = ErrorKind::kCorrupt) {
  throw Error("FILE reference: " + what, kind);
}

std::string big_endian_hex(uint32_t v) {
  const uint8_t b[4] = {static_cast<uint8_t>(v >> 24), static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 8),
                        static_cast<uint8_t>(v)};
  return lower_hex(b, 4);
}

uint32_t crc32c_portable(uint32_t crc, const uint8_t* p, size_t n) {
  static const std::array<uint32_t, 256> kTable = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  for (size_t i = 0; i < n; ++i) crc = kTable[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(uint32_t crc, const uint8_t* p, size_t n) {
  uint64_t c = crc;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, p + i, 8);
    c = _mm_crc32_u64(c, v);
  }
  auto c32 = static_cast<uint32_t>(c);
  for (; i < n; ++i) c32 = _mm_crc32_u8(c32, p[i]);
  return c32;
}
#endif

uint32_t crc32c(std::string_view bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  uint32_t crc = 0xFFFFFFFFu;
#if defined(__x86_64__)
  // Every x86-64 level parq dispatches to above scalar has SSE4.2.
  if (simd_level() >= SimdLevel::kAvx2) return ~crc32c_sse42(crc, p, bytes.size());
#endif
  return ~crc32c_portable(crc, p, bytes.size());
}

std::string digest(const EVP_MD* md, std::string_view bytes) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), out, &n, md, nullptr) != 1)
    throw Error(ErrorKind::kIo, {}, "FILE reference: digest failed (OpenSSL)");
  return lower_hex(out, n);
}

// The directory part of a location, with its trailing separator.
std::string directory_of(const std::string& location) {
  const size_t slash = location.rfind('/');
  return slash == std::string::npos ? std::string() : location.substr(0, slash + 1);
}

bool is_absolute(const std::string& uri) { return io::is_url(uri) || (!uri.empty() && uri[0] == '/'); }

void verify(const FileReference& reference, std::string_view bytes) {
  const std::string& token = *reference.checksum;
  const size_t colon = token.find(':');
  if (colon == std::string::npos) return;  // not self-describing: nothing to recompute
  const std::string algorithm = token.substr(0, colon);
  if (algorithm != "MD5" && algorithm != "CRC32" && algorithm != "CRC32C" && algorithm != "SHA-256") return;
  const std::string expected = token.substr(colon + 1);
  const std::string actual = file_checksum(algorithm, bytes).substr(colon + 1);
  if (actual != expected)
    bad_reference("checksum " + algorithm + " of the " + std::to_string(bytes.size()) + " referenced bytes is " +
                  actual + ", the reference says " + expected);
}

}  // namespace

ResolvedReference resolve(const FileReference& r) {
  ResolvedReference out;
  auto invalid = [&](const char* why) {
    out.kind = ResolvedReference::Kind::kInvalid;
    out.problem = why;
    return out;
  };
  if (r.inline_bytes) {
    out.kind = ResolvedReference::Kind::kInline;
    out.size = static_cast<int64_t>(r.inline_bytes->size());
    return out;
  }
  if (r.offset && *r.offset < 0) return invalid("offset is negative");
  if (r.size && *r.size < 0) return invalid("size is negative");
  if (r.offset && !r.size) return invalid("offset is set without size");
  if (r.uri) {
    out.kind = r.size ? ResolvedReference::Kind::kExternalRange : ResolvedReference::Kind::kExternalWhole;
    out.offset = r.offset.value_or(0);
    out.size = r.size.value_or(-1);
    return out;
  }
  if (!r.offset) return invalid(r.size ? "size is set without uri or offset" : "none of inline, uri and offset is set");
  out.kind = ResolvedReference::Kind::kSelf;
  out.offset = *r.offset;
  out.size = *r.size;
  return out;
}

bool is_file_group(const SchemaNode& node) { return node.is_group() && node.logical_type().FILE.has_value(); }

void check_file_group(const SchemaNode& group) {
  const std::string where = "FILE group " + group.name();
  if (!group.is_group()) throw Error(where + " is not a group", ErrorKind::kInvalidArgument);
  for (const SchemaNode* c : group.children()) {
    const FieldSpec* spec = field_spec(c->name());
    if (spec == nullptr)
      throw Error(where + ": field " + c->name() + " is not one of uri, offset, size, content_type, checksum, inline",
                  ErrorKind::kInvalidArgument);
    if (c->is_group() || c->physical_type() != spec->physical ||
        (spec->is_string && !c->logical_type().STRING && c->converted_type() != format::ConvertedType::UTF8))
      throw Error(where + ": field " + c->name() + " must be " +
                      (spec->physical == format::Type::INT64 ? "int64"
                       : spec->is_string                     ? "binary (STRING)"
                                                             : "binary"),
                  ErrorKind::kInvalidArgument);
    if (c->repetition() != format::FieldRepetitionType::OPTIONAL)
      throw Error(where + ": field " + c->name() + " must be optional", ErrorKind::kInvalidArgument);
  }
}

std::vector<std::optional<FileReference>> file_references(const Array& group) {
  if (group.kind != ArrayKind::kStruct)
    bad_reference(group.name + " is not a struct column", ErrorKind::kInvalidArgument);
  const Array* field[kFields.size()] = {};
  for (const Array& c : group.children) {
    const FieldSpec* spec = field_spec(c.name);
    if (spec == nullptr || c.kind != ArrayKind::kLeaf || c.type.physical != spec->physical || c.length != group.length)
      bad_reference(group.name + "." + c.name + " is not a field of a FILE group", ErrorKind::kInvalidArgument);
    field[spec - kFields.data()] = &c;
  }
  auto text = [&](size_t f, int64_t row) -> std::optional<std::string> {
    const Array* a = field[f];
    if (a == nullptr || !a->is_valid(row)) return std::nullopt;
    const int32_t* o = a->offsets_data();
    if (o[row + 1] == o[row]) return std::nullopt;  // empty counts as not set
    return std::string(reinterpret_cast<const char*>(a->values.data()) + o[row],
                       static_cast<size_t>(o[row + 1] - o[row]));
  };
  auto number = [&](size_t f, int64_t row) -> std::optional<int64_t> {
    const Array* a = field[f];
    if (a == nullptr || !a->is_valid(row)) return std::nullopt;
    int64_t v;
    std::memcpy(&v, a->values.data() + 8 * row, 8);
    return v;
  };
  std::vector<std::optional<FileReference>> out(static_cast<size_t>(group.length));
  for (int64_t row = 0; row < group.length; ++row) {
    if (!group.is_valid(row)) continue;
    FileReference r{text(0, row), number(1, row), number(2, row), text(3, row), text(4, row), std::nullopt};
    if (const Array* a = field[5]; a != nullptr && a->is_valid(row)) {
      const int32_t* o = a->offsets_data();
      r.inline_bytes = std::string(reinterpret_cast<const char*>(a->values.data()) + o[row],
                                   static_cast<size_t>(o[row + 1] - o[row]));
    }
    if (resolve(r).kind != ResolvedReference::Kind::kInvalid) out[static_cast<size_t>(row)] = std::move(r);
  }
  return out;
}

std::string read_referenced_bytes(const FileReference& reference, const ReferenceSources& sources) {
  const ResolvedReference at = resolve(reference);
  std::string bytes;
  switch (at.kind) {
    case ResolvedReference::Kind::kInvalid:
      bad_reference(at.problem);
    case ResolvedReference::Kind::kInline:
      bytes = *reference.inline_bytes;
      break;
    case ResolvedReference::Kind::kSelf:
    case ResolvedReference::Kind::kExternalWhole:
    case ResolvedReference::Kind::kExternalRange: {
      std::unique_ptr<io::RandomAccessInput> opened;
      io::RandomAccessInput* input = sources.this_file;
      if (at.kind == ResolvedReference::Kind::kSelf) {
        if (input == nullptr) bad_reference("a self-reference needs the Parquet file it is in");
      } else {
        const std::string& uri = *reference.uri;
        opened = io::open_location(is_absolute(uri) ? uri : directory_of(sources.base) + uri, sources.location_options);
        input = opened.get();
      }
      const uint64_t file_size = input->size();
      const auto offset = static_cast<uint64_t>(at.offset);
      const uint64_t size =
          at.size < 0 ? (offset <= file_size ? file_size - offset : 0) : static_cast<uint64_t>(at.size);
      if (offset > file_size || size > file_size - offset)
        bad_reference("bytes [" + std::to_string(offset) + ", " + std::to_string(offset + size) + ") are outside " +
                      input->name() + " (" + std::to_string(file_size) + " bytes)");
      bytes.resize(size);
      if (size != 0) input->read_at(offset, size, reinterpret_cast<uint8_t*>(bytes.data()));
      break;
    }
  }
  if (sources.verify_checksum && reference.checksum) verify(reference, bytes);
  return bytes;
}

std::string file_checksum(const std::string& algorithm, std::string_view bytes) {
  if (algorithm == "MD5") return "MD5:" + digest(EVP_md5(), bytes);
  if (algorithm == "SHA-256") return "SHA-256:" + digest(EVP_sha256(), bytes);
  if (algorithm == "CRC32")
    return "CRC32:" + big_endian_hex(static_cast<uint32_t>(libdeflate_crc32(0, bytes.data(), bytes.size())));
  if (algorithm == "CRC32C") return "CRC32C:" + big_endian_hex(crc32c(bytes));
  throw Error("FILE reference: checksum algorithm " + algorithm + " is not one of MD5, CRC32, CRC32C, SHA-256",
              ErrorKind::kInvalidArgument);
}

}  // namespace parq
