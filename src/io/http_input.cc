// Remote inputs over HTTP range requests (http://, https://, and s3:// as
// signed HTTP); see parq/io/remote.h for the behaviour.
//
// open_url's one request is a suffix range: it gives the size, the ETag and
// the tail, which view() then serves without copying (the footer and most
// page indexes sit there). read_ranges plans requests with
// range_coalescing.h and scatters each response's bytes into the buffers of
// the ranges it carries, as they arrive; a retried request resumes where
// its bytes stopped. Every request but the first sends If-Match with the
// first one's ETag and checks the ETag it gets back.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "http_parse.h"
#include "parq/io/remote.h"
#include "range_coalescing.h"
#include "remote_request.h"

namespace parq::io {
namespace {

// An object that answers a range request with the whole body is read whole
// into memory up to this size; larger ones are an error.
constexpr uint64_t kMaxWholeBody = uint64_t{64} << 20;

std::string lower_scheme(std::string_view url) {
  std::string s(url.substr(0, url.find("://")));
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The first request: size, validator and tail.
class OpenRequest : public remote::Request {
 public:
  OpenRequest(const remote::Resource& resource, uint64_t tail, remote::Stats& stats)
      : resource_(resource), tail_(tail), stats_(stats) {}
  uint64_t weight() const override { return tail_; }
  void prepare(curl::Transfer& t) override {
    resource_.prepare(t, resource_.path);
    t.headers.push_back("Range: bytes=-" + std::to_string(tail_));
    bytes.clear();
    t.on_body = [this, &t](const char* data, size_t n) {
      stats_.bytes_received.fetch_add(n, std::memory_order_relaxed);
      if (bytes.empty() && t.status == 206) {
        auto range = http::parse_content_range(t.content_range);
        if (range && range->has_range) bytes.reserve(range->last - range->first + 1);
      }
      if (bytes.size() + n > (t.status == 206 ? tail_ : kMaxWholeBody)) {
        t.abort_reason = t.status == 206
                             ? "the server sent more bytes than the range asked for"
                             : "the server ignores Range requests (answers 200 with the whole object) and the object "
                               "is larger than " +
                                   std::to_string(kMaxWholeBody >> 20) + " MiB, the most read whole";
        return false;
      }
      bytes.insert(bytes.end(), data, data + n);
      return true;
    };
  }
  void check(const curl::Transfer& t) override {
    if (t.result != CURLE_OK || (t.status != 200 && t.status != 206 && t.status != 416))
      remote::throw_transfer_error(t, resource_.display);
    etag = t.etag;
    last_modified = t.last_modified;
    if (t.status == 200) {
      if (t.content_length && *t.content_length != bytes.size())
        throw remote::Retryable{Error(ErrorKind::kIo, {.file = resource_.display},
                                      "the response ended after " + std::to_string(bytes.size()) + " of " +
                                          std::to_string(*t.content_length) + " bytes")};
      size = bytes.size();
      tail_offset = 0;
      return;
    }
    auto range = http::parse_content_range(t.content_range);
    if (!range || !range->total)
      throw Error(ErrorKind::kIo, {.file = resource_.display},
                  "HTTP " + std::to_string(t.status) + " without a usable Content-Range (\"" + t.content_range +
                      "\"): cannot tell the object's size");
    size = *range->total;
    if (t.status == 416) {
      // Only an empty object cannot satisfy a suffix range.
      if (size != 0)
        throw Error(ErrorKind::kIo, {.file = resource_.display},
                    "HTTP 416 Range Not Satisfiable for the last " + std::to_string(tail_) + " bytes of " +
                        std::to_string(size));
      bytes.clear();
      tail_offset = 0;
      return;
    }
    if (!range->has_range || range->last + 1 != size || range->last - range->first + 1 != bytes.size())
      throw Error(ErrorKind::kIo, {.file = resource_.display},
                  "the answer's Content-Range \"" + t.content_range + "\" is not the object's last " +
                      std::to_string(bytes.size()) + " bytes");
    tail_offset = range->first;
  }

  std::vector<uint8_t> bytes;
  uint64_t size = 0, tail_offset = 0;
  std::string etag, last_modified;

 private:
  const remote::Resource& resource_;
  uint64_t tail_;
  remote::Stats& stats_;
};

class RemoteInput;

// One planned request: its bytes go to the pieces' buffers.
class RangeRequest : public remote::Request {
 public:
  RangeRequest(const RemoteInput& input, PlannedRequest plan, const std::vector<uint8_t*>& dests)
      : input_(input), plan_(std::move(plan)), dests_(dests) {}
  uint64_t weight() const override { return plan_.bytes.length - received_; }
  void prepare(curl::Transfer& t) override;
  void check(const curl::Transfer& t) override;

 private:
  // Copies bytes [pos, pos + n) of the file into the pieces they belong to.
  void scatter(uint64_t pos, const char* data, size_t n) {
    const uint64_t end = pos + n;
    while (first_open_ < plan_.pieces.size() &&
           plan_.pieces[first_open_].offset + plan_.pieces[first_open_].length <= pos)
      ++first_open_;
    for (size_t i = first_open_; i < plan_.pieces.size() && plan_.pieces[i].offset < end; ++i) {
      const RequestPiece& p = plan_.pieces[i];
      const uint64_t a = std::max(pos, p.offset), b = std::min(end, p.offset + p.length);
      if (a >= b) continue;
      std::memcpy(dests_[p.range] + p.dest_offset + (a - p.offset), data + (a - pos), b - a);
    }
  }

  const RemoteInput& input_;
  PlannedRequest plan_;
  const std::vector<uint8_t*>& dests_;
  uint64_t received_ = 0;  // bytes of the request already scattered (kept across retries)
  size_t first_open_ = 0;
  bool range_checked_ = false;
};

// Hands out the buffer ByteRange::read allocates, unfilled: read_ranges
// fills it later, straight from the network.
class BufferGrabber : public RandomAccessInput {
 public:
  uint64_t size() const override { return UINT64_MAX; }
  const std::string& name() const override { return name_; }
  uint8_t* last = nullptr;

 protected:
  void do_read_at(uint64_t, size_t, uint8_t* out) override { last = out; }

 private:
  std::string name_ = "<buffer>";
};

class RemoteInput : public RandomAccessInput {
 public:
  RemoteInput(remote::Resource resource, const RemoteOptions& options)
      : resource_(std::move(resource)),
        options_(options),
        limiter_(std::max(1, options.max_concurrent_requests), std::max<uint64_t>(1, options.max_bytes_in_flight)),
        // Requests of at least 4 KiB: a smaller cap would cut a large range
        // into a flood of requests.
        max_request_(std::max<uint64_t>(options.max_request_bytes, 4096)) {
    OpenRequest open(resource_, std::max<uint64_t>(options.speculative_tail_bytes, 8), stats_);
    remote::Request* one[] = {&open};
    remote::run_requests(one, limiter_, options_, stats_);
    size_ = open.size;
    tail_ = std::move(open.bytes);
    tail_offset_ = open.tail_offset;
    etag_ = open.etag;
    last_modified_ = open.last_modified;
  }

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return resource_.display; }
  std::span<const uint8_t> view(uint64_t offset, size_t n) const override {
    if (!in_tail(offset, n)) return {};
    count_view(n);
    if (n != 0) stats_.ranges_from_tail.fetch_add(1, std::memory_order_relaxed);
    return {tail_.data() + (offset - tail_offset_), n};
  }

  std::vector<ByteRange> read_ranges(std::span<const FileRange> ranges) override {
    std::vector<ByteRange> out(ranges.size());
    std::vector<FileRange> fetch;
    std::vector<uint8_t*> dests;
    std::vector<size_t> fetched_index;
    BufferGrabber grabber;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const FileRange& r = ranges[i];
      if (r.offset > size_ || r.length > size_ - r.offset)
        throw Error(ErrorKind::kCorrupt, {.file = name(), .offset = static_cast<int64_t>(r.offset)},
                    "a read of " + std::to_string(r.length) + " bytes is past the end of the input (" +
                        std::to_string(size_) + " bytes)");
      if (r.length > SIZE_MAX) throw Error(name() + ": a range of " + std::to_string(r.length) + " bytes is too large");
      const auto n = static_cast<size_t>(r.length);
      if (n == 0 || in_tail(r.offset, n)) {
        out[i] = ByteRange::read(*this, r.offset, n);
        continue;
      }
      out[i] = ByteRange::read(grabber, 0, n);
      count_view(n);
      fetch.push_back(r);
      dests.push_back(grabber.last);
    }
    fetch_into(fetch, dests);
    return out;
  }

  remote::Stats& stats() const { return stats_; }
  const remote::Resource& resource() const { return resource_; }
  const std::string& etag() const { return etag_; }
  const std::string& last_modified() const { return last_modified_; }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override {
    if (in_tail(offset, n)) {
      if (n != 0) std::memcpy(out, tail_.data() + (offset - tail_offset_), n);
      stats_.ranges_from_tail.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    const FileRange range{offset, n};
    std::vector<uint8_t*> dests = {out};
    fetch_into({&range, 1}, dests);
  }

 private:
  bool in_tail(uint64_t offset, size_t n) const {
    return offset >= tail_offset_ && offset - tail_offset_ <= tail_.size() &&
           n <= tail_.size() - (offset - tail_offset_);
  }

  void fetch_into(std::span<const FileRange> ranges, const std::vector<uint8_t*>& dests) {
    if (ranges.empty()) return;
    std::vector<PlannedRequest> plan =
        coalesce_ranges(ranges, {.gap = options_.coalesce_gap_bytes, .max_request = max_request_});
    std::vector<std::unique_ptr<RangeRequest>> requests;
    std::vector<remote::Request*> pointers;
    uint64_t wasted = 0;
    for (PlannedRequest& p : plan) {
      // The request's bytes that no range asked for (pieces are sorted).
      uint64_t covered_to = p.bytes.offset;
      wasted += p.bytes.length;
      for (const RequestPiece& piece : p.pieces) {
        const uint64_t end = piece.offset + piece.length;
        if (end > covered_to) {
          wasted -= end - std::max(covered_to, piece.offset);
          covered_to = end;
        }
      }
      requests.push_back(std::make_unique<RangeRequest>(*this, std::move(p), dests));
      pointers.push_back(requests.back().get());
    }
    stats_.bytes_wasted.fetch_add(wasted, std::memory_order_relaxed);
    remote::run_requests(pointers, limiter_, options_, stats_);
  }

  remote::Resource resource_;
  RemoteOptions options_;
  remote::Limiter limiter_;
  uint64_t max_request_;
  mutable remote::Stats stats_;
  uint64_t size_ = 0;
  std::vector<uint8_t> tail_;
  uint64_t tail_offset_ = 0;
  std::string etag_, last_modified_;
};

void RangeRequest::prepare(curl::Transfer& t) {
  const remote::Resource& res = input_.resource();
  res.prepare(t, res.path);
  const uint64_t first = plan_.bytes.offset + received_, last = plan_.bytes.end() - 1;
  t.headers.push_back("Range: bytes=" + std::to_string(first) + "-" + std::to_string(last));
  if (http::is_strong_etag(input_.etag())) {
    t.headers.push_back("If-Match: " + input_.etag());
  } else if (!input_.last_modified().empty()) {
    t.headers.push_back("If-Unmodified-Since: " + input_.last_modified());
  }
  range_checked_ = false;
  t.on_body = [this, &t, first, last](const char* data, size_t n) {
    input_.stats().bytes_received.fetch_add(n, std::memory_order_relaxed);
    if (!range_checked_) {
      if (t.status != 206) {
        t.abort_reason = "the server answered a range request with HTTP " + http::describe_status(t.status);
        return false;
      }
      auto range = http::parse_content_range(t.content_range);
      if (!range || !range->has_range || range->first != first || range->last != last) {
        t.abort_reason = "the server answered the range " + std::to_string(first) + "-" + std::to_string(last) +
                         " with Content-Range \"" + t.content_range + "\"";
        return false;
      }
      if (range->total && *range->total != input_.size()) {
        t.abort_reason = "the object changed during the read: its size is now " + std::to_string(*range->total) +
                         " bytes, was " + std::to_string(input_.size());
        return false;
      }
      if (!input_.etag().empty() && !t.etag.empty() && t.etag != input_.etag()) {
        t.abort_reason = "the object changed during the read: its ETag is now " + t.etag + ", was " + input_.etag();
        return false;
      }
      range_checked_ = true;
    }
    if (received_ + n > plan_.bytes.length) {
      t.abort_reason = "the server sent more bytes than the range asked for";
      return false;
    }
    scatter(plan_.bytes.offset + received_, data, n);
    received_ += n;
    return true;
  };
}

void RangeRequest::check(const curl::Transfer& t) {
  const int64_t offset = static_cast<int64_t>(plan_.bytes.offset + received_);
  if (t.result == CURLE_OK && t.status == 412)
    throw Error(ErrorKind::kIo, {.file = input_.name(), .offset = offset},
                "the object changed during the read (HTTP 412 Precondition Failed: its ETag is no longer " +
                    input_.etag() + ")");
  if (t.result != CURLE_OK || t.status != 206) remote::throw_transfer_error(t, input_.name(), offset);
  if (received_ != plan_.bytes.length)
    throw remote::Retryable{Error(ErrorKind::kIo, {.file = input_.name(), .offset = offset},
                                  "the response ended after " + std::to_string(received_) + " of " +
                                      std::to_string(plan_.bytes.length) + " bytes")};
}

}  // namespace

bool is_url(std::string_view location) {
  std::string scheme = lower_scheme(location);
  return location.find("://") != std::string_view::npos && (scheme == "http" || scheme == "https" || scheme == "s3");
}

std::unique_ptr<RandomAccessInput> open_url(const std::string& url, const RemoteOptions& options) {
  return std::make_unique<RemoteInput>(remote::Resource::for_url(url, options), options);
}

std::optional<RemoteStats> remote_stats(const RandomAccessInput& input) {
  if (const auto* remote = dynamic_cast<const RemoteInput*>(&input)) return remote->stats().snapshot();
  return std::nullopt;
}

}  // namespace parq::io
