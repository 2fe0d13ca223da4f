// Remote inputs: Parquet files read over http://, https:// and s3:// behind
// the same RandomAccessInput as a local file.
//
// open_url() makes one request, a suffix range read (`Range: bytes=-N`),
// which answers both the object's size (Content-Range) and its last N bytes:
// those are kept and served to the footer reader without another request.
// Later reads go out as HTTP range requests; read_ranges() sorts the ranges
// it is given, merges near ones, splits large ones and runs the requests
// concurrently over reused connections (libcurl's multi interface, one
// process-wide I/O thread), writing each range's bytes straight into the
// buffer it returns. Every request after the first carries `If-Match` with
// the ETag the first one saw, so that an object replaced during a read is an
// error rather than a mix of two files. Failures that may pass (5xx, 429,
// connection resets, timeouts) are retried with exponential backoff and
// jitter; the rest, and those whose retries run out, are parq::Error of kind
// kIo naming the URL, the HTTP status and what it means (for S3, the error's
// Code and Message). A malformed URL or option is kInvalidArgument.
//
// S3 requests are signed with AWS Signature Version 4. Credentials, region
// and endpoint come from RemoteOptions, else the environment, else the AWS
// shared files, like the AWS CLI (see RemoteOptions). Without credentials a
// request goes unsigned (public buckets).
//
// Inputs are safe to use from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parq/io/input.h"

namespace parq::io {

// Whether `location` names a remote object: http://, https:// or s3://
// (the scheme in any case).
bool is_url(std::string_view location);

struct RemoteOptions {
  // --- S3 ---
  // Credentials: these fields when access_key_id is set; else the
  // environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN);
  // else the profile (AWS_PROFILE, default "default") of the shared
  // credentials file (AWS_SHARED_CREDENTIALS_FILE, ~/.aws/credentials) and of
  // the config file (AWS_CONFIG_FILE, ~/.aws/config). None found: unsigned.
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  bool anonymous = false;  // never sign, even when credentials are found
  // Region: this, else AWS_REGION, AWS_DEFAULT_REGION, the profile's
  // `region`, else us-east-1.
  std::string region;
  // Endpoint ("http://127.0.0.1:9000"): this, else AWS_ENDPOINT_URL_S3,
  // AWS_ENDPOINT_URL, the profile's `endpoint_url`, else AWS
  // (https://s3.<region>.amazonaws.com).
  std::string endpoint;
  // Path-style addressing (endpoint/bucket/key) rather than virtual hosts
  // (bucket.endpoint/key). Unset: path style with a custom endpoint or a
  // bucket name with dots, virtual hosts on AWS.
  std::optional<bool> path_style;

  // --- ranged I/O ---
  // Bytes of the object's tail fetched by open_url's one request and kept:
  // the footer reader reads the last 64 KiB first, so that the size, the
  // footer and most metadata come in one round trip.
  uint64_t speculative_tail_bytes = 64 << 10;
  // Ranges whose gap is below this are fetched as one request, the gap read
  // and dropped. 1 MiB: at ~100 MB/s per connection it streams in ~10 ms,
  // less than one request's time to first byte on an object store (20-50
  // ms), and object stores bill and throttle per request.
  uint64_t coalesce_gap_bytes = 1 << 20;
  // A request is at most this large (larger ranges are split and fetched in
  // parallel): 8 MiB is the part size object stores serve at full speed per
  // connection, and a failed part costs little to retry. At least 4 KiB.
  uint64_t max_request_bytes = 8 << 20;
  // Requests in flight at once per input (each on its own connection over
  // HTTP/1.1), and the bytes they may ask for together (a single request
  // larger than this still runs, alone). A projection's far-apart chunks
  // across the row groups fetched ahead are often more than 16 ranges; a
  // second wave costs a round trip, and object stores serve thousands of
  // GETs a second per prefix.
  int max_concurrent_requests = 32;
  uint64_t max_bytes_in_flight = 128 << 20;
  // Retries of a request after a failure that may pass: HTTP 5xx, 408 and
  // 429, a refused or reset connection, a timeout. The wait before retry k
  // (from 1) is a random time between half and all of
  // min(retry_base_ms * 2^(k-1), retry_max_ms), and at least what a
  // Retry-After header (seconds or a date) asks, up to retry_max_ms. A
  // retried range resumes after the bytes it already received.
  int max_retries = 4;
  int retry_base_ms = 100;
  int retry_max_ms = 5000;
  // Connecting fails after connect_timeout_ms; a request fails when it
  // receives no bytes for stall_timeout_ms, or has not finished after
  // request_timeout_ms (0: no limit beyond the stall timeout).
  int connect_timeout_ms = 10000;
  int stall_timeout_ms = 30000;
  int request_timeout_ms = 0;
  // TLS: verify the server's certificate (against ca_file when set, else
  // the system's store).
  bool verify_tls = true;
  std::string ca_file;
};

// What an input has done so far (a snapshot of its counters).
struct RemoteStats {
  uint64_t requests = 0;          // HTTP requests sent, retries included
  uint64_t retries = 0;           // requests that were retries
  uint64_t bytes_received = 0;    // body bytes received
  uint64_t bytes_wasted = 0;      // of which in coalesced gaps, not asked for
  uint64_t ranges_from_tail = 0;  // reads served from open_url's tail bytes
};

// Opens `url` (http://, https:// or s3://bucket/key) with one request.
// Throws parq::Error: kInvalidArgument for a malformed URL, kIo when the
// object cannot be read (the message names the URL, status and reason).
std::unique_ptr<RandomAccessInput> open_url(const std::string& url, const RemoteOptions& options = {});

// The counters of an input from open_url(); nullopt for any other input.
std::optional<RemoteStats> remote_stats(const RandomAccessInput& input);

struct ObjectInfo {
  std::string url;  // s3://bucket/key
  uint64_t size = 0;
};

// Every object under `url_prefix` ("s3://bucket", "s3://bucket/dir/",
// "s3://bucket/dir/part"), recursively, in key order (S3 ListObjectsV2,
// following continuation tokens). Directory markers (keys ending in "/")
// are left out. Over http(s) there is no listing: kUnsupported.
std::vector<ObjectInfo> list_objects(const std::string& url_prefix, const RemoteOptions& options = {});

}  // namespace parq::io
