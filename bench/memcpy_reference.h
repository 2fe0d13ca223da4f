// The memcpy row every kernel benchmark prints beside its own, so that
// throughput reads as a fraction of this machine's copy bandwidth in the same
// run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace parq::bench {

inline void memcpy_reference(benchmark::State& state, size_t bytes, size_t values) {
  std::vector<char> src(bytes, 1), dst(bytes);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values));
}

}  // namespace parq::bench
