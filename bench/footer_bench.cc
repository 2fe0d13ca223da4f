// Footer parsing cost per column chunk: a generated 10,000-column file (the
// shape wide tables have: dictionary + RLE encodings, statistics, encoding
// stats, one path component per chunk) and every footer of the shared corpus.
// Arrow C++'s generated Thrift code takes about 3.2 us per column chunk on the
// 10,000-column footer on our reference machine; the bar here is 0.5 us.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "parq/file/file_reader.h"
#include "parq/file/footer.h"
#include "parq/format/metadata_codec.h"

namespace {

using namespace parq::format;

std::string plain_int64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

ColumnChunk wide_chunk(const std::string& name, Type type, int64_t offset) {
  ColumnChunk cc;
  cc.file_offset = offset;
  ColumnMetaData md;
  md.type = type;
  md.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
  md.path_in_schema = {name};
  md.codec = CompressionCodec::SNAPPY;
  md.num_values = 1000000;
  md.total_uncompressed_size = 4000000 + offset % 1000;
  md.total_compressed_size = 2000000 + offset % 777;
  md.data_page_offset = offset + 1000;
  md.dictionary_page_offset = offset;
  Statistics st;
  st.null_count = offset % 13;
  st.min_value = plain_int64(-offset);
  st.max_value = plain_int64(offset * 7);
  md.statistics = st;
  md.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                     {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 4}};
  cc.meta_data = md;
  return cc;
}

FileMetaData wide_file(int columns, int row_groups) {
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = columns;
  md.schema.push_back(root);
  for (int c = 0; c < columns; ++c) {
    SchemaElement e;
    e.name = "column_" + std::to_string(c);
    e.type = c % 3 == 0 ? Type::INT64 : c % 3 == 1 ? Type::DOUBLE : Type::BYTE_ARRAY;
    e.repetition_type = FieldRepetitionType::OPTIONAL;
    if (e.type == Type::BYTE_ARRAY) {
      e.converted_type = ConvertedType::UTF8;
      e.logical_type.emplace().STRING.emplace();
    }
    md.schema.push_back(e);
  }
  int64_t offset = 4;
  for (int g = 0; g < row_groups; ++g) {
    RowGroup rg;
    for (int c = 0; c < columns; ++c) {
      rg.columns.push_back(wide_chunk(md.schema[c + 1].name, *md.schema[c + 1].type, offset));
      offset += 2000000;
    }
    rg.num_rows = 1000000;
    rg.total_byte_size = offset;
    md.row_groups.push_back(std::move(rg));
  }
  md.num_rows = int64_t{1000000} * row_groups;
  md.created_by = "parq footer benchmark";
  return md;
}

void set_per_chunk_counter(benchmark::State& state, size_t chunks, size_t bytes) {
  state.counters["per_chunk"] = benchmark::Counter(
      static_cast<double>(chunks), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

void BM_DecodeWideFooter(benchmark::State& state) {
  const int columns = static_cast<int>(state.range(0));
  const int groups = static_cast<int>(state.range(1));
  std::string bytes;
  encode_thrift(wide_file(columns, groups), bytes);
  for (auto _ : state) {
    FileMetaData md;
    decode_thrift(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), md);
    benchmark::DoNotOptimize(md);
  }
  set_per_chunk_counter(state, static_cast<size_t>(columns) * groups, bytes.size());
}
BENCHMARK(BM_DecodeWideFooter)->Args({10000, 1})->Args({1000, 10})->Args({100, 100})->Unit(benchmark::kMicrosecond);

// Footer and schema: what opening a file costs.
void BM_OpenWideFile(benchmark::State& state) {
  const int columns = static_cast<int>(state.range(0));
  std::string bytes = "PAR1";
  parq::file::append_footer(wide_file(columns, 1), bytes);
  for (auto _ : state) {
    auto reader =
        parq::FileReader::open(parq::io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}));
    benchmark::DoNotOptimize(reader);
  }
  set_per_chunk_counter(state, static_cast<size_t>(columns), bytes.size());
}
BENCHMARK(BM_OpenWideFile)->Arg(10000)->Unit(benchmark::kMicrosecond);

void BM_EncodeWideFooter(benchmark::State& state) {
  FileMetaData md = wide_file(static_cast<int>(state.range(0)), 1);
  std::string bytes;
  for (auto _ : state) {
    bytes.clear();
    encode_thrift(md, bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  set_per_chunk_counter(state, static_cast<size_t>(state.range(0)), bytes.size());
}
BENCHMARK(BM_EncodeWideFooter)->Arg(10000)->Unit(benchmark::kMicrosecond);

// Every footer of the shared corpus, parsed in turn.
void BM_DecodeCorpusFooters(benchmark::State& state) {
  std::filesystem::path dir = std::filesystem::path(PARQ_SOURCE_DIR) / ".." / "shared" / "parquet-testing";
  if (!std::filesystem::is_directory(dir)) {
    state.SkipWithError("shared corpus not found beside the checkout");
    return;
  }
  std::vector<std::string> footers;
  size_t chunks = 0, bytes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().string().find(".parquet") == std::string::npos) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (file.size() < 12 || file.compare(file.size() - 4, 4, "PAR1") != 0) continue;
    uint32_t len;
    std::memcpy(&len, file.data() + file.size() - 8, 4);
    if (len > file.size() - 12) continue;
    std::string footer = file.substr(file.size() - 8 - len, len);
    FileMetaData md;
    try {
      decode_thrift(reinterpret_cast<const uint8_t*>(footer.data()), footer.size(), md);
    } catch (const parq::Error&) {
      continue;  // the deliberately corrupt ones
    }
    for (const auto& rg : md.row_groups) chunks += rg.columns.size();
    bytes += footer.size();
    footers.push_back(std::move(footer));
  }
  for (auto _ : state) {
    for (const auto& f : footers) {
      FileMetaData md;
      decode_thrift(reinterpret_cast<const uint8_t*>(f.data()), f.size(), md);
      benchmark::DoNotOptimize(md);
    }
  }
  state.counters["footers"] = static_cast<double>(footers.size());
  set_per_chunk_counter(state, chunks, bytes);
}
BENCHMARK(BM_DecodeCorpusFooters)->Unit(benchmark::kMicrosecond);

}  // namespace
