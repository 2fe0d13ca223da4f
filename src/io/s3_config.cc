// S3 endpoint, region and credentials resolution; see s3_config.h.
#include "s3_config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "parq/error.h"

namespace parq::io::s3 {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string home_file(const char* env_name, const char* relative) {
  std::string path = env(env_name);
  if (!path.empty()) return path;
  std::string home = env("HOME");
  return home.empty() ? std::string() : home + "/" + relative;
}

// The shared files of one profile.
struct Profile {
  std::string name;
  std::string credentials_path, credentials_text;
  std::string config_text;
  std::string config_section() const { return name == "default" ? "default" : "profile " + name; }
  std::string credentials_value(const char* key) const { return ini_value(credentials_text, name, key); }
  std::string config_value(const char* key) const {
    std::string v = ini_value(config_text, config_section(), key);
    if (v.empty() && name == "default") v = ini_value(config_text, "profile default", key);
    return v;
  }
};

Profile load_profile() {
  Profile p;
  p.name = env("AWS_PROFILE");
  if (p.name.empty()) p.name = "default";
  p.credentials_path = home_file("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
  if (!p.credentials_path.empty()) p.credentials_text = read_text(p.credentials_path);
  std::string config_path = home_file("AWS_CONFIG_FILE", ".aws/config");
  if (!config_path.empty()) p.config_text = read_text(config_path);
  return p;
}

struct Endpoint {
  std::string scheme, host;  // host with its port when given
};

Endpoint parse_endpoint(std::string url) {
  Endpoint e;
  size_t sep = url.find("://");
  if (sep == std::string::npos) {
    e.scheme = "https";
  } else {
    e.scheme = url.substr(0, sep);
    url = url.substr(sep + 3);
  }
  for (char& c : e.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (e.scheme != "http" && e.scheme != "https")
    throw Error(ErrorKind::kInvalidArgument, {}, "S3 endpoint \"" + url + "\": only http:// and https:// are known");
  size_t slash = url.find('/');
  e.host = url.substr(0, slash);
  if (e.host.empty()) throw Error(ErrorKind::kInvalidArgument, {}, "S3 endpoint without a host");
  // A port equal to the scheme's default is left out, as curl leaves it out of Host.
  if ((e.scheme == "http" && e.host.ends_with(":80")) || (e.scheme == "https" && e.host.ends_with(":443")))
    e.host.resize(e.host.rfind(':'));
  return e;
}

}  // namespace

std::string ini_value(std::string_view text, std::string_view section, std::string_view key) {
  bool in_section = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[') {
      size_t close = line.find(']');
      in_section = close != std::string_view::npos && trim(line.substr(1, close - 1)) == section;
      continue;
    }
    if (!in_section) continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    if (trim(line.substr(0, eq)) == key) return std::string(trim(line.substr(eq + 1)));
  }
  return {};
}

Location parse_s3_url(std::string_view url) {
  if (url.size() < 5 || (url.substr(0, 5) != "s3://" && url.substr(0, 5) != "S3://"))
    throw Error(ErrorKind::kInvalidArgument, {.file = std::string(url)}, "not an s3:// URL");
  std::string_view rest = url.substr(5);
  size_t slash = rest.find('/');
  Location loc;
  loc.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) loc.key = std::string(rest.substr(slash + 1));
  if (loc.bucket.empty()) throw Error(ErrorKind::kInvalidArgument, {.file = std::string(url)}, "no bucket in the URL");
  for (char c : loc.bucket)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
          c == '_'))
      throw Error(ErrorKind::kInvalidArgument, {.file = std::string(url)},
                  "bucket name \"" + loc.bucket + "\" has characters S3 does not allow");
  return loc;
}

Target resolve(const std::string& bucket, const RemoteOptions& options) {
  Target t;
  Profile profile = load_profile();

  t.region = options.region;
  if (t.region.empty()) t.region = env("AWS_REGION");
  if (t.region.empty()) t.region = env("AWS_DEFAULT_REGION");
  if (t.region.empty()) t.region = profile.config_value("region");
  if (t.region.empty()) t.region = "us-east-1";

  std::string endpoint = options.endpoint;
  if (endpoint.empty()) endpoint = env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = env("AWS_ENDPOINT_URL");
  if (endpoint.empty()) endpoint = profile.config_value("endpoint_url");
  const bool custom = !endpoint.empty();
  if (!custom) endpoint = "https://s3." + t.region + ".amazonaws.com";
  Endpoint e = parse_endpoint(endpoint);
  // Virtual hosts put the bucket in a TLS name, where a dot breaks the
  // certificate's wildcard: such buckets go path style.
  bool path_style = options.path_style.value_or(custom || bucket.find('.') != std::string::npos);
  if (path_style) {
    t.host = e.host;
    t.path_prefix = "/" + bucket;
  } else {
    t.host = bucket + "." + e.host;
  }
  t.base_url = e.scheme + "://" + t.host;

  if (options.anonymous) return t;
  if (!options.access_key_id.empty()) {
    t.credentials = {options.access_key_id, options.secret_access_key, options.session_token};
    t.credential_source = "options";
  } else if (!env("AWS_ACCESS_KEY_ID").empty()) {
    t.credentials = {env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"), env("AWS_SESSION_TOKEN")};
    t.credential_source = "environment";
  } else if (!profile.credentials_value("aws_access_key_id").empty()) {
    t.credentials = {profile.credentials_value("aws_access_key_id"), profile.credentials_value("aws_secret_access_key"),
                     profile.credentials_value("aws_session_token")};
    t.credential_source = profile.credentials_path + " [" + profile.name + "]";
  } else if (!profile.config_value("aws_access_key_id").empty()) {
    t.credentials = {profile.config_value("aws_access_key_id"), profile.config_value("aws_secret_access_key"),
                     profile.config_value("aws_session_token")};
    t.credential_source = "config profile " + profile.name;
  }
  return t;
}

}  // namespace parq::io::s3
