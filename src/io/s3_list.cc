// list_objects: S3 ListObjectsV2 pages, following continuation tokens.
#include <set>

#include "parq/io/remote.h"
#include "remote_request.h"
#include "s3_config.h"
#include "s3_xml.h"

namespace parq::io {
namespace {

// Bounds against a server that never stops: a listing body, and pages.
constexpr size_t kMaxListBody = size_t{64} << 20;
constexpr size_t kMaxPages = 1'000'000;

class ListRequest : public remote::Request {
 public:
  ListRequest(const remote::Resource& bucket, remote::Query query) : bucket_(bucket), query_(std::move(query)) {}
  uint64_t weight() const override { return 1; }
  void prepare(curl::Transfer& t) override {
    bucket_.prepare(t, bucket_.path, query_);
    body.clear();
    t.on_body = [this, &t](const char* data, size_t n) {
      if (body.size() + n > kMaxListBody) {
        t.abort_reason = "a listing page larger than " + std::to_string(kMaxListBody >> 20) + " MiB";
        return false;
      }
      body.append(data, n);
      return true;
    };
  }
  void check(const curl::Transfer& t) override {
    if (t.result != CURLE_OK || t.status != 200) remote::throw_transfer_error(t, bucket_.display);
  }
  std::string body;

 private:
  const remote::Resource& bucket_;
  remote::Query query_;
};

}  // namespace

std::vector<ObjectInfo> list_objects(const std::string& url_prefix, const RemoteOptions& options) {
  if (!url_prefix.starts_with("s3://") && !url_prefix.starts_with("S3://")) {
    if (is_url(url_prefix))
      throw Error(ErrorKind::kUnsupported, {.file = url_prefix},
                  "cannot list objects over HTTP (there is no listing in the protocol); list over s3:// instead");
    throw Error(ErrorKind::kInvalidArgument, {.file = url_prefix}, "not an s3:// URL");
  }
  s3::Location loc = s3::parse_s3_url(url_prefix);
  s3::Target target = s3::resolve(loc.bucket, options);
  remote::Resource bucket;
  bucket.display = "s3://" + loc.bucket + "/" + loc.key;
  bucket.s3 = true;
  bucket.base_url = target.base_url;
  bucket.host = target.host;
  bucket.path = target.path_prefix.empty() ? "/" : target.path_prefix;
  bucket.region = target.region;
  bucket.credentials = target.credentials;
  bucket.credential_source = target.credential_source;

  remote::Limiter limiter(1, UINT64_MAX);
  remote::Stats stats;
  std::vector<ObjectInfo> out;
  std::string token;
  std::set<std::string> tokens_seen;
  for (size_t page_number = 0;; ++page_number) {
    if (page_number == kMaxPages)
      throw Error(ErrorKind::kIo, {.file = bucket.display},
                  "the listing goes on past " + std::to_string(kMaxPages) + " pages");
    remote::Query query = {{"list-type", "2"}};
    if (!loc.key.empty()) query.emplace_back("prefix", loc.key);
    if (!token.empty()) query.emplace_back("continuation-token", token);
    ListRequest request(bucket, std::move(query));
    remote::Request* one[] = {&request};
    remote::run_requests(one, limiter, options, stats);
    s3::ListPage page;
    try {
      page = s3::parse_list_page(request.body);
    } catch (const Error& e) {
      throw Error(ErrorKind::kIo, {.file = bucket.display}, "the server's listing is not valid: " + e.detail());
    }
    for (s3::ListedObject& o : page.objects) {
      if (!loc.key.empty() && !o.key.starts_with(loc.key))
        throw Error(ErrorKind::kIo, {.file = bucket.display},
                    "the server listed \"" + o.key + "\", which is not under the prefix");
      if (o.key.ends_with('/') && o.size == 0) continue;  // a directory marker
      out.push_back({"s3://" + loc.bucket + "/" + o.key, o.size});
    }
    if (!page.truncated) break;
    if (!tokens_seen.insert(page.next_continuation_token).second)
      throw Error(ErrorKind::kIo, {.file = bucket.display},
                  "the server repeats a continuation token: the listing would not end");
    token = std::move(page.next_continuation_token);
  }
  return out;
}

}  // namespace parq::io
