// Bloom filter throughput: hashing INT64 values and 16-byte strings
// (xxHash64, as the column writer hashes a page), and inserting and probing
// precomputed hashes per SIMD level (the argument: 0 scalar, 1 AVX2) in a
// filter sized for 1 Mi distinct values at 1% (2 MiB, beyond L2: probes
// mostly miss the cache, as they do in a real chunk's filter). Bars:
// INT64 hashing >= 500 M values/s; insert and probe >= 100 M/s at every
// level.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "parq/column/bloom_filter.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;

constexpr size_t kValues = 64 * 1024;
constexpr uint64_t kFilterNdv = 1 << 20;

bool use_level(benchmark::State& state, int arg) {
  auto level = static_cast<SimdLevel>(state.range(arg));
  if (level > detected_simd_level()) {
    state.SkipWithError("level not supported");
    return false;
  }
  set_simd_level(level);
  state.SetLabel(to_string(level));
  return true;
}

std::vector<uint64_t> random_hashes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> h(n);
  for (auto& v : h) v = rng();
  return h;
}

void report(benchmark::State& state, size_t items) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
}

void BM_BloomHashInt64(benchmark::State& state) {
  std::vector<uint64_t> values = random_hashes(kValues, 1);
  std::vector<uint64_t> out(kValues);
  for (auto _ : state) {
    BloomFilter::hash_values(format::Type::INT64, 0, values.data(), kValues, out.data());
    benchmark::ClobberMemory();
  }
  report(state, kValues);
}
BENCHMARK(BM_BloomHashInt64);

void BM_BloomHashString16(benchmark::State& state) {
  std::mt19937 rng(1);
  std::string data;
  std::vector<int32_t> offsets{0};
  for (size_t i = 0; i < kValues; ++i) {
    for (int j = 0; j < 16; ++j) data += static_cast<char>('a' + rng() % 26);
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  std::vector<uint64_t> out(kValues);
  for (auto _ : state) {
    BloomFilter::hash_byte_arrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), kValues, out.data());
    benchmark::ClobberMemory();
  }
  report(state, kValues);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_BloomHashString16);

void BM_BloomInsert(benchmark::State& state) {
  if (!use_level(state, 0)) return;
  BloomFilter filter(BloomFilter::optimal_num_bytes(kFilterNdv, 0.01));
  const std::vector<uint64_t> hashes = random_hashes(kValues, 2);
  for (auto _ : state) {
    for (uint64_t h : hashes) filter.insert(h);
    benchmark::ClobberMemory();
  }
  report(state, kValues);
  set_simd_level(detected_simd_level());
}
BENCHMARK(BM_BloomInsert)->Arg(0)->Arg(1);

// Half the probes were inserted, half were not.
void BM_BloomProbe(benchmark::State& state) {
  if (!use_level(state, 0)) return;
  BloomFilter filter(BloomFilter::optimal_num_bytes(kFilterNdv, 0.01));
  for (uint64_t h : random_hashes(kFilterNdv, 3)) filter.insert(h);
  std::vector<uint64_t> probes = random_hashes(kValues / 2, 3);
  const std::vector<uint64_t> absent = random_hashes(kValues / 2, 4);
  probes.insert(probes.end(), absent.begin(), absent.end());
  std::shuffle(probes.begin(), probes.end(), std::mt19937(5));
  for (auto _ : state) {
    size_t found = 0;
    for (uint64_t h : probes) found += filter.might_contain(h);
    benchmark::DoNotOptimize(found);
  }
  report(state, kValues);
  set_simd_level(detected_simd_level());
}
BENCHMARK(BM_BloomProbe)->Arg(0)->Arg(1);

}  // namespace
