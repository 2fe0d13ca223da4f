// RLE/bit-packing hybrid decode and encode, 64K values (in L2), per SIMD
// level. Bars: RLE runs decode at 8 G values/s; encoding at least a third of
// decoding. Bytes/s count the decoded uint32 side; memcpy is the reference.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "memcpy_reference.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq::encoding;

constexpr size_t kValues = 64 * 1024;

// RLE-heavy: runs of 100..1000 (levels of mostly non-null data);
// bit-packed-heavy: random values (dictionary indices of a high-cardinality column).
std::vector<uint32_t> make_values(bool rle_heavy, int width) {
  std::mt19937 rng(width);
  const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
  std::vector<uint32_t> v;
  while (v.size() < kValues) {
    const size_t run = rle_heavy ? 100 + rng() % 900 : 1;
    const uint32_t x = rng() & mask;
    for (size_t k = 0; k < run && v.size() < kValues; ++k) v.push_back(x);
  }
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

void finish(benchmark::State& state, size_t bytes_per_value) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kValues * bytes_per_value));
  parq::set_simd_level(parq::detected_simd_level());
}

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kValues * 4, kValues); }
BENCHMARK(BM_Memcpy);

template <class T>
void decode_bench(benchmark::State& state, bool rle_heavy) {
  const int width = static_cast<int>(state.range(0));
  if (!use_level(state, state.range(1))) return;
  auto values = make_values(rle_heavy, width);
  RleBitPackedEncoder enc(width);
  enc.put(values.data(), values.size());
  parq::Buffer bytes;
  enc.flush(bytes);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder dec(bytes.data(), bytes.size(), width);
    benchmark::DoNotOptimize(dec.decode(out.data(), kValues));
    benchmark::ClobberMemory();
  }
  finish(state, sizeof(T));
}

void BM_DecodeRle(benchmark::State& state) { decode_bench<uint32_t>(state, true); }
void BM_DecodeBitPacked(benchmark::State& state) { decode_bench<uint32_t>(state, false); }
void BM_DecodeLevelsRle(benchmark::State& state) { decode_bench<int16_t>(state, true); }
void BM_DecodeLevelsBitPacked(benchmark::State& state) { decode_bench<int16_t>(state, false); }
BENCHMARK(BM_DecodeRle)->ArgsProduct({{1, 8, 17}, {0, 1, 2}});
BENCHMARK(BM_DecodeBitPacked)->ArgsProduct({{1, 3, 8, 12, 17, 32}, {0, 1, 2}});
BENCHMARK(BM_DecodeLevelsRle)->ArgsProduct({{1, 3}, {2}});
BENCHMARK(BM_DecodeLevelsBitPacked)->ArgsProduct({{1, 3}, {0, 2}});

void encode_bench(benchmark::State& state, bool rle_heavy) {
  const int width = static_cast<int>(state.range(0));
  if (!use_level(state, state.range(1))) return;
  auto values = make_values(rle_heavy, width);
  RleBitPackedEncoder enc(width);
  parq::Buffer bytes;
  for (auto _ : state) {
    bytes.clear();
    enc.put(values.data(), values.size());
    enc.flush(bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  finish(state, 4);
}

void BM_EncodeRle(benchmark::State& state) { encode_bench(state, true); }
void BM_EncodeBitPacked(benchmark::State& state) { encode_bench(state, false); }
BENCHMARK(BM_EncodeRle)->ArgsProduct({{1, 8, 17}, {0, 2}});
BENCHMARK(BM_EncodeBitPacked)->ArgsProduct({{1, 3, 8, 12, 17, 32}, {0, 2}});

}  // namespace
