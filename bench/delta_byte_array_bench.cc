// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY decode and encode throughput.
// DLBA: random strings of 0..32 bytes (16 on average); DBA: sorted strings
// with shared prefixes: URLs (41 bytes on average) and keys of 16 bytes on
// average (Dba*16, the case the bar is defined on). 16,384 values per iteration, so
// everything stays in L2. Bars: DLBA decode 500 million values/s, DBA decode
// 200 million. memcpy of the string bytes is the reference row.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parq/encoding/delta_byte_array.h"
#include "parq/encoding/delta_length_byte_array.h"

namespace {

using namespace parq::encoding;

constexpr size_t kValues = 16384;

ByteArrayBatch random_strings() {
  std::mt19937 rng(1);
  ByteArrayBatch b;
  std::string s;
  for (size_t i = 0; i < kValues; ++i) {
    s.resize(rng() % 33);
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    b.append(s);
  }
  return b;
}

ByteArrayBatch sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  ByteArrayBatch b;
  for (const auto& s : v) b.append(s);
  return b;
}

// URLs, 41 bytes on average.
ByteArrayBatch sorted_urls() {
  std::mt19937 rng(2);
  std::vector<std::string> v(kValues);
  for (auto& s : v) {
    s = "https://example.com/catalog/" + std::to_string(rng() % 50) + "/item/" + std::to_string(rng() % 100000);
  }
  return sorted(std::move(v));
}

// Keys of 16 bytes on average (the bar's case): one of 64 six-byte
// directories, then 4..16 random letters; sorted, neighbours share the
// directory and often a letter or two more.
ByteArrayBatch sorted_keys16() {
  std::mt19937 rng(3);
  std::vector<std::string> v(kValues);
  for (auto& s : v) {
    unsigned dir = rng() % 64;
    s = {static_cast<char>('a' + dir / 8), static_cast<char>('a' + dir % 8), '/', 'x', 'y', '/'};
    s.resize(6 + 4 + rng() % 13);
    for (size_t i = 6; i < s.size(); ++i) s[i] = static_cast<char>('a' + rng() % 26);
  }
  return sorted(std::move(v));
}

template <class Encoder>
parq::Buffer encoded(const ByteArrayBatch& values) {
  Encoder enc;
  enc.put(values);
  parq::Buffer out;
  enc.flush(out);
  return out;
}

template <class Encoder, class Decoder>
void BM_Decode(benchmark::State& state, ByteArrayBatch (*make)()) {
  ByteArrayBatch values = make();
  parq::Buffer bytes = encoded<Encoder>(values);
  ByteArrayBatch out;
  Decoder dec;
  for (auto _ : state) {
    out.clear();
    dec.reset(bytes.data(), bytes.size());
    benchmark::DoNotOptimize(dec.decode(out, kValues));
  }
  if (out.data_size() != values.data_size() || std::memcmp(out.data(), values.data(), out.data_size()) != 0 ||
      std::memcmp(out.offsets(), values.offsets(), (kValues + 1) * 4) != 0)
    state.SkipWithError("decoded values differ");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.data_size()));
}

template <class Encoder>
void BM_Encode(benchmark::State& state, ByteArrayBatch (*make)()) {
  ByteArrayBatch values = make();
  Encoder enc;
  parq::Buffer out;
  for (auto _ : state) {
    out.clear();
    enc.put(values);
    enc.flush(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.data_size()));
}

void BM_Memcpy(benchmark::State& state, ByteArrayBatch (*make)()) {
  ByteArrayBatch values = make();
  std::vector<uint8_t> out(values.data_size());
  for (auto _ : state) {
    std::memcpy(out.data(), values.data(), values.data_size());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.data_size()));
}

void BM_DlbaDecode(benchmark::State& s) {
  BM_Decode<DeltaLengthByteArrayEncoder, DeltaLengthByteArrayDecoder>(s, random_strings);
}
void BM_DlbaEncode(benchmark::State& s) { BM_Encode<DeltaLengthByteArrayEncoder>(s, random_strings); }
void BM_DlbaMemcpy(benchmark::State& s) { BM_Memcpy(s, random_strings); }
void BM_DbaDecode(benchmark::State& s) { BM_Decode<DeltaByteArrayEncoder, DeltaByteArrayDecoder>(s, sorted_urls); }
void BM_DbaEncode(benchmark::State& s) { BM_Encode<DeltaByteArrayEncoder>(s, sorted_urls); }
void BM_DbaMemcpy(benchmark::State& s) { BM_Memcpy(s, sorted_urls); }
void BM_DbaDecode16(benchmark::State& s) { BM_Decode<DeltaByteArrayEncoder, DeltaByteArrayDecoder>(s, sorted_keys16); }
void BM_DbaEncode16(benchmark::State& s) { BM_Encode<DeltaByteArrayEncoder>(s, sorted_keys16); }
void BM_DbaMemcpy16(benchmark::State& s) { BM_Memcpy(s, sorted_keys16); }

BENCHMARK(BM_DlbaDecode);
BENCHMARK(BM_DlbaEncode);
BENCHMARK(BM_DlbaMemcpy);
BENCHMARK(BM_DbaDecode);
BENCHMARK(BM_DbaEncode);
BENCHMARK(BM_DbaMemcpy);
BENCHMARK(BM_DbaDecode16);
BENCHMARK(BM_DbaEncode16);
BENCHMARK(BM_DbaMemcpy16);

}  // namespace
