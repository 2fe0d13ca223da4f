// Running HTTP GETs for the remote inputs: where a request goes (a URL, or
// an S3 bucket and key, signed), how many run at once (a per-input limiter
// shared by the threads reading it), and retries with backoff. The
// requests themselves (what Range to ask for, where the bytes go, what
// counts as success) are the callers': http_input.cc and s3_list.cc.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "curl_loop.h"
#include "parq/error.h"
#include "parq/io/remote.h"
#include "s3_signing.h"

namespace parq::io::remote {

struct Stats {
  std::atomic<uint64_t> requests{0}, retries{0}, bytes_received{0}, bytes_wasted{0}, ranges_from_tail{0};
  RemoteStats snapshot() const;
};

// Requests in flight and the bytes they ask for, per input.
struct Limiter {
  Limiter(int max_requests, uint64_t max_bytes) : max_requests(max_requests), max_bytes(max_bytes) {}
  bool can_start(uint64_t weight) const {
    return active == 0 || (active < max_requests && bytes + weight <= max_bytes);
  }
  const int max_requests;
  const uint64_t max_bytes;
  std::mutex mu;
  std::condition_variable cv;
  int active = 0;
  uint64_t bytes = 0;
};

using Query = std::vector<std::pair<std::string, std::string>>;

// Where requests go.
struct Resource {
  std::string display;   // the URL in messages: no credentials, no query
  std::string base_url;  // scheme://host[:port]
  std::string host;
  std::string path;  // as sent (encoded); for plain http(s), with the URL's query
  bool s3 = false;
  std::string region;
  s3::Credentials credentials;
  std::string credential_source;

  // http(s)://... or s3://bucket/key; throws kInvalidArgument.
  static Resource for_url(const std::string& url, const RemoteOptions& options);
  // The URL and the headers (S3's signature) of a GET of `path`.
  void prepare(curl::Transfer& t, const std::string& path, const Query& query = {}) const;
};

curl::TransferOptions transfer_options(const RemoteOptions& options);

// A failure that may pass when the request is sent again.
struct Retryable {
  Error error;
  std::optional<uint64_t> retry_after_seconds;  // the server's Retry-After
};

class Request {
 public:
  virtual ~Request() = default;
  // The bytes this request asks for, against the limiter.
  virtual uint64_t weight() const = 0;
  // Fills the transfer's url, headers and on_body for the next attempt.
  virtual void prepare(curl::Transfer& t) = 0;
  // Checks an ended transfer: returns when it succeeded, throws Retryable
  // or parq::Error.
  virtual void check(const curl::Transfer& t) = 0;
};

// Runs every request, at most as many at once as the limiter allows,
// retrying failures that may pass (RemoteOptions::max_retries, backoff with
// jitter). On the first failure that does not, the requests still running
// are cancelled (and waited for) and the error thrown.
void run_requests(std::span<Request* const> requests, Limiter& limiter, const RemoteOptions& options, Stats& stats);

// The error a failed transfer means: curl's failure or the HTTP status (with
// S3's error code and message), Retryable when it may pass.
[[noreturn]] void throw_transfer_error(const curl::Transfer& t, const std::string& display, int64_t offset = -1);

}  // namespace parq::io::remote
