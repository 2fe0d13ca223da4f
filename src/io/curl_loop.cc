// The libcurl event loop; see curl_loop.h.
#include "curl_loop.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "http_parse.h"
#include "parq/error.h"

namespace parq::io::curl {
namespace {

constexpr size_t kMaxErrorBody = 64 << 10;

size_t on_header(char* data, size_t size, size_t nitems, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * nitems;
  std::string_view line(data, n);
  if (auto status = http::parse_status_line(line)) {
    // A new response (after a 100 Continue or a redirect): forget the last.
    t->status = *status;
    t->etag.clear();
    t->last_modified.clear();
    t->content_range.clear();
    t->content_length.reset();
    t->retry_after_seconds.reset();
    return n;
  }
  std::string_view name, value;
  if (!http::parse_header_line(line, name, value)) return n;
  if (http::iequals(name, "ETag")) {
    t->etag = std::string(value.substr(0, 1024));
  } else if (http::iequals(name, "Last-Modified")) {
    t->last_modified = std::string(value.substr(0, 256));
  } else if (http::iequals(name, "Content-Range")) {
    t->content_range = std::string(value.substr(0, 256));
  } else if (http::iequals(name, "Content-Length")) {
    t->content_length = http::parse_decimal(value);
  } else if (http::iequals(name, "Retry-After")) {
    t->retry_after_seconds = http::parse_retry_after(value, static_cast<int64_t>(std::time(nullptr)));
  }
  return n;
}

size_t on_write(char* data, size_t size, size_t nmemb, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * nmemb;
  t->body_bytes += n;
  if (t->status >= 200 && t->status < 300) {
    if (t->on_body && !t->on_body(data, n)) return CURL_WRITEFUNC_ERROR;
    return n;
  }
  if (t->error_body.size() < kMaxErrorBody)
    t->error_body.append(data, std::min(n, kMaxErrorBody - t->error_body.size()));
  return n;
}

}  // namespace

void Transfer::reset_response() {
  status = 0;
  etag.clear();
  last_modified.clear();
  content_range.clear();
  content_length.reset();
  retry_after_seconds.reset();
  error_body.clear();
  body_bytes = 0;
  result = CURLE_OK;
  curl_error.clear();
  abort_reason.clear();
  cancelled = false;
}

struct Loop::Impl {
  struct Active {
    Transfer* transfer;
    CURL* easy;
    curl_slist* headers;
    char error[CURL_ERROR_SIZE];
  };

  CURLM* multi = nullptr;
  std::mutex mu;
  std::deque<Transfer*> to_add;
  std::vector<uint64_t> to_cancel;
  bool stop = false;
  uint64_t next_id = 1;
  std::unordered_map<uint64_t, Active*> active;  // the loop thread's alone
  std::thread thread;

  Impl() {
    multi = curl_multi_init();
    if (multi == nullptr) throw Error(ErrorKind::kIo, {}, "libcurl: cannot create a multi handle");
    // Idle connections kept for reuse.
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 64L);
    thread = std::thread([this] { run(); });
  }

  void start(Transfer* t) {
    auto* a = new Active{t, curl_easy_init(), nullptr, {}};
    if (a->easy == nullptr) {
      t->result = CURLE_OUT_OF_MEMORY;
      t->curl_error = "libcurl: cannot create a handle";
      finish(a);
      return;
    }
    CURL* e = a->easy;
    curl_easy_setopt(e, CURLOPT_URL, t->url.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, a);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, a->error);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, t->options.connect_timeout_ms);
    if (t->options.request_timeout_ms > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, t->options.request_timeout_ms);
    if (t->options.stall_timeout_ms > 0) {
      // Fewer than 1 byte per second over the window: stalled.
      curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, std::max(1L, (t->options.stall_timeout_ms + 999) / 1000));
    }
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, t->options.verify_tls ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, t->options.verify_tls ? 2L : 0L);
    if (!t->options.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, t->options.ca_file.c_str());
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    // Compressed answers would not be byte ranges of the object.
    for (const std::string& h : t->headers) a->headers = curl_slist_append(a->headers, h.c_str());
    a->headers = curl_slist_append(a->headers, "Accept-Encoding: identity");
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, a->headers);
    active.emplace(t->id, a);
    if (curl_multi_add_handle(multi, e) != CURLM_OK) {
      active.erase(t->id);
      t->result = CURLE_FAILED_INIT;
      t->curl_error = "libcurl: cannot add a transfer";
      finish(a);
    }
  }

  // Releases a transfer's handles and tells its owner (last: the owner may
  // destroy it then).
  void finish(Active* a) {
    Transfer* t = a->transfer;
    if (t->curl_error.empty() && t->result != CURLE_OK)
      t->curl_error = a->error[0] != '\0' ? std::string(a->error) : std::string(curl_easy_strerror(t->result));
    if (a->easy != nullptr) curl_easy_cleanup(a->easy);
    curl_slist_free_all(a->headers);
    delete a;
    if (t->on_done) t->on_done();
  }

  void run() {
    while (true) {
      std::deque<Transfer*> add;
      std::vector<uint64_t> cancel;
      {
        std::lock_guard lock(mu);
        if (stop) break;
        add.swap(to_add);
        cancel.swap(to_cancel);
      }
      for (Transfer* t : add) start(t);
      for (uint64_t id : cancel) {
        auto it = active.find(id);
        if (it == active.end()) continue;
        Active* a = it->second;
        active.erase(it);
        curl_multi_remove_handle(multi, a->easy);
        a->transfer->cancelled = true;
        a->transfer->result = CURLE_ABORTED_BY_CALLBACK;
        finish(a);
      }
      int running = 0;
      curl_multi_perform(multi, &running);
      int queued = 0;
      while (CURLMsg* m = curl_multi_info_read(multi, &queued)) {
        if (m->msg != CURLMSG_DONE) continue;
        Active* a = nullptr;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&a));
        CURLcode result = m->data.result;
        curl_multi_remove_handle(multi, m->easy_handle);
        active.erase(a->transfer->id);
        a->transfer->result = result;
        finish(a);
      }
      curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
  }
};

namespace {

std::mutex instance_mutex;
Loop* instance_loop = nullptr;
pid_t instance_pid = 0;

// Stops the thread at exit, before OpenSSL's own exit handler (registered
// earlier, by curl_global_init) tears down what a transfer may be using.
void stop_at_exit() {
  std::lock_guard lock(instance_mutex);
  if (instance_loop != nullptr && instance_pid == ::getpid()) instance_loop->shutdown();
}

}  // namespace

Loop& Loop::instance() {
  std::lock_guard lock(instance_mutex);
  if (instance_loop != nullptr && instance_pid == ::getpid()) return *instance_loop;
  static std::once_flag global_init;
  std::call_once(global_init, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw Error(ErrorKind::kIo, {}, "libcurl: global initialization failed");
  });
  // In a forked child the old loop's thread is gone: its state is left as
  // it is (leaked) and a new loop starts.
  instance_loop = new Loop(new Impl());
  instance_pid = ::getpid();
  static bool registered = false;
  if (!registered) {
    std::atexit(stop_at_exit);
    registered = true;
  }
  return *instance_loop;
}

uint64_t Loop::submit(Transfer* t) {
  t->reset_response();
  {
    std::lock_guard lock(impl_->mu);
    t->id = impl_->next_id++;
    impl_->to_add.push_back(t);
  }
  curl_multi_wakeup(impl_->multi);
  return t->id;
}

void Loop::shutdown() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stop = true;
  }
  curl_multi_wakeup(impl_->multi);
  if (impl_->thread.joinable()) impl_->thread.join();
}

void Loop::cancel(uint64_t id) {
  {
    std::lock_guard lock(impl_->mu);
    impl_->to_cancel.push_back(id);
  }
  curl_multi_wakeup(impl_->multi);
}

}  // namespace parq::io::curl
