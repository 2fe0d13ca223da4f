// The FILE logical type (LogicalTypes.md, "FILE"): a group that refers to
// a range of bytes stored inline in the value, elsewhere in this Parquet
// file (a self-reference), or in an external file named by a URI.
//
// The group's fields are identified by name, each optional in the schema
// and in the data:
//   uri STRING, offset INT64, size INT64, content_type STRING,
//   checksum STRING ("<algorithm>:<digest>"), inline BYTE_ARRAY.
// A value that does not resolve (neither inline, uri nor offset set; an
// offset without a size; a negative offset or size) is invalid; readers may
// return null for it, which is what file_references() does, keeping the
// reason for whoever asks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/io/input.h"
#include "parq/io/location.h"
#include "parq/schema/schema.h"

namespace parq {

struct FileReference {
  std::optional<std::string> uri;  // set means present and non-empty
  std::optional<int64_t> offset;
  std::optional<int64_t> size;
  std::optional<std::string> content_type;
  std::optional<std::string> checksum;
  std::optional<std::string> inline_bytes;
  bool operator==(const FileReference&) const = default;
};

// What a reference resolves to (the Resolution table of the spec).
struct ResolvedReference {
  enum class Kind {
    kInline,         // the inline bytes
    kExternalWhole,  // the whole file at `uri`
    kExternalRange,  // [offset, offset + size) of the file at `uri`
    kSelf,           // [offset, offset + size) of this Parquet file
    kInvalid,        // `problem` says why
  };
  Kind kind = Kind::kInvalid;
  int64_t offset = 0;
  int64_t size = -1;  // -1: to the end of the external file
  std::string problem;
};

ResolvedReference resolve(const FileReference& reference);

// Whether the node is a group annotated FILE.
bool is_file_group(const SchemaNode& node);

// Throws parq::Error naming the field when a FILE group has a field the
// spec does not define, a field of another type, or a field that is not
// OPTIONAL. The writer checks this for every FILE group it writes.
void check_file_group(const SchemaNode& group);

// The references of a FILE group's rows, from the struct column a read
// returns for it (fields found by name, any subset of the six); a null
// group, and an invalid reference, give nullopt. Empty strings count as
// not set, as the spec allows.
std::vector<std::optional<FileReference>> file_references(const Array& group);

// Where a reference's bytes come from when it is not inline.
struct ReferenceSources {
  io::RandomAccessInput* this_file = nullptr;  // for self-references
  // The Parquet file's location (a path or a URL): relative URIs resolve
  // against its directory; absolute paths and URLs open as they are.
  std::string base;
  io::LocationOptions location_options;
  // Verify `checksum` when its algorithm is one of MD5, CRC32, CRC32C and
  // SHA-256 (ETAG and unknown algorithms are not recomputable and pass).
  bool verify_checksum = true;
};

// The referenced bytes. Throws parq::Error for an invalid reference, a
// range outside its file, a self-reference without `this_file`, or a
// checksum that does not match (naming the algorithm and both digests).
std::string read_referenced_bytes(const FileReference& reference, const ReferenceSources& sources);

// "<algorithm>:<digest>" of `bytes`, the digest in lowercase hex, for the
// algorithms verify knows ("MD5", "CRC32", "CRC32C", "SHA-256"); throws
// parq::Error (invalid argument) for another algorithm.
std::string file_checksum(const std::string& algorithm, std::string_view bytes);

}  // namespace parq
