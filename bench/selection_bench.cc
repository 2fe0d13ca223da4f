// Reading through a selection. Kernels: compaction of 1-, 2-, 4- and 8-byte
// elements (64K of them, in L2) by random flags keeping 1%, 50% and 90%, at
// each SIMD level; bytes/s count the input, beside memcpy of as many bytes.
// Columns: LeafReader::read_selected against read_records + keep_records
// (what it replaces) over an in-memory column chunk of 1M rows, uncompressed
// and without page CRCs, in batches of 64K records: dictionary int64, PLAIN int64 and PLAIN
// strings, random selections keeping 1%, 10% and 90%; items/s count rows.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../src/column/leaf_reader.h"
#include "../src/encoding/compact_kernels.h"
#include "../src/column/record_selection.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;

std::vector<uint8_t> random_flags(size_t n, double fraction, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution d(fraction);
  std::vector<uint8_t> keep(n);
  for (auto& k : keep) k = d(rng);
  return keep;
}

// ---- kernels ----

constexpr size_t kElements = 64 * 1024;

// memcpy of the bytes a compaction reads. Not memcpy_reference: its two
// vectors may lie a multiple of 4 KiB apart, where REP MOVSB (glibc's copy
// at these sizes on FSRM cores) runs at a tenth of its speed on some AMD
// cores.
void BM_Memcpy(benchmark::State& state) {
  const auto width = static_cast<size_t>(state.range(0));
  const size_t bytes = kElements * width;
  std::vector<uint8_t> src(bytes, 1), dst(bytes + 4096);
  uint8_t* to =
      dst.data() +
      (4096 + 64 - (reinterpret_cast<uintptr_t>(dst.data()) - reinterpret_cast<uintptr_t>(src.data())) % 4096) % 4096;
  for (auto _ : state) {
    std::memcpy(to, src.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kElements));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_Memcpy)->Arg(1)->Arg(2)->Arg(4)->Arg(8);

// Args: element width, percent kept, SIMD level.
void BM_Compact(benchmark::State& state) {
  const auto width = static_cast<size_t>(state.range(0));
  const auto level = static_cast<SimdLevel>(state.range(2));
  if (level > detected_simd_level()) return state.SkipWithError("SIMD level not available");
  set_simd_level(level);
  state.SetLabel(to_string(level));
  const std::vector<uint8_t> keep = random_flags(kElements, static_cast<double>(state.range(1)) / 100, 1);
  std::vector<uint8_t> src(kElements * width);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131);
  std::vector<uint8_t> dst(src.size() + encoding::kCompactSlack);
  for (auto _ : state) {
    benchmark::DoNotOptimize(encoding::compact_width(src.data(), width, keep.data(), kElements, dst.data()));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kElements));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kElements * width));
  set_simd_level(detected_simd_level());
}
BENCHMARK(BM_Compact)->ArgsProduct({{1, 2, 4, 8}, {1, 50, 90}, {0, 1, 2}});

// ---- columns ----

constexpr int64_t kRows = 1 << 20;
constexpr int64_t kBatch = 64 * 1024;

// The chunk holds three columns: dict_i64 (RLE_DICTIONARY, 1000 distinct
// values), plain_i64 and plain_str (PLAIN strings of 4 to 30 bytes).
struct Chunk {
  Buffer bytes;
  std::unique_ptr<FileReader> file;
};

const Chunk& chunk() {
  static const Chunk c = [] {
    const Schema schema = make_schema({
        Field::int64("dict_i64").required(),
        Field::int64("plain_i64").required(),
        Field::string("plain_str").required(),
    });
    RecordBatch batch;
    batch.num_rows = kRows;
    std::mt19937_64 rng(3);
    auto leaf = [&](const char* name) {
      Array a;
      a.name = name;
      a.type = schema.column(static_cast<size_t>(schema.find_column(name))).type;
      a.length = kRows;
      return a;
    };
    Array dict = leaf("dict_i64"), plain = leaf("plain_i64"), str = leaf("plain_str");
    str.offsets.append_value<int32_t>(0);
    for (int64_t i = 0; i < kRows; ++i) {
      dict.values.append_value<int64_t>(static_cast<int64_t>(rng() % 1000) * 7919);
      plain.values.append_value<int64_t>(static_cast<int64_t>(rng()));
      const size_t len = 4 + rng() % 27;
      for (size_t k = 0; k < len; ++k) str.values.append_value<char>(static_cast<char>('a' + rng() % 26));
      str.offsets.append_value(static_cast<int32_t>(str.values.size()));
    }
    batch.columns = {std::move(dict), std::move(plain), std::move(str)};
    WriteOptions o;
    o.codec = compression::parse_codec("uncompressed");
    o.page_crc = false;  // a CRC pass costs both ways alike and would hide the decoding
    o.columns["plain_i64"].encoding = format::Encoding::PLAIN;
    o.columns["plain_str"].encoding = format::Encoding::PLAIN;
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), schema, o);
    writer->write(batch);
    writer->close();
    Chunk made;
    made.bytes = sink->take();
    made.file = FileReader::open(io::memory_input(made.bytes.span()));
    return made;
  }();
  return c;
}

const std::vector<uint8_t>& flags_kept(int percent) {
  static std::vector<uint8_t> by_percent[101];
  auto& f = by_percent[percent];
  if (f.empty()) f = random_flags(static_cast<size_t>(kRows), percent / 100.0, 5);
  return f;
}

// Args: column, percent kept, 1 for read_selected (0: read_records +
// keep_records).
void BM_ReadColumn(benchmark::State& state) {
  const Chunk& c = chunk();
  const auto column = static_cast<size_t>(state.range(0));
  const std::vector<uint8_t>& keep = flags_kept(static_cast<int>(state.range(1)));
  const bool selected = state.range(2) != 0;
  const ColumnDescriptor& descriptor = c.file->schema().column(column);
  state.SetLabel(descriptor.dotted_path() + (selected ? " read_selected" : " read_records+keep_records"));
  LeafBatch batch;
  for (auto _ : state) {
    LeafReader reader(c.file->input(), c.file->metadata(), 0, descriptor, PageReaderOptions{});
    for (int64_t at = 0; at < kRows; at += kBatch) {
      batch.clear();
      if (selected) {
        reader.read_selected(kBatch, keep.data() + at, batch);
      } else {
        reader.read_records(kBatch, batch);
        keep_records(batch, descriptor, keep.data() + at, kBatch);
      }
      benchmark::DoNotOptimize(batch.values.count);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRows));
}
BENCHMARK(BM_ReadColumn)->ArgsProduct({{0, 1, 2}, {1, 10, 90}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace
