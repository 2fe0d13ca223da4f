// Group varint encode and decode, uint32 and uint64, values of mixed byte
// lengths, 64 Ki values (in L2), beside a memcpy of the decoded size.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "parq/encoding/group_var_int.h"

namespace {

using namespace parq;
using namespace parq::encoding;

constexpr size_t kValues = 64 * 1024;

void report(benchmark::State& state, size_t items, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

void BM_Memcpy(benchmark::State& state) {
  size_t bytes = kValues * 4;
  Buffer src(bytes), dst(bytes);
  std::memset(src.data(), 1, bytes);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::ClobberMemory();
  }
  report(state, bytes, bytes);
}
BENCHMARK(BM_Memcpy);

template <class T>
std::vector<T> values() {
  std::mt19937_64 rng(1);
  std::vector<T> v(kValues);
  for (auto& x : v) x = static_cast<T>(rng() >> (rng() % (sizeof(T) * 8)));
  return v;
}

template <class T>
void BM_GroupVarIntDecode(benchmark::State& state) {
  auto v = values<T>();
  Buffer page;
  group_var_int_encode(v.data(), v.size(), page);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    benchmark::DoNotOptimize(group_var_int_decode(page.data(), page.size(), kValues, out.data()));
    benchmark::ClobberMemory();
  }
  report(state, kValues, page.size());
}
BENCHMARK(BM_GroupVarIntDecode<uint32_t>);
BENCHMARK(BM_GroupVarIntDecode<uint64_t>);

template <class T>
void BM_GroupVarIntEncode(benchmark::State& state) {
  auto v = values<T>();
  Buffer page;
  for (auto _ : state) {
    page.clear();
    group_var_int_encode(v.data(), v.size(), page);
    benchmark::ClobberMemory();
  }
  report(state, kValues, page.size());
}
BENCHMARK(BM_GroupVarIntEncode<uint32_t>);
BENCHMARK(BM_GroupVarIntEncode<uint64_t>);

}  // namespace
