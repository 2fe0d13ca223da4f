// SNAPPY decompression: parq's decoder against libsnappy's on the same
// streams, shaped like Parquet pages (1 MiB of PLAIN values or dictionary
// indices); and libsnappy's compression of the same pages, which the writer
// uses. Throughput is uncompressed bytes per second.
#include <benchmark/benchmark.h>
#include <snappy.h>

#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../src/compression/snappy_decompressor.h"
#include "parq/util/cpu.h"

namespace {

constexpr size_t kPageBytes = 1 << 20;

std::string page(int kind, uint64_t seed = 42) {
  std::mt19937_64 rng(seed);
  std::string out;
  out.reserve(kPageBytes + 64);
  auto put = [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); };
  switch (kind) {
    case 0:  // sequential int64 (row ids): a 1-byte literal and a 7-byte copy per value
      for (int64_t v = 1'000'000; out.size() < kPageBytes; ++v) put(&v, 8);
      break;
    case 1:  // random int32 below 10^6: mostly literals
      while (out.size() < kPageBytes) {
        uint32_t v = static_cast<uint32_t>(rng() % 1'000'000);
        put(&v, 4);
      }
      break;
    case 2: {  // PLAIN strings: length prefix and text of a small vocabulary
      const char* words[] = {"carefully", "final",    "deposits", "quickly", "ironic",   "packages", "furiously",
                             "regular",   "accounts", "blithely", "pending", "requests", "slyly",    "express"};
      while (out.size() < kPageBytes) {
        std::string s;
        for (int w = 0, n = 2 + static_cast<int>(rng() % 5); w < n; ++w) {
          if (w) s += ' ';
          s += words[rng() % 14];
        }
        uint32_t len = static_cast<uint32_t>(s.size());
        put(&len, 4);
        out += s;
      }
      break;
    }
    case 3:  // dictionary indices bit-packed at width 12 with short runs: small-offset copies
      while (out.size() < kPageBytes) {
        uint8_t b = static_cast<uint8_t>(rng() % 4 == 0 ? rng() : 0);
        for (int r = 0, n = 1 + static_cast<int>(rng() % 24); r < n; ++r) out.push_back(static_cast<char>(b));
      }
      break;
    case 4:  // random int64 below 10^6: a 2-3 byte literal and a copy of the zero bytes per value
      while (out.size() < kPageBytes) {
        int64_t v = static_cast<int64_t>(rng() % 1'000'000);
        put(&v, 8);
      }
      break;
    case 5:  // doubles n / 7.0, n below 10^6: repeating mantissa tails, short literals and copies
      while (out.size() < kPageBytes) {
        double v = static_cast<double>(rng() % 1'000'000) / 7.0;
        put(&v, 8);
      }
      break;
    case 6:  // PLAIN strings of 10-43 random hex digits, like the lineitem bench's comments
      while (out.size() < kPageBytes) {
        uint32_t len = 10 + static_cast<uint32_t>(rng() % 34);
        put(&len, 4);
        for (uint32_t i = 0; i < len; ++i) out.push_back("0123456789abcdef"[rng() % 16]);
      }
      break;
  }
  out.resize(kPageBytes);
  return out;
}

const char* kKinds[] = {"sequential_int64", "random_int32", "strings",    "byte_runs",
                        "random_int64",     "doubles_by_7", "hex_strings"};
constexpr int kKindCount = static_cast<int>(std::size(kKinds));

// The stream's kind and its compression ratio (uncompressed / compressed).
std::string label(const benchmark::State& state, size_t raw_bytes, size_t compressed_bytes) {
  return std::string(kKinds[state.range(0)]) + " ratio " +
         std::to_string(static_cast<double>(raw_bytes) / static_cast<double>(compressed_bytes));
}

void run(benchmark::State& state, bool library) {
  const std::string raw = page(static_cast<int>(state.range(0)));
  std::string compressed;
  snappy::Compress(raw.data(), raw.size(), &compressed);
  std::vector<uint8_t> out(raw.size());
  const auto* in = reinterpret_cast<const uint8_t*>(compressed.data());
  for (auto _ : state) {
    if (library) {
      snappy::RawUncompress(compressed.data(), compressed.size(), reinterpret_cast<char*>(out.data()));
    } else {
      parq::compression::snappy_decompress({in, compressed.size()}, out.data(), out.size());
    }
    benchmark::DoNotOptimize(out.data());
  }
  if (std::memcmp(out.data(), raw.data(), raw.size()) != 0) state.SkipWithError("wrong output");
  state.SetLabel(label(state, raw.size(), compressed.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
}

void BM_SnappyDecompressParq(benchmark::State& state) { run(state, false); }

// Two pages of one kind (different values), decoded in one interleaved loop
// (what the reader does with the pages a batch starts on) or one by one.
void run_two(benchmark::State& state, bool paired) {
  const std::string raw[2] = {page(static_cast<int>(state.range(0))), page(static_cast<int>(state.range(0)), 7)};
  std::string compressed[2];
  std::vector<uint8_t> out[2];
  parq::compression::DecompressJob jobs[2];
  for (int i = 0; i < 2; ++i) {
    snappy::Compress(raw[i].data(), raw[i].size(), &compressed[i]);
    out[i].resize(raw[i].size());
    jobs[i] = {
        {reinterpret_cast<const uint8_t*>(compressed[i].data()), compressed[i].size()}, out[i].data(), out[i].size()};
  }
  for (auto _ : state) {
    if (paired) {
      parq::compression::snappy_decompress_pair(jobs[0], jobs[1]);
    } else {
      for (const auto& job : jobs) parq::compression::snappy_decompress(job.in, job.out, job.out_size);
    }
    benchmark::DoNotOptimize(out[0].data());
    benchmark::DoNotOptimize(out[1].data());
  }
  for (int i = 0; i < 2; ++i)
    if (std::memcmp(out[i].data(), raw[i].data(), raw[i].size()) != 0) state.SkipWithError("wrong output");
  state.SetLabel(label(state, raw[0].size(), compressed[0].size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * (raw[0].size() + raw[1].size())));
}
void BM_SnappyDecompressParqTwoPaired(benchmark::State& state) { run_two(state, true); }
void BM_SnappyDecompressParqTwoSingly(benchmark::State& state) { run_two(state, false); }
void run_at(benchmark::State& state, parq::SimdLevel level) {
  const parq::SimdLevel saved = parq::simd_level();
  parq::set_simd_level(level);
  run(state, false);
  parq::set_simd_level(saved);
}
void BM_SnappyDecompressParqAvx2(benchmark::State& state) { run_at(state, parq::SimdLevel::kAvx2); }
void BM_SnappyDecompressParqScalar(benchmark::State& state) { run_at(state, parq::SimdLevel::kScalar); }
void BM_SnappyDecompressLibsnappy(benchmark::State& state) { run(state, true); }

void BM_SnappyCompressLibsnappy(benchmark::State& state) {
  const std::string raw = page(static_cast<int>(state.range(0)));
  std::string out(snappy::MaxCompressedLength(raw.size()), '\0');
  size_t written = 0;
  for (auto _ : state) {
    snappy::RawCompress(raw.data(), raw.size(), out.data(), &written);
    benchmark::DoNotOptimize(out.data());
  }
  std::string back;
  if (!snappy::Uncompress(out.data(), written, &back) || back != raw) state.SkipWithError("wrong round trip");
  state.SetLabel(label(state, raw.size(), written));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
}

BENCHMARK(BM_SnappyDecompressParq)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyDecompressParqTwoPaired)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyDecompressParqTwoSingly)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyDecompressParqAvx2)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyDecompressParqScalar)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyDecompressLibsnappy)->DenseRange(0, kKindCount - 1);
BENCHMARK(BM_SnappyCompressLibsnappy)->DenseRange(0, kKindCount - 1);

}  // namespace
