// SigV4 signing; see s3_signing.h.
#include "s3_signing.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>

#include "../util/hex.h"
#include "parq/error.h"

namespace parq::io::s3 {
namespace {

std::string hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
           data.size(), out, &len) == nullptr)
    throw Error(ErrorKind::kIo, {}, "HMAC-SHA256 failed (OpenSSL)");
  return std::string(reinterpret_cast<const char*>(out), len);
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return lower_hex(digest, sizeof digest);
}

std::string uri_encode(std::string_view s, bool keep_slash) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || (c == '/' && keep_slash)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += "0123456789ABCDEF"[c >> 4];
      out += "0123456789ABCDEF"[c & 15];
    }
  }
  return out;
}

std::string canonical_query(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  for (const auto& [k, v] : query) encoded.emplace_back(uri_encode(k, false), uri_encode(v, false));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [k, v] : encoded) {
    if (!out.empty()) out += '&';
    out += k;
    out += '=';
    out += v;
  }
  return out;
}

const std::string& empty_payload_hash() {
  static const std::string hash = sha256_hex("");
  return hash;
}

SignedHeaders sign_request(const Credentials& credentials, const std::string& region, const std::string& method,
                           const std::string& host, const std::string& canonical_path,
                           const std::vector<std::pair<std::string, std::string>>& query, std::time_t now,
                           const std::string& payload_hash) {
  std::tm tm{};
  gmtime_r(&now, &tm);
  char amz_date[17], date[9];
  std::strftime(amz_date, sizeof amz_date, "%Y%m%dT%H%M%SZ", &tm);
  std::strftime(date, sizeof date, "%Y%m%d", &tm);

  // Canonical headers: lowercase names, sorted, trimmed values.
  std::vector<std::pair<std::string, std::string>> headers = {
      {"host", host}, {"x-amz-content-sha256", payload_hash}, {"x-amz-date", amz_date}};
  if (!credentials.session_token.empty()) headers.emplace_back("x-amz-security-token", credentials.session_token);
  std::sort(headers.begin(), headers.end());
  std::string canonical_headers, signed_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += name;
  }

  const std::string canonical_request = method + "\n" + canonical_path + "\n" + canonical_query(query) + "\n" +
                                        canonical_headers + "\n" + signed_headers + "\n" + payload_hash;
  const std::string scope = std::string(date) + "/" + region + "/s3/aws4_request";
  const std::string string_to_sign =
      "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" + scope + "\n" + sha256_hex(canonical_request);

  std::string key = hmac("AWS4" + credentials.secret_access_key, date);
  key = hmac(key, region);
  key = hmac(key, "s3");
  key = hmac(key, "aws4_request");
  const std::string sig = hmac(key, string_to_sign);
  const std::string signature = lower_hex(reinterpret_cast<const uint8_t*>(sig.data()), sig.size());

  SignedHeaders out;
  out.lines.push_back("Authorization: AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + scope +
                      ", SignedHeaders=" + signed_headers + ", Signature=" + signature);
  out.lines.push_back("x-amz-content-sha256: " + payload_hash);
  out.lines.push_back(std::string("x-amz-date: ") + amz_date);
  if (!credentials.session_token.empty()) out.lines.push_back("x-amz-security-token: " + credentials.session_token);
  return out;
}

}  // namespace parq::io::s3
