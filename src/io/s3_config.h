// Where an S3 request goes and how it is signed: s3:// URLs, endpoint,
// addressing style, region and credentials from RemoteOptions, the
// environment and the AWS shared files (~/.aws/credentials, ~/.aws/config).
#pragma once

#include <string>
#include <string_view>

#include "parq/io/remote.h"
#include "s3_signing.h"

namespace parq::io::s3 {

// s3://bucket/key: throws kInvalidArgument when there is no bucket.
struct Location {
  std::string bucket;
  std::string key;  // may be empty (a listing of the whole bucket)
};
Location parse_s3_url(std::string_view url);

// How to reach one bucket.
struct Target {
  std::string base_url;     // "https://bucket.s3.us-east-1.amazonaws.com" or "http://127.0.0.1:9000"
  std::string host;         // as in the Host header (with a non-default port)
  std::string path_prefix;  // "/bucket" in path style, "" for virtual hosts
  std::string region;
  Credentials credentials;        // empty: unsigned requests
  std::string credential_source;  // "options", "environment", "~/.aws/credentials [p]", "" for none
};
Target resolve(const std::string& bucket, const RemoteOptions& options);

// An INI file's `key` in section `section`, or "" (for tests: the shared
// files' format).
std::string ini_value(std::string_view text, std::string_view section, std::string_view key);

}  // namespace parq::io::s3
