// AWS Signature Version 4 for S3 requests, over OpenSSL's SHA-256 and
// HMAC-SHA256 (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
// parq's requests are GETs without a body (the tests also PUT objects).
#pragma once

#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parq::io::s3 {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  bool empty() const { return access_key_id.empty(); }
};

// Lowercase hex of SHA-256(data).
std::string sha256_hex(std::string_view data);
// sha256_hex(""): the payload hash of a request without a body.
const std::string& empty_payload_hash();

// RFC 3986 percent-encoding as SigV4 wants it: every byte but A-Z a-z 0-9
// - . _ ~ is %XX (uppercase); '/' is kept when `keep_slash` (object keys in
// paths).
std::string uri_encode(std::string_view s, bool keep_slash);

struct SignedHeaders {
  // Header lines to send ("Authorization: ...", "x-amz-date: ...", ...).
  std::vector<std::string> lines;
};

// Signs a request of `method` for `canonical_path` (already URI-encoded, as
// sent) with the query parameters `query` (raw; encoded and sorted here) on
// `host` (with its port when not the scheme's default, as curl sends it),
// at time `now`. `payload_hash` is the hex SHA-256 of the body (the empty
// body's by default) or "UNSIGNED-PAYLOAD".
SignedHeaders sign_request(const Credentials& credentials, const std::string& region, const std::string& method,
                           const std::string& host, const std::string& canonical_path,
                           const std::vector<std::pair<std::string, std::string>>& query, std::time_t now,
                           const std::string& payload_hash = empty_payload_hash());

// The query string for a URL: the same encoding and order as signed.
std::string canonical_query(const std::vector<std::pair<std::string, std::string>>& query);

}  // namespace parq::io::s3
