// BYTE_STREAM_SPLIT decode and encode per width and SIMD level (the
// argument: 0 scalar, 1 AVX2, 2 AVX-512), 256 KiB pages in L2, beside a
// memcpy of the same size. Bar: DOUBLE decode >= half the memcpy bandwidth.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "memcpy_reference.h"
#include "parq/encoding/byte_stream_split.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

constexpr size_t kPageBytes = 256 * 1024;

void report(benchmark::State& state, size_t items, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

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

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kPageBytes, kPageBytes); }
BENCHMARK(BM_Memcpy);

std::vector<uint8_t> page_of(size_t width) {
  std::vector<uint8_t> page(kPageBytes / width * width);
  std::mt19937 rng(1);
  for (auto& b : page) b = static_cast<uint8_t>(rng());
  return page;
}

// Args: width, level.
void BM_BssDecode(benchmark::State& state) {
  if (!use_level(state, 1)) return;
  size_t width = static_cast<size_t>(state.range(0));
  auto page = page_of(width);
  size_t n = page.size() / width;
  Buffer out(page.size());
  ByteStreamSplitDecoder dec(width);
  for (auto _ : state) {
    dec.reset(page.data(), page.size(), n);
    benchmark::DoNotOptimize(dec.decode(out.data(), n));
    benchmark::ClobberMemory();
  }
  report(state, n, page.size());
  set_simd_level(detected_simd_level());
}

void BM_BssEncode(benchmark::State& state) {
  if (!use_level(state, 1)) return;
  size_t width = static_cast<size_t>(state.range(0));
  auto values = page_of(width);
  size_t n = values.size() / width;
  ByteStreamSplitEncoder enc(width);
  Buffer out;
  for (auto _ : state) {
    out.clear();
    enc.put(values.data(), n);
    enc.flush(out);
    benchmark::ClobberMemory();
  }
  report(state, n, values.size());
  set_simd_level(detected_simd_level());
}

// Widths: 2 (FLOAT16), 4 (FLOAT, INT32), 8 (DOUBLE, INT64), 3 and 16
// (generic FIXED_LEN_BYTE_ARRAY).
void widths(benchmark::internal::Benchmark* b) {
  for (int w : {2, 4, 8, 3, 16})
    for (int level = 0; level <= 2; ++level) b->Args({w, level});
}
BENCHMARK(BM_BssDecode)->Apply(widths);
BENCHMARK(BM_BssEncode)->Apply(widths);

}  // namespace
