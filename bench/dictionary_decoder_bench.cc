// Dictionary gathers through bit-packed indices: int32/int64/double and strings,
// dictionaries of 100 and 100,000 entries, index widths 7 and 17 (the
// smallest width covering each dictionary), 32K values per page. Bar: 1.5 G
// values/s. Bytes/s count the gathered values; memcpy is the reference.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parq/encoding/dictionary_decoder.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq::encoding;

constexpr size_t kValues = 32 * 1024;

// A page of random indices below `entries`, all bit-packed.
parq::Buffer make_page(size_t entries, int width) {
  std::mt19937 rng(static_cast<unsigned>(entries));
  std::vector<uint32_t> idx(kValues);
  for (auto& i : idx) i = rng() % entries;
  parq::Buffer page;
  page.append_value(static_cast<uint8_t>(width));
  RleBitPackedEncoder enc(width);
  enc.put(idx.data(), idx.size());
  enc.flush(page);
  return page;
}

void BM_Memcpy(benchmark::State& state) {
  std::vector<uint64_t> src(kValues, 7), dst(kValues);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), kValues * 8);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kValues * 8));
}
BENCHMARK(BM_Memcpy);

template <class T>
void BM_Gather(benchmark::State& state) {
  const size_t entries = static_cast<size_t>(state.range(0));
  const int width = static_cast<int>(state.range(1));
  const auto level = static_cast<parq::SimdLevel>(state.range(2));
  if (level > parq::detected_simd_level()) return state.SkipWithError("SIMD level not available");
  parq::set_simd_level(level);
  state.SetLabel(parq::to_string(level));
  std::vector<T> dict(entries);
  for (size_t i = 0; i < entries; ++i) dict[i] = static_cast<T>(i * 3 + 1);
  auto page = make_page(entries, width);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    DictionaryDecoder dec(page.data(), page.size());
    benchmark::DoNotOptimize(dec.decode(std::span<const T>(dict), out.data(), kValues));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kValues * sizeof(T)));
  parq::set_simd_level(parq::detected_simd_level());
}
// Also small dictionaries (in-register permutes): 8, 16 and 32 entries of
// 4 bytes, 4, 8 and 16 of 8 bytes.
BENCHMARK(BM_Gather<int32_t>)
    ->ArgsProduct({{100}, {7}, {0, 1, 2}})
    ->ArgsProduct({{100000}, {17}, {0, 1, 2}})
    ->ArgsProduct({{8}, {3}, {0, 1, 2}})
    ->ArgsProduct({{16}, {4}, {0, 1, 2}})
    ->ArgsProduct({{32}, {5}, {0, 1, 2}});
BENCHMARK(BM_Gather<int64_t>)
    ->ArgsProduct({{100}, {7}, {0, 1, 2}})
    ->ArgsProduct({{100000}, {17}, {0, 1, 2}})
    ->ArgsProduct({{4}, {2}, {0, 1, 2}})
    ->ArgsProduct({{8}, {3}, {0, 1, 2}})
    ->ArgsProduct({{16}, {4}, {0, 1, 2}});
BENCHMARK(BM_Gather<double>)->ArgsProduct({{100}, {7}, {0, 1, 2}})->ArgsProduct({{100000}, {17}, {0, 1, 2}});

// Strings: a dictionary of `entries` entries, all `length` bytes long
// (codes, flags: the path that steps offsets by the width) or `length`
// down to 1 byte (copies of slots of 8, 16 and 32 bytes).
void BM_GatherStrings(benchmark::State& state) {
  const auto entries = static_cast<size_t>(state.range(0));
  const auto length = static_cast<size_t>(state.range(1));
  const bool uniform = state.range(2) != 0;
  state.SetLabel(uniform ? "one length" : "lengths N..1");
  ByteArrayBatch dict;
  for (size_t i = 0; i < entries; ++i) dict.append(std::string(uniform ? length : length - i % length, 'a' + i % 26));
  auto page = make_page(entries, 3);
  const ByteArrayDictionaryTable table(dict);
  for (auto _ : state) {
    ByteArrayBatch out;
    DictionaryDecoder dec(page.data(), page.size());
    benchmark::DoNotOptimize(dec.decode(table, out, kValues));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
}
BENCHMARK(BM_GatherStrings)->ArgsProduct({{3, 7}, {1, 7, 16, 30}, {0, 1}});

}  // namespace
