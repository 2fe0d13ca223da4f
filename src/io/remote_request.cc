// Requests with limits and retries; see remote_request.h.
#include "remote_request.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <random>

#include "http_parse.h"
#include "s3_config.h"
#include "s3_xml.h"

namespace parq::io::remote {
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The wait before retry `attempt` (from 1): between half and all of the
// exponential step, so that clients failing together do not retry together;
// at least what the server's Retry-After asks, up to retry_max_ms.
std::chrono::milliseconds backoff(const RemoteOptions& options, int attempt,
                                  std::optional<uint64_t> retry_after_seconds) {
  const double most = std::max(1, options.retry_max_ms);
  double step = std::max(1, options.retry_base_ms);
  for (int i = 1; i < attempt && step < most; ++i) step *= 2;
  step = std::min<double>(step, most);
  thread_local std::mt19937 rng{std::random_device{}()};
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  double wait = step * jitter(rng);
  if (retry_after_seconds)
    wait =
        std::max(wait, std::min(most, static_cast<double>(std::min<uint64_t>(*retry_after_seconds, 1u << 30)) * 1000));
  return std::chrono::milliseconds(static_cast<int64_t>(wait));
}

bool retryable_curl_code(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

std::string curl_reason(const curl::Transfer& t) {
  switch (t.result) {
    case CURLE_COULDNT_CONNECT:
      return "cannot connect (connection refused or unreachable): " + t.curl_error;
    case CURLE_OPERATION_TIMEDOUT:
      return "timed out: " + t.curl_error;
    case CURLE_COULDNT_RESOLVE_HOST:
      return "cannot resolve the host: " + t.curl_error;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return "the connection failed mid-request (server gone or reset): " + t.curl_error;
    default:
      return t.curl_error;
  }
}

}  // namespace

RemoteStats Stats::snapshot() const {
  RemoteStats s;
  s.requests = requests.load(std::memory_order_relaxed);
  s.retries = retries.load(std::memory_order_relaxed);
  s.bytes_received = bytes_received.load(std::memory_order_relaxed);
  s.bytes_wasted = bytes_wasted.load(std::memory_order_relaxed);
  s.ranges_from_tail = ranges_from_tail.load(std::memory_order_relaxed);
  return s;
}

curl::TransferOptions transfer_options(const RemoteOptions& options) {
  curl::TransferOptions t;
  t.connect_timeout_ms = options.connect_timeout_ms;
  t.stall_timeout_ms = options.stall_timeout_ms;
  t.request_timeout_ms = options.request_timeout_ms;
  t.verify_tls = options.verify_tls;
  t.ca_file = options.ca_file;
  return t;
}

Resource Resource::for_url(const std::string& url, const RemoteOptions& options) {
  Resource r;
  size_t sep = url.find("://");
  std::string scheme = sep == std::string::npos ? std::string() : lower(url.substr(0, sep));
  if (scheme == "s3") {
    s3::Location loc = s3::parse_s3_url(url);
    s3::Target target = s3::resolve(loc.bucket, options);
    r.display = url;
    r.s3 = true;
    r.base_url = target.base_url;
    r.host = target.host;
    r.path = target.path_prefix + "/" + s3::uri_encode(loc.key, true);
    r.region = target.region;
    r.credentials = target.credentials;
    r.credential_source = target.credential_source;
    return r;
  }
  if (scheme != "http" && scheme != "https")
    throw Error(ErrorKind::kInvalidArgument, {.file = url}, "not an http://, https:// or s3:// URL");
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      throw Error(ErrorKind::kInvalidArgument, {.file = url}, "a URL cannot hold spaces or control characters");
  std::string rest = url.substr(sep + 3);
  size_t hash = rest.find('#');
  if (hash != std::string::npos) rest.resize(hash);
  size_t end = rest.find_first_of("/?");
  std::string authority = rest.substr(0, end);
  r.path = end == std::string::npos ? "/" : rest.substr(end);
  if (r.path[0] == '?') r.path = "/" + r.path;
  std::string host = authority.substr(authority.rfind('@') == std::string::npos ? 0 : authority.rfind('@') + 1);
  if (host.empty() || host[0] == ':') throw Error(ErrorKind::kInvalidArgument, {.file = url}, "no host in the URL");
  r.host = host;
  r.base_url = scheme + "://" + authority;
  r.display = scheme + "://" + host + r.path.substr(0, r.path.find('?'));
  return r;
}

void Resource::prepare(curl::Transfer& t, const std::string& request_path, const Query& query) const {
  t.url = base_url + request_path;
  if (!s3) return;
  if (!query.empty()) t.url += "?" + s3::canonical_query(query);
  if (credentials.empty()) return;
  s3::SignedHeaders signed_headers =
      s3::sign_request(credentials, region, "GET", host, request_path, query, std::time(nullptr));
  for (std::string& line : signed_headers.lines) t.headers.push_back(std::move(line));
}

void throw_transfer_error(const curl::Transfer& t, const std::string& display, int64_t offset) {
  ErrorLocation where{.file = display, .offset = offset};
  if (t.result != CURLE_OK) {
    if (!t.abort_reason.empty()) throw Error(ErrorKind::kIo, where, t.abort_reason);
    Error e(ErrorKind::kIo, where, curl_reason(t));
    if (retryable_curl_code(t.result)) throw Retryable{e};
    throw e;
  }
  std::string detail = "HTTP " + http::describe_status(t.status);
  if (auto doc = s3::parse_error(t.error_body)) {
    detail += "; S3 error " + doc->code;
    if (!doc->message.empty()) detail += ": " + doc->message;
  }
  Error e(ErrorKind::kIo, where, detail);
  if (http::is_retryable_status(t.status)) throw Retryable{e, t.retry_after_seconds};
  throw e;
}

void run_requests(std::span<Request* const> requests, Limiter& limiter, const RemoteOptions& options, Stats& stats) {
  if (requests.empty()) return;
  curl::Loop& loop = curl::Loop::instance();
  const curl::TransferOptions transfer = transfer_options(options);

  struct Slot {
    Request* request = nullptr;
    curl::Transfer transfer;
    uint64_t weight = 0;
    int attempt = 0;
    uint64_t id = 0;
    bool running = false;
    Clock::time_point due;
  };
  std::vector<std::unique_ptr<Slot>> slots;
  std::deque<Slot*> ready, finished;
  std::vector<Slot*> waiting;  // for a retry
  for (Request* r : requests) {
    auto s = std::make_unique<Slot>();
    s->request = r;
    s->weight = r->weight();
    ready.push_back(s.get());
    slots.push_back(std::move(s));
  }
  size_t remaining = slots.size();
  int running = 0;  // this call's transfers not yet ended (on_done counts them down)
  std::optional<Error> failure;
  bool cancelled = false;

  std::unique_lock lock(limiter.mu);
  auto cancel_all = [&] {
    if (cancelled) return;
    cancelled = true;
    for (auto& s : slots)
      if (s->running) loop.cancel(s->id);
  };
  try {
    while (running > 0 || (remaining > 0 && !failure)) {
      // What ended.
      while (!finished.empty()) {
        Slot* s = finished.front();
        finished.pop_front();
        if (s->transfer.cancelled || failure) continue;
        lock.unlock();
        std::optional<Error> retry;
        std::optional<uint64_t> retry_after;
        try {
          s->request->check(s->transfer);
        } catch (Retryable& r) {
          retry = std::move(r.error);
          retry_after = r.retry_after_seconds;
        } catch (const Error& e) {
          failure = e;
        }
        lock.lock();
        if (failure) break;
        if (!retry) {
          --remaining;
          continue;
        }
        if (s->attempt >= options.max_retries) {
          failure = Error(retry->kind(), retry->location(),
                          retry->detail() + " (after " + std::to_string(s->attempt) + " retries)");
          break;
        }
        ++s->attempt;
        s->due = Clock::now() + backoff(options, s->attempt, retry_after);
        waiting.push_back(s);
      }
      if (failure) {
        cancel_all();
        if (running > 0) limiter.cv.wait(lock);
        finished.clear();
        continue;
      }
      // Retries whose time has come.
      const Clock::time_point now = Clock::now();
      Clock::time_point next_due = Clock::time_point::max();
      for (size_t i = 0; i < waiting.size();) {
        if (waiting[i]->due <= now) {
          ready.push_back(waiting[i]);
          waiting[i] = waiting.back();
          waiting.pop_back();
        } else {
          next_due = std::min(next_due, waiting[i]->due);
          ++i;
        }
      }
      // Start what the limits allow.
      while (!ready.empty() && limiter.can_start(ready.front()->weight)) {
        Slot* s = ready.front();
        ready.pop_front();
        s->transfer = curl::Transfer{};
        s->transfer.options = transfer;
        s->request->prepare(s->transfer);
        // Notifies under the lock: once it is released, the waiter may
        // return and free this closure (and the input its limiter).
        s->transfer.on_done = [s, &limiter, &finished, &running] {
          std::lock_guard done_lock(limiter.mu);
          s->running = false;
          --running;
          --limiter.active;
          limiter.bytes -= s->weight;
          finished.push_back(s);
          limiter.cv.notify_all();
        };
        ++limiter.active;
        limiter.bytes += s->weight;
        ++running;
        s->running = true;
        stats.requests.fetch_add(1, std::memory_order_relaxed);
        if (s->attempt > 0) stats.retries.fetch_add(1, std::memory_order_relaxed);
        s->id = loop.submit(&s->transfer);
      }
      if (!finished.empty() || (remaining == 0 && running == 0)) continue;
      if (next_due == Clock::time_point::max()) {
        limiter.cv.wait(lock);
      } else {
        limiter.cv.wait_until(lock, next_due);
      }
    }
  } catch (...) {
    // Nothing may outlive this call while a transfer still writes into it.
    cancelled = false;
    cancel_all();
    while (running > 0) limiter.cv.wait(lock);
    throw;
  }
  if (failure) throw *failure;
}

}  // namespace parq::io::remote
