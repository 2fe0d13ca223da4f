// Statistics min/max throughput over one 64Ki-value batch, as the column
// writer feeds a page: INT64 and DOUBLE per SIMD level (the argument: 0
// scalar, 1 AVX2, 2 AVX-512), and BYTE_ARRAY strings (random, and sharing a
// long prefix so that the 8-byte keys tie). Bars: INT64 and DOUBLE within
// half of the memcpy row's bandwidth at the AVX2 level; strings >= 200 M
// values/s.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

// The builder is internal to the library (src/), not part of its interface.
#include "../src/column/statistics_builder.h"
#include "memcpy_reference.h"
#include "parq/schema/schema.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;

constexpr size_t kValues = 64 * 1024;

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

Schema one_column(format::Type type, std::optional<format::ConvertedType> converted = std::nullopt) {
  format::SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  format::SchemaElement leaf;
  leaf.name = "v";
  leaf.repetition_type = format::FieldRepetitionType::REQUIRED;
  leaf.type = type;
  leaf.converted_type = converted;
  return Schema::from_elements({root, leaf});
}

template <class T>
void run_fixed(benchmark::State& state, format::Type type, const std::vector<T>& values) {
  if (!use_level(state, 0)) return;
  const Schema schema = one_column(type);
  auto stats = StatisticsBuilder::make(schema.column(0), 64);
  for (auto _ : state) {
    stats->reset();
    stats->add_values(values.data(), values.size());
    benchmark::DoNotOptimize(stats->has_bounds());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * values.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.size() * sizeof(T)));
  set_simd_level(detected_simd_level());
}

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kValues * 8, kValues); }
BENCHMARK(BM_Memcpy);

void BM_StatsInt64(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::vector<int64_t> values(kValues);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  run_fixed(state, format::Type::INT64, values);
}
BENCHMARK(BM_StatsInt64)->Arg(0)->Arg(1)->Arg(2);

void BM_StatsDouble(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::normal_distribution<double> dist;
  std::vector<double> values(kValues);
  for (auto& v : values) v = dist(rng);
  values[kValues / 2] = std::numeric_limits<double>::quiet_NaN();
  run_fixed(state, format::Type::DOUBLE, values);
}
BENCHMARK(BM_StatsDouble)->Arg(0)->Arg(1)->Arg(2);

// 16-byte average strings (8 to 24 bytes); with `prefix`, every string
// starts with the same 12 bytes.
void run_strings(benchmark::State& state, const std::string& prefix) {
  std::mt19937 rng(1);
  std::vector<int32_t> offsets{0};
  std::string data;
  for (size_t i = 0; i < kValues; ++i) {
    std::string s = prefix;
    const size_t len = 8 + rng() % 17;
    while (s.size() < len + prefix.size()) s += static_cast<char>('a' + rng() % 26);
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  const Schema schema = one_column(format::Type::BYTE_ARRAY, format::ConvertedType::UTF8);
  auto stats = StatisticsBuilder::make(schema.column(0), 64);
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  for (auto _ : state) {
    stats->reset();
    stats->add_byte_arrays(offsets.data(), bytes, kValues);
    benchmark::DoNotOptimize(stats->has_bounds());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}

void BM_StatsStrings(benchmark::State& state) { run_strings(state, ""); }
BENCHMARK(BM_StatsStrings);

void BM_StatsStringsSharedPrefix(benchmark::State& state) { run_strings(state, "https://www."); }
BENCHMARK(BM_StatsStringsSharedPrefix);

}  // namespace
