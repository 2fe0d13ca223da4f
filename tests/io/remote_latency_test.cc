// Remote reads under latency: nginx behind tests/io/latency_proxy.py (which
// delays each direction by half the round trip; this kernel has no netem).
// Checks that concurrent range requests cost about one round trip, not one
// each, and prints requests, bytes and wall time of each step
// (bench/remote/latency.sh runs it with another RTT: PARQ_REMOTE_RTT_MS).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/io/remote.h"
#include "remote_servers.h"
#include "test_paths.h"

namespace parq::io {
namespace {

using namespace parq::testing::remote;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Step {
  uint64_t requests = 0, bytes = 0;
  double ms = 0;
};

void report(const char* what, const Step& s, double rtt) {
  std::printf("  %-52s %4llu requests %10llu bytes %8.1f ms  (%.1f RTT)\n", what,
              static_cast<unsigned long long>(s.requests), static_cast<unsigned long long>(s.bytes), s.ms, s.ms / rtt);
}

// Requests and bytes of `input` during `f`, and its wall time.
template <class F>
Step measure(const RandomAccessInput& input, F&& f) {
  const RemoteStats before = *remote_stats(input);
  const auto start = Clock::now();
  f();
  Step s;
  s.ms = ms_since(start);
  const RemoteStats after = *remote_stats(input);
  s.requests = after.requests - before.requests;
  s.bytes = after.bytes_received - before.bytes_received;
  return s;
}

TEST(RemoteLatency, ConcurrentRangesTakeAboutOneRoundTrip) {
  const char* env = std::getenv("PARQ_REMOTE_RTT_MS");
  const double rtt = env != nullptr ? std::atof(env) : 20.0;
  ASSERT_GT(rtt, 0);
  Nginx server;
  std::vector<uint8_t> data(40 << 20);
  std::mt19937 rng(1);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  write_file(server.root() / "blob.bin", data);
  TempDir dir("latency");
  std::string csv = "id,name,value\n";
  for (int64_t i = 0; i < 300000; ++i)
    csv += std::to_string(i) + ",name" + std::to_string(i * 7919 % 100003) + "," + std::to_string(i * 0.5) + "\n";
  std::ofstream(dir.path() / "rows.csv") << csv;
  auto tool = parq::testing::run_tool({"convert", (dir.path() / "rows.csv").string(),
                                       (server.root() / "rows.parquet").string(), "--row-group-rows", "50000"});
  ASSERT_EQ(tool.exit_code, 0) << tool.err;
  LatencyProxy proxy(server.port(), rtt / 2);
  std::printf("remote reads through a %.0f ms round trip (nginx behind latency_proxy.py):\n", rtt);

  // Open: the size, ETag and the last 64 KiB in one request.
  std::unique_ptr<RandomAccessInput> input;
  const auto open_start = Clock::now();
  input = open_url(proxy.url("blob.bin"));
  Step open{.requests = remote_stats(*input)->requests,
            .bytes = remote_stats(*input)->bytes_received,
            .ms = ms_since(open_start)};
  report("open_url (size + last 64 KiB)", open, rtt);
  EXPECT_EQ(open.requests, 1u);

  // 16 ranges of 256 KiB, 2 MiB apart: 16 requests at once, then one at a time.
  std::vector<FileRange> far;
  for (uint64_t i = 0; i < 16; ++i) far.push_back({i * (2 << 20), 256 << 10});
  Step concurrent = measure(*input, [&] { input->read_ranges(far); });
  report("16 far ranges of 256 KiB, 16 at once", concurrent, rtt);
  RemoteOptions one_at_a_time;
  one_at_a_time.max_concurrent_requests = 1;
  auto serial_input = open_url(proxy.url("blob.bin"), one_at_a_time);
  Step serial = measure(*serial_input, [&] { serial_input->read_ranges(far); });
  report("16 far ranges of 256 KiB, one at a time", serial, rtt);
  EXPECT_EQ(concurrent.requests, 16u);
  EXPECT_EQ(serial.requests, 16u);
  EXPECT_GE(serial.ms, 16 * rtt * 0.9);
  // Concurrent requests overlap their round trips. Compared with the serial
  // read of the same run rather than with a fixed bound, which a machine
  // loaded by other tests passes now and then.
  EXPECT_LT(concurrent.ms * 2, serial.ms);

  // 100 small ranges 3 KB apart: coalesced into one request.
  std::vector<FileRange> near;
  for (uint64_t i = 0; i < 100; ++i) near.push_back({(20 << 20) + i * 4000, 1000});
  Step coalesced = measure(*input, [&] { input->read_ranges(near); });
  report("100 near ranges of 1000 bytes (coalesced)", coalesced, rtt);
  EXPECT_EQ(coalesced.requests, 1u);
  EXPECT_LT(coalesced.ms * 4, serial.ms);

  // A 32 MiB range: four 8 MiB requests at once.
  std::vector<FileRange> large = {{0, 32 << 20}};
  Step split = measure(*input, [&] { input->read_ranges(large); });
  report("one 32 MiB range (4 parallel requests of 8 MiB)", split, rtt);
  EXPECT_EQ(split.requests, 4u);

  // A Parquet file: the footer, then one read_ranges per row group.
  auto rows_start = Clock::now();
  auto file = FileReader::open(open_url(proxy.url("rows.parquet")));
  Step footer{.requests = remote_stats(file->input())->requests,
              .bytes = remote_stats(file->input())->bytes_received,
              .ms = ms_since(rows_start)};
  report("FileReader::open (footer, leading magic)", footer, rtt);
  int64_t rows = 0;
  Step scan = measure(file->input(), [&] {
    auto source = read_batches(*file);
    RecordBatch batch;
    while (source->next(batch)) rows += batch.num_rows;
  });
  char what[96];
  std::snprintf(what, sizeof what, "read_batches, %zu row groups, every column", file->metadata().row_groups.size());
  report(what, scan, rtt);
  EXPECT_EQ(rows, 300000);
  EXPECT_LE(footer.requests, 2u);
}

}  // namespace
}  // namespace parq::io
