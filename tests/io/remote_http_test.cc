// Remote inputs over HTTP against nginx on loopback (range requests,
// coalescing, concurrency, ETags, a Parquet file read back), and failures
// on cue from tests/io/flaky_http_server.py (5xx, resets mid-body, stalls,
// a server without Range support).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/io/remote.h"
#include "parq/text/row_text.h"
#include "remote_servers.h"
#include "test_paths.h"

namespace parq::io {
namespace {

using namespace parq::testing::remote;
namespace fs = std::filesystem;

RemoteStats stats_of(const RandomAccessInput& in) {
  auto s = remote_stats(in);
  EXPECT_TRUE(s.has_value());
  return s.value_or(RemoteStats{});
}

// Rows of a Parquet file as JSON Lines.
std::string rows_of(std::unique_ptr<RandomAccessInput> input, const std::vector<std::string>& columns = {}) {
  auto file = FileReader::open(std::move(input));
  ReadOptions options;
  options.columns = columns;
  auto source = read_batches(*file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::append_rows_jsonl(out, batch, 0, batch.num_rows);
  return out;
}

class RemoteHttp : public ::testing::Test {
 protected:
  // The server starts with the suite's first test, in SetUp: a server that
  // cannot start fails the test (in SetUpTestSuite gtest would skip it).
  void SetUp() override {
    if (server_ == nullptr) {
      server_ = new Nginx();
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  // Puts `bytes` on the server as `name`; returns its URL.
  std::string put(const std::string& name, const std::vector<uint8_t>& bytes) {
    write_file(server_->root() / name, bytes);
    return server_->url(name);
  }
  static Nginx* server_;
};
Nginx* RemoteHttp::server_ = nullptr;

TEST_F(RemoteHttp, OpenIsOneSuffixRequestThatServesTheFooter) {
  const auto data = random_bytes(1 << 20, 1);
  const std::string url = put("open.bin", data);
  auto input = open_url(url);
  EXPECT_EQ(input->size(), data.size());
  EXPECT_EQ(input->name(), url);
  EXPECT_EQ(stats_of(*input).requests, 1u);
  auto log = server_->access_log("open.bin", 1);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].status, 206);
  EXPECT_EQ(log[0].range, "bytes=-65536");
  EXPECT_EQ(log[0].bytes, 65536u);

  // The footer reader's reads inside the last 64 KiB: no request, views.
  std::vector<uint8_t> tail(8);
  input->read_at(data.size() - 8, 8, tail.data());
  EXPECT_EQ(tail, slice(data, data.size() - 8, 8));
  auto view = input->view(data.size() - 65536, 65536);
  ASSERT_EQ(view.size(), 65536u);
  EXPECT_TRUE(std::equal(view.begin(), view.end(), data.end() - 65536));
  auto ranges = input->read_ranges(std::vector<FileRange>{{data.size() - 100, 50}, {data.size() - 65536, 10}});
  EXPECT_EQ(bytes_of(ranges[0]), slice(data, data.size() - 100, 50));
  EXPECT_EQ(bytes_of(ranges[1]), slice(data, data.size() - 65536, 10));
  RemoteStats s = stats_of(*input);
  EXPECT_EQ(s.requests, 1u);
  EXPECT_EQ(s.bytes_received, 65536u);
  EXPECT_GE(s.ranges_from_tail, 3u);

  // A read before the tail is a range request of exactly its bytes.
  std::vector<uint8_t> head(4);
  input->read_at(0, 4, head.data());
  EXPECT_EQ(head, slice(data, 0, 4));
  EXPECT_EQ(stats_of(*input).requests, 2u);
  log = server_->access_log("open.bin", 2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].range, "bytes=0-3");
  EXPECT_EQ(log[1].bytes, 4u);
}

TEST_F(RemoteHttp, SmallObjectIsWhollyInTheFirstAnswer) {
  const auto data = random_bytes(1000, 2);
  auto input = open_url(put("small.bin", data));
  ASSERT_EQ(input->size(), 1000u);
  std::vector<uint8_t> all(1000);
  input->read_at(0, 1000, all.data());
  EXPECT_EQ(all, data);
  EXPECT_EQ(stats_of(*input).requests, 1u);
  // Past the end is an error, without a request.
  EXPECT_THROW(input->read_at(990, 11, all.data()), Error);
  EXPECT_THROW(input->read_ranges(std::vector<FileRange>{{0, 10}, {995, 6}}), Error);
  EXPECT_EQ(stats_of(*input).requests, 1u);
}

TEST_F(RemoteHttp, NearRangesBecomeOneRequest) {
  const auto data = random_bytes(4 << 20, 3);
  auto input = open_url(put("near.bin", data));
  // 100 ranges of 1000 bytes, 3000 bytes apart, in shuffled order.
  std::vector<FileRange> ranges;
  for (uint64_t i = 0; i < 100; ++i) ranges.push_back({100000 + i * 4000, 1000});
  std::shuffle(ranges.begin(), ranges.end(), std::mt19937(4));
  ranges.push_back(ranges[10]);  // asked twice
  ranges.push_back({5000, 0});   // empty
  auto got = input->read_ranges(ranges);
  ASSERT_EQ(got.size(), ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i)
    EXPECT_EQ(bytes_of(got[i]), slice(data, ranges[i].offset, ranges[i].length)) << i;
  RemoteStats s = stats_of(*input);
  EXPECT_EQ(s.requests, 2u);  // the open, and one for all 100
  const uint64_t span = 99 * 4000 + 1000;
  EXPECT_EQ(s.bytes_received, 65536 + span);
  EXPECT_EQ(s.bytes_wasted, span - 100 * 1000);
  const auto log = server_->access_log("near.bin", 2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].range, "bytes=100000-" + std::to_string(100000 + span - 1));
  EXPECT_EQ(log[1].bytes, span);
}

TEST_F(RemoteHttp, FarRangesRunConcurrentlyOverFewReusedConnections) {
  const auto data = random_bytes(24 << 20, 5);
  RemoteOptions options;
  options.coalesce_gap_bytes = 0;
  options.max_concurrent_requests = 4;
  options.max_request_bytes = 8 << 20;
  auto input = open_url(put("far.bin", data), options);
  std::vector<FileRange> ranges;
  for (uint64_t i = 0; i < 40; ++i) ranges.push_back({i * 100000 + 17, 1000});
  ranges.push_back({5 << 20, 17 << 20});  // 17 MiB: requests of 8, 8 and 1 MiB
  auto got = input->read_ranges(ranges);
  for (size_t i = 0; i < ranges.size(); ++i)
    ASSERT_EQ(bytes_of(got[i]), slice(data, ranges[i].offset, ranges[i].length)) << i;
  auto log = server_->access_log("far.bin", 44);
  ASSERT_EQ(log.size(), 44u);  // the open, 40 small ranges, 3 pieces of the large one
  log.erase(log.begin());
  std::set<std::string> connections;
  size_t big = 0;
  for (const auto& line : log) {
    EXPECT_EQ(line.status, 206) << line.range;
    connections.insert(line.connection);
    if (line.bytes >= (1 << 20)) ++big;
  }
  EXPECT_EQ(big, 3u);
  EXPECT_EQ(stats_of(*input).requests, 44u);
  // At most 4 at once, each on its own kept-alive connection: no more than
  // 4 connections for all of them (the open's one reused).
  EXPECT_LE(connections.size(), 4u);
  EXPECT_GE(connections.size(), 2u);
  EXPECT_LT(connections.size(), log.size());
}

TEST_F(RemoteHttp, ConcurrentReadsFromTwoThreads) {
  const auto data = random_bytes(8 << 20, 6);
  RemoteOptions options;
  options.coalesce_gap_bytes = 4096;
  options.max_request_bytes = 256 << 10;
  options.max_concurrent_requests = 3;
  auto input = open_url(put("threads.bin", data), options);
  std::atomic<int> bad{0};
  auto reader = [&](uint32_t seed) {
    std::mt19937 rng(seed);
    for (int round = 0; round < 15; ++round) {
      std::vector<FileRange> ranges(1 + rng() % 30);
      for (auto& r : ranges) {
        r.length = rng() % 300000;
        r.offset = rng() % (data.size() - r.length);
      }
      auto got = input->read_ranges(ranges);
      for (size_t i = 0; i < ranges.size(); ++i)
        if (bytes_of(got[i]) != slice(data, ranges[i].offset, ranges[i].length)) ++bad;
      std::vector<uint8_t> one(1 + rng() % 100000);
      const uint64_t at = rng() % (data.size() - one.size());
      input->read_at(at, one.size(), one.data());
      if (one != slice(data, at, one.size())) ++bad;
    }
  };
  std::thread a(reader, 1), b(reader, 2);
  a.join();
  b.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(stats_of(*input).requests, 30u);
}

TEST_F(RemoteHttp, ParquetFileReadsTheSameAsLocally) {
  TempDir dir("remote-parquet");
  // Enough rows for several row groups and pages, so that reads go past the tail.
  std::string csv = "id,name,value,day\n";
  for (int i = 0; i < 60000; ++i)
    csv += std::to_string(i) + ",name" + std::to_string(i * 7919 % 100003) + "," + std::to_string(i * 0.25) +
           ",2024-01-" + std::to_string(10 + i % 20) + "\n";
  std::ofstream(dir.path() / "rows.csv") << csv;
  const fs::path local = dir.path() / "rows.parquet";
  auto result = parq::testing::run_tool(
      {"convert", (dir.path() / "rows.csv").string(), local.string(), "--row-group-rows", "20000"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto bytes = parq::testing::read_file_bytes(local);
  ASSERT_GT(bytes.size(), 200000u);
  const std::string url = put("rows.parquet", bytes);

  const std::string expected = rows_of(open_file(local.string()));
  auto input = open_url(url);
  auto* raw = input.get();
  auto file = FileReader::open(std::move(input));
  EXPECT_EQ(file->metadata().row_groups.size(), 3u);
  const uint64_t after_open = stats_of(*raw).requests;
  // The size, the footer and the metadata in the first request; the reader
  // checks the leading magic with one more.
  EXPECT_LE(after_open, 2u);
  auto source = read_batches(*file);
  RecordBatch batch;
  std::string got;
  while (source->next(batch)) text::append_rows_jsonl(got, batch, 0, batch.num_rows);
  EXPECT_EQ(got, expected);
  EXPECT_GT(stats_of(*raw).requests, after_open);
  // A projection reads fewer bytes than the whole file.
  auto projected = FileReader::open(open_url(url));
  ReadOptions id_only;
  id_only.columns = {"id"};
  auto ids = read_batches(*projected, id_only);
  std::string got_ids;
  while (ids->next(batch)) text::append_rows_jsonl(got_ids, batch, 0, batch.num_rows);
  EXPECT_EQ(got_ids, rows_of(open_file(local.string()), {"id"}));
  EXPECT_LT(stats_of(projected->input()).bytes_received, bytes.size() / 2);

  // The example file of README, too.
  const fs::path cities = dir.path() / "cities.parquet";
  result = parq::testing::run_tool(
      {"convert", (fs::path(PARQ_SOURCE_DIR) / "examples" / "cities.csv").string(), cities.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(rows_of(open_url(put("cities.parquet", parq::testing::read_file_bytes(cities)))),
            rows_of(open_file(cities.string())));
}

TEST_F(RemoteHttp, MissingObjectIs404) {
  const std::string url = server_->url("no-such-file.parquet");
  Error e = error_of([&] { open_url(url); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_EQ(e.location().file, url);
  EXPECT_NE(e.detail().find("404 Not Found"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find(url), std::string::npos);
}

TEST_F(RemoteHttp, ObjectReplacedDuringTheReadIsAnError) {
  const auto data = random_bytes(1 << 20, 7);
  const std::string url = put("changing.bin", data);
  auto input = open_url(url);
  std::vector<uint8_t> out(1000);
  input->read_at(0, 1000, out.data());
  // A new file under the name (another size, so another ETag).
  write_file(server_->root() / "changing.bin", random_bytes((1 << 20) + 1, 8));
  Error e = error_of([&] { input->read_at(5000, 1000, out.data()); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("changed during the read"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("412"), std::string::npos) << e.what();
  // Not retried: a changed object stays changed.
  EXPECT_EQ(stats_of(*input).retries, 0u);
}

TEST(RemoteHttpFailures, ServerStoppedMidReadIsAClearErrorWithoutHanging) {
  Nginx server;
  const auto data = random_bytes(1 << 20, 9);
  write_file(server.root() / "f.bin", data);
  RemoteOptions options;
  options.max_retries = 2;
  options.retry_base_ms = 50;
  auto input = open_url(server.url("f.bin"), options);
  server.process().stop();
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> out(1000);
  Error e = error_of([&] { input->read_at(0, 1000, out.data()); });
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(5));
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("cannot connect"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("after 2 retries"), std::string::npos) << e.what();
  EXPECT_EQ(stats_of(*input).retries, 2u);
}

TEST(RemoteHttpFailures, StalledServerTimesOut) {
  Nginx server;
  write_file(server.root() / "f.bin", random_bytes(1 << 20, 10));
  RemoteOptions options;
  options.max_retries = 1;
  options.retry_base_ms = 10;
  options.stall_timeout_ms = 1000;
  options.connect_timeout_ms = 1000;
  auto input = open_url(server.url("f.bin"), options);
  server.process().signal(SIGSTOP);  // connections are accepted by the kernel, never answered
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> out(1000);
  Error e = error_of([&] { input->read_at(0, 1000, out.data()); });
  const auto elapsed = std::chrono::steady_clock::now() - start;
  server.process().signal(SIGCONT);
  EXPECT_GE(elapsed, std::chrono::milliseconds(1500));  // two attempts of a 1 s stall timeout
  EXPECT_LT(elapsed, std::chrono::seconds(8));
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("timed out"), std::string::npos) << e.what();
}

TEST(RemoteHttpFailures, NothingListeningIsConnectionRefused) {
  RemoteOptions options;
  options.max_retries = 1;
  options.retry_base_ms = 10;
  const std::string url = "http://127.0.0.1:" + std::to_string(free_port()) + "/x.parquet";
  Error e = error_of([&] { open_url(url, options); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_EQ(e.location().file, url);
  EXPECT_NE(e.detail().find("cannot connect"), std::string::npos) << e.what();
}

TEST(RemoteHttps, ReadsOverTlsAndChecksTheCertificate) {
  Nginx server(/*tls=*/true);
  const auto data = random_bytes(300000, 12);
  write_file(server.root() / "tls.bin", data);
  RemoteOptions options;
  options.ca_file = server.cert().string();
  auto input = open_url(server.https_url("tls.bin"), options);
  ASSERT_EQ(input->size(), data.size());
  auto got = input->read_ranges(std::vector<FileRange>{{0, 1000}, {100000, 50000}});
  EXPECT_EQ(bytes_of(got[0]), slice(data, 0, 1000));
  EXPECT_EQ(bytes_of(got[1]), slice(data, 100000, 50000));
  // The system's store does not know a self-signed certificate: not retried.
  Error e = error_of([&] { open_url(server.https_url("tls.bin")); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("certificate"), std::string::npos) << e.what();
  RemoteOptions unverified;
  unverified.verify_tls = false;
  EXPECT_EQ(open_url(server.https_url("tls.bin"), unverified)->size(), data.size());
}

class RemoteHttpFlaky : public ::testing::Test {
 protected:
  RemoteHttpFlaky() : dir_("flaky-data"), data_(random_bytes(300000, 11)) { write_file(dir_.path() / "file", data_); }
  fs::path file() const { return dir_.path() / "file"; }
  TempDir dir_;
  std::vector<uint8_t> data_;
};

TEST_F(RemoteHttpFlaky, ServerErrorsAreRetriedWithBackoff) {
  FlakyServer server(file(), "status", 2);
  RemoteOptions options;
  options.retry_base_ms = 20;
  auto input = open_url(server.url(), options);
  EXPECT_EQ(input->size(), data_.size());
  RemoteStats s = stats_of(*input);
  EXPECT_EQ(s.requests, 3u);
  EXPECT_EQ(s.retries, 2u);
  std::vector<uint8_t> out(5000);
  input->read_at(100, 5000, out.data());
  EXPECT_EQ(out, slice(data_, 100, 5000));
}

TEST_F(RemoteHttpFlaky, RetriesRunOut) {
  FlakyServer server(file(), "status", 100, 0, 500);
  RemoteOptions options;
  options.max_retries = 2;
  options.retry_base_ms = 10;
  Error e = error_of([&] { open_url(server.url(), options); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("500 Internal Server Error"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("SlowDown: injected failure"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("after 2 retries"), std::string::npos) << e.what();
}

TEST_F(RemoteHttpFlaky, Throttling429IsRetried) {
  FlakyServer server(file(), "status", 1, 1, 429);  // the open passes, the next request is throttled
  RemoteOptions options;
  options.retry_base_ms = 10;
  auto input = open_url(server.url(), options);
  std::vector<uint8_t> out(1000);
  input->read_at(0, 1000, out.data());
  EXPECT_EQ(out, slice(data_, 0, 1000));
  EXPECT_EQ(stats_of(*input).retries, 1u);
}

TEST_F(RemoteHttpFlaky, RetryAfterSetsTheWaitUpToTheLongestBackoff) {
  // The open passes; the next request is throttled and told to wait a
  // second, longer than the backoff's 10 ms.
  FlakyServer server(file(), "status", 1, 1, 503, "1");
  RemoteOptions options;
  options.retry_base_ms = 10;
  options.retry_max_ms = 5000;
  auto input = open_url(server.url(), options);
  std::vector<uint8_t> out(1000);
  auto start = std::chrono::steady_clock::now();
  input->read_at(0, 1000, out.data());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1000));
  EXPECT_EQ(out, slice(data_, 0, 1000));
  EXPECT_EQ(stats_of(*input).retries, 1u);
  // retry_max_ms caps what the server asks (an hour here).
  FlakyServer patient(file(), "status", 1, 1, 503, "3600");
  options.retry_max_ms = 50;
  auto capped = open_url(patient.url(), options);
  start = std::chrono::steady_clock::now();
  capped->read_at(0, 1000, out.data());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(stats_of(*capped).retries, 1u);
}

TEST_F(RemoteHttpFlaky, ConnectionResetMidBodyResumesWhereItStopped) {
  FlakyServer server(file(), "reset", 1, 1);  // the open passes; the next request stops halfway
  RemoteOptions options;
  options.retry_base_ms = 10;
  options.speculative_tail_bytes = 1000;
  auto input = open_url(server.url(), options);
  std::vector<uint8_t> out(200000);
  input->read_at(50000, out.size(), out.data());
  EXPECT_EQ(out, slice(data_, 50000, out.size()));
  RemoteStats s = stats_of(*input);
  EXPECT_EQ(s.retries, 1u);
  // The retry asked only for the half that was missing.
  EXPECT_EQ(s.bytes_received, 1000u + out.size());
}

TEST_F(RemoteHttpFlaky, StalledBodyIsRetriedAfterTheStallTimeout) {
  FlakyServer server(file(), "stall", 1, 1);
  RemoteOptions options;
  options.retry_base_ms = 10;
  options.stall_timeout_ms = 1000;
  auto input = open_url(server.url(), options);
  std::vector<uint8_t> out(100000);
  input->read_at(0, out.size(), out.data());
  EXPECT_EQ(out, slice(data_, 0, out.size()));
  EXPECT_EQ(stats_of(*input).retries, 1u);
}

TEST_F(RemoteHttpFlaky, ServerIgnoringRangeWorksForSmallObjects) {
  FlakyServer server(file(), "norange", 0);
  auto input = open_url(server.url());
  ASSERT_EQ(input->size(), data_.size());
  auto got = input->read_ranges(std::vector<FileRange>{{0, 4}, {150000, 100000}, {data_.size() - 8, 8}});
  EXPECT_EQ(bytes_of(got[0]), slice(data_, 0, 4));
  EXPECT_EQ(bytes_of(got[1]), slice(data_, 150000, 100000));
  EXPECT_EQ(bytes_of(got[2]), slice(data_, data_.size() - 8, 8));
  EXPECT_EQ(stats_of(*input).requests, 1u);  // the whole object came with the first
}

}  // namespace
}  // namespace parq::io
