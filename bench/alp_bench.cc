// ALP against the usual ways of storing doubles: decode speed (GB/s of
// decoded values) and encoded size, page by page as a reader sees them
// (pages of 128 Ki values, 1 MiB of doubles), for ALP uncompressed,
// BYTE_STREAM_SPLIT + ZSTD and PLAIN + SNAPPY, on decimal-like data:
// prices with two decimals, sensor readings with one (a slow random walk),
// coordinates with six, TPC-H l_extendedprice from the compare bench's
// lineitem file (DECIMAL(15,2) read through the library, as the doubles an
// engine would store), and the DOUBLE c2 column of its wide file (sums
// divided by 7, no short decimal form: ALP's worst case). The `bytes/value`
// counter is the encoded (compressed) size. Bar: ALP decodes >= 5x faster
// than BYTE_STREAM_SPLIT + ZSTD and is no larger on decimal-like data.
//
// Run: build/bench/alp_bench --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true
// (the lineitem and wide datasets need bench/compare/data; they report an
// error without it).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "parq/compression/codec.h"
#include "parq/encoding/alp.h"
#include "parq/encoding/byte_stream_split.h"
#include "parq/encoding/plain.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

constexpr size_t kPageValues = 128 * 1024;
constexpr size_t kValues = 8 * kPageValues;

std::string data_file(const char* name) {
  for (const char* dir : {PARQ_SOURCE_DIR "/bench/compare/data/", "/work/main/bench/compare/data/"}) {
    const std::string p = std::string(dir) + name;
    if (std::filesystem::exists(p)) return p;
  }
  return {};
}

// kValues doubles of `column` from a bench file, scaled by 10^-scale when
// the column holds decimals as int64; empty without the file.
std::vector<double> from_file(const char* name, const char* column, int scale) {
  const std::string path = data_file(name);
  if (path.empty()) return {};
  auto file = FileReader::open(path);
  ReadOptions o;
  o.columns = {column};
  auto source = read_batches(*file, o);
  std::vector<double> out;
  RecordBatch b;
  while (out.size() < kValues && source->next(b)) {
    const Array& a = b.columns[0];
    for (int64_t i = 0; i < b.num_rows && out.size() < kValues; ++i)
      out.push_back(scale == 0 ? a.values.data_as<double>()[i]
                               : static_cast<double>(a.values.data_as<int64_t>()[i]) / std::pow(10.0, scale));
  }
  return out;
}

std::vector<double> dataset(int which) {
  std::mt19937_64 rng(7);
  std::vector<double> v(kValues);
  switch (which) {
    case 0:  // prices 0.01 .. 9999.99
      for (auto& x : v) x = static_cast<double>(1 + rng() % 999999) / 100.0;
      break;
    case 1: {  // a thermometer: 0.1 degree steps around 20
      int64_t tenths = 200;
      for (auto& x : v) {
        tenths += static_cast<int64_t>(rng() % 3) - 1;
        x = static_cast<double>(tenths) / 10.0;
      }
      break;
    }
    case 2: {                   // a track's longitude, six decimals, a few metres a point
      int64_t micro = 2294481;  // 2.294481
      for (auto& x : v) {
        micro += static_cast<int64_t>(rng() % 201) - 100;
        x = static_cast<double>(micro) / 1e6;
      }
      break;
    }
    case 3:
      return from_file("lineitem_snappy.parquet", "l_extendedprice", 2);
    case 4:
      return from_file("wide_snappy.parquet", "c2", 0);
  }
  return v;
}

const char* const kNames[] = {"prices", "sensor", "coordinates", "lineitem_extendedprice", "wide_c2"};
const char* const kEncodings[] = {"ALP", "BSS+ZSTD", "PLAIN+SNAPPY"};

const std::vector<double>& values_of(int which) {
  static std::vector<double> cache[5];
  static bool made[5] = {};
  if (!made[which]) {
    cache[which] = dataset(which);
    made[which] = true;
  }
  return cache[which];
}

struct Pages {
  std::vector<Buffer> pages;
  std::vector<size_t> counts;
  size_t bytes = 0;
};

// The values as the pages of `encoding` (0 ALP, 1 BSS + ZSTD, 2 PLAIN +
// SNAPPY), compressed where the encoding has a codec.
Pages encode(const std::vector<double>& values, int encoding) {
  Pages out;
  AlpEncoder<double> alp;
  ByteStreamSplitEncoder bss(8);
  auto codec = compression::make_codec(encoding == 1   ? format::CompressionCodec::ZSTD
                                       : encoding == 2 ? format::CompressionCodec::SNAPPY
                                                       : format::CompressionCodec::UNCOMPRESSED);
  for (size_t at = 0; at < values.size(); at += kPageValues) {
    const size_t n = std::min(kPageValues, values.size() - at);
    Buffer raw;
    if (encoding == 0) {
      alp.put(values.data() + at, n);
      alp.flush(raw);
    } else if (encoding == 1) {
      bss.put(values.data() + at, n);
      bss.flush(raw);
    } else {
      raw.append(values.data() + at, n * sizeof(double));
    }
    Buffer page;
    if (encoding == 0) {
      page = std::move(raw);
    } else {
      codec->compress(raw.span(), page);
    }
    out.bytes += page.size();
    out.pages.push_back(std::move(page));
    out.counts.push_back(n);
  }
  return out;
}

// Args: dataset, encoding.
void BM_Decode(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0)), encoding = static_cast<int>(state.range(1));
  const std::vector<double>& values = values_of(which);
  if (values.empty()) {
    state.SkipWithError("bench/compare/data is missing");
    return;
  }
  const Pages pages = encode(values, encoding);
  std::vector<double> out(kPageValues);
  std::vector<uint8_t> scratch(kPageValues * sizeof(double));
  AlpDecoder<double> alp;
  ByteStreamSplitDecoder bss(8);
  PlainDecoder<double> plain;
  auto codec = compression::make_codec(encoding == 1   ? format::CompressionCodec::ZSTD
                                       : encoding == 2 ? format::CompressionCodec::SNAPPY
                                                       : format::CompressionCodec::UNCOMPRESSED);
  for (auto _ : state) {
    for (size_t p = 0; p < pages.pages.size(); ++p) {
      const Buffer& page = pages.pages[p];
      const size_t n = pages.counts[p];
      if (encoding == 0) {
        alp.reset(page.data(), page.size(), n);
        alp.decode(out.data(), n);
      } else {
        codec->decompress(page.span(), scratch.data(), n * sizeof(double));
        if (encoding == 1) {
          bss.reset(scratch.data(), n * sizeof(double), n);
          bss.decode(out.data(), n);
        } else {
          plain.reset(scratch.data(), n * sizeof(double), n);
          plain.decode(out.data(), n);
        }
      }
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  // Check once that the pages decode to the values (outside the timing).
  std::vector<double> back(values.size());
  size_t at = 0;
  for (size_t p = 0; p < pages.pages.size(); ++p) {
    const size_t n = pages.counts[p];
    if (encoding == 0) {
      alp.reset(pages.pages[p].data(), pages.pages[p].size(), n);
      alp.decode(back.data() + at, n);
    } else {
      codec->decompress(pages.pages[p].span(), reinterpret_cast<uint8_t*>(back.data() + at), n * sizeof(double));
      if (encoding == 1) {
        bss.reset(reinterpret_cast<uint8_t*>(back.data() + at), n * sizeof(double), n);
        bss.decode(out.data(), n);
        std::memcpy(back.data() + at, out.data(), n * sizeof(double));
      }
    }
    at += n;
  }
  if (std::memcmp(back.data(), values.data(), values.size() * sizeof(double)) != 0)
    state.SkipWithError("decoded values differ");
  state.SetLabel(std::string(kNames[which]) + " " + kEncodings[encoding]);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.size() * sizeof(double)));
  state.counters["bytes/value"] = static_cast<double>(pages.bytes) / static_cast<double>(values.size());
}

void all(benchmark::internal::Benchmark* b) {
  for (int d = 0; d < 5; ++d)
    for (int e = 0; e < 3; ++e) b->Args({d, e});
}
BENCHMARK(BM_Decode)->Apply(all)->Unit(benchmark::kMicrosecond);

// ALP decode per SIMD level (0 scalar, 1 AVX2, 2 AVX-512). Args: dataset, level.
void BM_AlpDecodeLevel(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const auto level = static_cast<SimdLevel>(state.range(1));
  if (level > detected_simd_level()) {
    state.SkipWithError("level not supported");
    return;
  }
  const std::vector<double>& values = values_of(which);
  if (values.empty()) {
    state.SkipWithError("bench/compare/data is missing");
    return;
  }
  const Pages pages = encode(values, 0);
  std::vector<double> out(kPageValues);
  AlpDecoder<double> alp;
  set_simd_level(level);
  for (auto _ : state) {
    for (size_t p = 0; p < pages.pages.size(); ++p) {
      alp.reset(pages.pages[p].data(), pages.pages[p].size(), pages.counts[p]);
      alp.decode(out.data(), pages.counts[p]);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  set_simd_level(detected_simd_level());
  state.SetLabel(std::string(kNames[which]) + " " + to_string(level));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.size() * sizeof(double)));
}
BENCHMARK(BM_AlpDecodeLevel)->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}})->Unit(benchmark::kMicrosecond);

// ALP encode (parameter search included). Args: dataset.
void BM_AlpEncode(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const std::vector<double>& values = values_of(which);
  if (values.empty()) {
    state.SkipWithError("bench/compare/data is missing");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(encode(values, 0).bytes);
  state.SetLabel(kNames[which]);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * values.size() * sizeof(double)));
}
BENCHMARK(BM_AlpEncode)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

}  // namespace
