// The few S3 XML documents parq reads: a ListObjectsV2 page and an error.
//
// A small hand-written reader rather than an XML library: only a handful of
// elements matter (Contents/Key, Contents/Size, IsTruncated,
// NextContinuationToken; Error/Code, Error/Message), and a reader that does
// nothing else is easy to bound against a hostile server. It takes elements,
// attributes (skipped), text, the five predefined entities and character
// references, CDATA, comments and processing instructions; it refuses DTDs
// (so there are no entity definitions to expand), nesting deeper than 32,
// text of one element over 64 KiB, documents over 64 MiB and mismatched
// tags. Fuzzed by fuzz/remote_parse_fuzz.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parq::io::s3 {

struct ListedObject {
  std::string key;
  uint64_t size = 0;
};

struct ListPage {
  std::vector<ListedObject> objects;
  bool truncated = false;
  std::string next_continuation_token;
};

// Parses a ListBucketResult; throws parq::Error (kCorrupt) with what is
// wrong, for the caller to place under the URL.
ListPage parse_list_page(std::string_view xml);

struct ErrorDocument {
  std::string code;  // "AccessDenied", "NoSuchKey", "SignatureDoesNotMatch"...
  std::string message;
};

// An S3 <Error> document's Code and Message; nullopt for anything else.
std::optional<ErrorDocument> parse_error(std::string_view xml);

}  // namespace parq::io::s3
