// PLAIN decode and encode throughput per physical type, data in L2 (256 KiB
// of page bytes). Bars: fixed-width decode within 10% of the memcpy row;
// BYTE_ARRAY decode of 16-byte average strings >= 500 M values/s; every
// encoder >= 1/3 of its decoder.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "memcpy_reference.h"
#include "parq/encoding/plain.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

constexpr size_t kPageBytes = 256 * 1024;

void report(benchmark::State& state, size_t items, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * items));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

// The encode loop every encoder row shares: put the values, flush into a
// reused buffer.
template <class Encoder, class Put>
void encode_loop(benchmark::State& state, Encoder& enc, Put put) {
  Buffer out;
  for (auto _ : state) {
    out.clear();
    put(enc);
    enc.flush(out);
    benchmark::ClobberMemory();
  }
}

void BM_Memcpy(benchmark::State& state) { parq::bench::memcpy_reference(state, kPageBytes, kPageBytes); }
BENCHMARK(BM_Memcpy);

template <class T>
std::vector<uint8_t> fixed_page() {
  std::vector<uint8_t> page(kPageBytes / sizeof(T) * sizeof(T));
  std::mt19937 rng(1);
  for (auto& b : page) b = static_cast<uint8_t>(rng());
  return page;
}

template <class T>
void BM_PlainDecode(benchmark::State& state) {
  auto page = fixed_page<T>();
  size_t n = page.size() / sizeof(T);
  std::vector<T> out(n);
  PlainDecoder<T> dec;
  for (auto _ : state) {
    dec.reset(page.data(), page.size(), n);
    benchmark::DoNotOptimize(dec.decode(out.data(), n));
    benchmark::ClobberMemory();
  }
  report(state, n, page.size());
}

template <class T>
void BM_PlainEncode(benchmark::State& state) {
  auto page = fixed_page<T>();
  size_t n = page.size() / sizeof(T);
  std::vector<T> values(n);
  std::memcpy(values.data(), page.data(), page.size());
  PlainEncoder<T> enc;
  encode_loop(state, enc, [&](auto& e) { e.put(values.data(), n); });
  report(state, n, page.size());
}

BENCHMARK(BM_PlainDecode<int32_t>);
BENCHMARK(BM_PlainDecode<int64_t>);
BENCHMARK(BM_PlainDecode<Int96>);
BENCHMARK(BM_PlainDecode<float>);
BENCHMARK(BM_PlainDecode<double>);
BENCHMARK(BM_PlainEncode<int32_t>);
BENCHMARK(BM_PlainEncode<int64_t>);
BENCHMARK(BM_PlainEncode<Int96>);
BENCHMARK(BM_PlainEncode<float>);
BENCHMARK(BM_PlainEncode<double>);

void BM_PlainFlbaDecode(benchmark::State& state) {
  size_t width = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> page(kPageBytes / width * width, 7);
  size_t n = page.size() / width;
  std::vector<uint8_t> out(page.size());
  PlainFixedLenByteArrayDecoder dec(width);
  for (auto _ : state) {
    dec.reset(page.data(), page.size(), n);
    benchmark::DoNotOptimize(dec.decode(out.data(), n));
    benchmark::ClobberMemory();
  }
  report(state, n, page.size());
}
BENCHMARK(BM_PlainFlbaDecode)->Arg(2)->Arg(16);

void BM_PlainFlbaEncode(benchmark::State& state) {
  size_t width = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> values(kPageBytes / width * width, 7);
  size_t n = values.size() / width;
  PlainFixedLenByteArrayEncoder enc(width);
  encode_loop(state, enc, [&](auto& e) { e.put(values.data(), n); });
  report(state, n, values.size());
}
BENCHMARK(BM_PlainFlbaEncode)->Arg(2)->Arg(16);

// Booleans: 256 Ki values (32 KiB packed); the range picks the SIMD level.
constexpr size_t kBools = 256 * 1024;

void BM_PlainBooleanDecode(benchmark::State& state) {
  set_simd_level(static_cast<SimdLevel>(state.range(0)));
  state.SetLabel(to_string(simd_level()));
  std::vector<uint8_t> page(kBools / 8);
  std::mt19937 rng(2);
  for (auto& b : page) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> out(kBools);
  PlainBooleanDecoder dec;
  for (auto _ : state) {
    dec.reset(page.data(), page.size(), kBools);
    benchmark::DoNotOptimize(dec.decode(out.data(), kBools));
    benchmark::ClobberMemory();
  }
  report(state, kBools, page.size());
  set_simd_level(detected_simd_level());
}
BENCHMARK(BM_PlainBooleanDecode)->DenseRange(0, 2);

void BM_PlainBooleanEncode(benchmark::State& state) {
  set_simd_level(static_cast<SimdLevel>(state.range(0)));
  state.SetLabel(to_string(simd_level()));
  std::vector<uint8_t> values(kBools);
  std::mt19937 rng(2);
  for (auto& v : values) v = rng() & 1;
  PlainBooleanEncoder enc;
  encode_loop(state, enc, [&](auto& e) { e.put(values.data(), kBools); });
  report(state, kBools, kBools / 8);
  set_simd_level(detected_simd_level());
}
BENCHMARK(BM_PlainBooleanEncode)->DenseRange(0, 2);

// Byte arrays, about 256 KiB of page: lengths uniform in 0..32 (16-byte
// average, 12,800 values), or in 10..43 like TPC-H lineitem comments
// (argument 1), a third of them past 32 bytes.
struct Strings {
  ByteArrayBatch batch;
  Buffer page;
  size_t n = 0;
};

Strings make_strings(size_t min_length, size_t max_length) {
  Strings s;
  std::mt19937 rng(3);
  s.n = kPageBytes / (4 + (min_length + max_length) / 2);
  std::string v;
  for (size_t i = 0; i < s.n; ++i) {
    v.resize(min_length + rng() % (max_length - min_length + 1));
    for (auto& c : v) c = static_cast<char>('a' + rng() % 26);
    s.batch.append(v);
  }
  PlainByteArrayEncoder enc;
  enc.put(s.batch);
  enc.flush(s.page);
  return s;
}

const Strings& strings(int kind = 0) {
  static const Strings shorter = make_strings(0, 32);
  static const Strings comments = make_strings(10, 43);
  return kind == 0 ? shorter : comments;
}

void BM_PlainByteArrayDecode(benchmark::State& state) {
  const Strings& s = strings(static_cast<int>(state.range(0)));
  PlainByteArrayDecoder dec;
  ByteArrayBatch out;
  for (auto _ : state) {
    out.clear();
    dec.reset(s.page.data(), s.page.size(), s.n);
    benchmark::DoNotOptimize(dec.decode(out, s.n));
    benchmark::ClobberMemory();
  }
  report(state, s.n, s.page.size());
}
BENCHMARK(BM_PlainByteArrayDecode)->Arg(0)->Arg(1);

void BM_PlainByteArraySkip(benchmark::State& state) {
  const Strings& s = strings();
  PlainByteArrayDecoder dec;
  for (auto _ : state) {
    dec.reset(s.page.data(), s.page.size(), s.n);
    benchmark::DoNotOptimize(dec.skip(s.n));
  }
  report(state, s.n, s.page.size());
}
BENCHMARK(BM_PlainByteArraySkip);

void BM_PlainByteArrayEncode(benchmark::State& state) {
  const Strings& s = strings();
  PlainByteArrayEncoder enc;
  encode_loop(state, enc, [&](auto& e) { e.put(s.batch); });
  report(state, s.n, s.page.size());
}
BENCHMARK(BM_PlainByteArrayEncode);

}  // namespace
