// The process-wide HTTP engine under the remote inputs: one thread driving
// one libcurl multi handle, so that every transfer of every input shares
// its connection cache (keep-alive connections, DNS and TLS sessions reused
// across requests, inputs and threads) while callers on any thread only
// queue transfers and wait for them. libcurl handles are used on that
// thread alone, which is what makes the inputs thread-safe.
//
// A forked child gets a fresh loop on first use (the parent's thread does
// not exist there).
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parq::io::curl {

struct TransferOptions {
  long connect_timeout_ms = 10000;
  long stall_timeout_ms = 30000;  // no body bytes for this long: CURLE_OPERATION_TIMEDOUT
  long request_timeout_ms = 0;    // 0: none
  bool verify_tls = true;
  std::string ca_file;
};

// One GET. The caller fills the request part, submits it, and keeps the
// object alive until on_done has run; the loop fills the response part.
struct Transfer {
  // --- request ---
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  TransferOptions options;
  // Body bytes of a 2xx response, called on the loop thread in order;
  // return false to abort the transfer (set abort_reason first).
  std::function<bool(const char* data, size_t n)> on_body;
  // Called on the loop thread once the transfer has ended (done, failed or
  // cancelled); the Transfer may be destroyed as soon as it returns.
  std::function<void()> on_done;

  // --- response ---
  int status = 0;
  std::string etag, last_modified, content_range;
  std::optional<uint64_t> content_length;
  std::optional<uint64_t> retry_after_seconds;  // a Retry-After header's wait
  std::string error_body;                       // the body of a non-2xx response (the first 64 KiB)
  uint64_t body_bytes = 0;                      // body bytes received (any status)
  CURLcode result = CURLE_OK;
  std::string curl_error;  // libcurl's message for result
  std::string abort_reason;
  bool cancelled = false;

  // --- the loop's ---
  uint64_t id = 0;
  void reset_response();
};

class Loop {
 public:
  static Loop& instance();
  // Queues `t` (its response part is reset); returns an id for cancel().
  uint64_t submit(Transfer* t);
  // Ends the transfer with that id if it is still running (on_done runs,
  // with cancelled set); nothing if it has ended already.
  void cancel(uint64_t id);
  // Stops the thread (at exit); transfers still queued never end.
  void shutdown();

  struct Impl;

 private:
  explicit Loop(Impl* impl) : impl_(impl) {}
  Impl* impl_;
};

}  // namespace parq::io::curl
