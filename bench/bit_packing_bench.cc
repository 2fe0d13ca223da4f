// Bit packing kernels per width and SIMD level, on 16K values (in L1/L2).
// Bars on the reference machine (single core): unpack to uint32 at 4 G
// values/s for widths 1..8, 2 G/s up to 16, 1 G/s up to 32; packing at least
// a third of that. Bytes/s count the unpacked (uint32/uint64) side; the memcpy
// row moves the same bytes for reference.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "memcpy_reference.h"
#include "parq/encoding/bit_packing.h"
#include "parq/util/buffer.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq::encoding;

constexpr size_t kValues = 16 * 1024;

template <class T>
std::vector<T> random_values(size_t n, int width) {
  std::mt19937_64 rng(width);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng() & mask);
  return v;
}

bool use_level(benchmark::State& state, int64_t level) {
  auto l = static_cast<parq::SimdLevel>(level);
  if (l > parq::detected_simd_level()) {
    state.SkipWithError("SIMD level not available");
    return false;
  }
  parq::set_simd_level(l);
  state.SetLabel(parq::to_string(l));
  return true;
}

void finish(benchmark::State& state, size_t values, size_t value_bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values * value_bytes));
  parq::set_simd_level(parq::detected_simd_level());
}

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kValues * 4, kValues); }
BENCHMARK(BM_Memcpy);

void BM_Unpack32(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  if (!use_level(state, state.range(1))) return;
  auto values = random_values<uint32_t>(kValues, width);
  parq::Buffer packed(packed_size(kValues, width));
  pack_bits(values.data(), kValues, width, packed.data());
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    unpack_bits(packed.data(), kValues, width, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  finish(state, kValues, 4);
}
BENCHMARK(BM_Unpack32)->ArgsProduct({benchmark::CreateDenseRange(1, 32, 1), {0, 1, 2}});

void BM_Unpack64(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  if (!use_level(state, state.range(1))) return;
  auto values = random_values<uint64_t>(kValues, width);
  parq::Buffer packed(packed_size(kValues, width));
  pack_bits(values.data(), kValues, width, packed.data());
  std::vector<uint64_t> out(kValues);
  for (auto _ : state) {
    unpack_bits(packed.data(), kValues, width, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  finish(state, kValues, 8);
}
BENCHMARK(BM_Unpack64)->ArgsProduct({{1, 7, 17, 33, 47, 64}, {0, 2}});

void BM_Pack32(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  if (!use_level(state, state.range(1))) return;
  auto values = random_values<uint32_t>(kValues, width);
  parq::Buffer packed(packed_size(kValues, width));
  for (auto _ : state) {
    pack_bits(values.data(), kValues, width, packed.data());
    benchmark::DoNotOptimize(packed.data());
    benchmark::ClobberMemory();
  }
  finish(state, kValues, 4);
}
BENCHMARK(BM_Pack32)->ArgsProduct({benchmark::CreateDenseRange(1, 32, 1), {0, 1, 2}});

void BM_Pack64(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  auto values = random_values<uint64_t>(kValues, width);
  parq::Buffer packed(packed_size(kValues, width));
  for (auto _ : state) {
    pack_bits(values.data(), kValues, width, packed.data());
    benchmark::DoNotOptimize(packed.data());
    benchmark::ClobberMemory();
  }
  finish(state, kValues, 8);
}
BENCHMARK(BM_Pack64)->Arg(7)->Arg(33)->Arg(64);

}  // namespace
