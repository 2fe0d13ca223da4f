// Bitshuffle and bitunshuffle per element size and SIMD level (0 scalar,
// 1 AVX2, 2 AVX-512), 256 KiB in L2, beside a memcpy of the same size.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "memcpy_reference.h"
#include "parq/encoding/bitshuffle.h"
#include "parq/util/buffer.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

constexpr size_t kBytes = 256 * 1024;

void report(benchmark::State& state, size_t items, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kBytes, kBytes); }
BENCHMARK(BM_Memcpy);

template <bool kShuffle>
void BM_Bitshuffle(benchmark::State& state) {
  size_t s = static_cast<size_t>(state.range(0));
  auto level = static_cast<SimdLevel>(state.range(1));
  if (level > detected_simd_level()) {
    state.SkipWithError("level not supported");
    return;
  }
  set_simd_level(level);
  state.SetLabel(to_string(level));
  size_t n = kBytes / s;
  std::vector<uint8_t> in(n * s), out(n * s);
  std::mt19937 rng(1);
  for (auto& b : in) b = static_cast<uint8_t>(rng());
  for (auto _ : state) {
    if constexpr (kShuffle) {
      bitshuffle(in.data(), out.data(), n, s);
    } else {
      bitunshuffle(in.data(), out.data(), n, s);
    }
    benchmark::ClobberMemory();
  }
  report(state, n, n * s);
  set_simd_level(detected_simd_level());
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int s : {1, 2, 4, 8, 3, 16})
    for (int level = 0; level <= 2; ++level) b->Args({s, level});
}
BENCHMARK(BM_Bitshuffle<true>)->Apply(sizes);
BENCHMARK(BM_Bitshuffle<false>)->Apply(sizes);

}  // namespace
