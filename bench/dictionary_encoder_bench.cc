// Dictionary encoder throughput per type and cardinality (100, 10,000 and
// 1,000,000 distinct values, drawn uniformly; for strings also TPC-H's
// category columns, Category/Put), 32K values a page (so the
// page, its indices and the encoded body stay in L2, as in the decoder's
// benchmark):
//   Put      - a warm dictionary (every distinct value already in it): the
//              per-page cost once a column chunk is under way
//   Build    - a fresh encoder each page: inserts and table growth included
//   Page     - Put, then write_indices (the RLE/bit-packed hybrid) into a
//              reused buffer: the whole data page body
// and memcpy of the same input bytes for reference. The bar for the encoder
// (Page) is a third of the decoder's speed on the same page
// (dictionary_decoder_bench: int32/int64/double through 100 entries;
// BM_DictionaryDecodeString16 below for strings).
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "parq/encoding/dictionary_decoder.h"
#include "parq/encoding/dictionary_encoder.h"

namespace {

using namespace parq::encoding;
using parq::Buffer;

constexpr size_t kPage = size_t{32} << 10;
constexpr size_t kStringWidth = 16;

uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  return x;
}

// ids[i] in [0, cardinality): which distinct value position i holds.
std::vector<uint64_t> page_ids(size_t cardinality) {
  std::mt19937_64 rng(cardinality);
  std::vector<uint64_t> ids(kPage);
  for (auto& id : ids) id = rng() % cardinality;
  return ids;
}

template <class T>
T value_of(uint64_t id) {
  uint64_t bits = mix(id + 1);
  if constexpr (std::is_same_v<T, Int96>) {
    return Int96{{static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32), static_cast<uint32_t>(id)}};
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(id) / 100 + 1;  // prices, say: distinct for distinct ids
  } else {
    return static_cast<T>(bits);
  }
}

// Fixed-width types: the page and the distinct values.
template <class T>
struct FixedInput {
  std::vector<T> distinct, page;
  explicit FixedInput(size_t cardinality) {
    for (size_t i = 0; i < cardinality; ++i) distinct.push_back(value_of<T>(i));
    for (uint64_t id : page_ids(cardinality)) page.push_back(distinct[id]);
  }
  size_t bytes() const { return page.size() * sizeof(T); }
  DictionaryEncoder<T> encoder() const { return DictionaryEncoder<T>({SIZE_MAX, SIZE_MAX}); }
  size_t put(DictionaryEncoder<T>& e, bool all) const {
    return all ? e.put(distinct.data(), distinct.size()) : e.put(page.data(), page.size());
  }
};

// 16-byte strings (as BYTE_ARRAY and as FIXED_LEN_BYTE_ARRAY(16)).
std::string string_of(uint64_t id) {
  std::string s(kStringWidth, '\0');
  uint64_t a = mix(id + 1), b = mix(id + 2);
  std::memcpy(s.data(), &a, 8);
  std::memcpy(s.data() + 8, &b, 8);
  for (auto& c : s) c = static_cast<char>('a' + static_cast<uint8_t>(c) % 26);
  return s;
}

// Strings of 1 to 24 bytes (StringMixed), as category columns hold them:
// TPC-H's ship modes and instructions are 3 to 17 bytes, so the length
// changes from one value to the next.
std::string mixed_string_of(uint64_t id) {
  return string_of(id).substr(0, 1 + id % 16) + string_of(id + 7).substr(0, id % 9);
}

// TPC-H's category columns as the comparison benchmark generates them
// (bench/compare/generate.mjs), by column: flags, ship modes, instructions.
const std::vector<std::vector<std::string>> kCategories = {
    {"A", "N", "R"},
    {"AIR", "MAIL", "SHIP", "TRUCK", "RAIL", "REG AIR", "FOB"},
    {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"},
};

// A page of `values` drawn uniformly.
struct StringInput {
  ByteArrayBatch distinct, page;
  explicit StringInput(const std::vector<std::string>& values) {
    for (const auto& v : values) distinct.append(v);
    for (uint64_t id : page_ids(values.size())) page.append(values[id]);
  }
  size_t bytes() const { return page.data_size(); }
  ByteArrayDictionaryEncoder encoder() const { return ByteArrayDictionaryEncoder({SIZE_MAX, SIZE_MAX}); }
  size_t put(ByteArrayDictionaryEncoder& e, bool all) const { return e.put(all ? distinct : page); }
};

// `cardinality` strings that kMake gives.
template <std::string (*kMake)(uint64_t)>
struct GeneratedStrings : StringInput {
  static std::vector<std::string> make(size_t cardinality) {
    std::vector<std::string> values;
    for (size_t i = 0; i < cardinality; ++i) values.push_back(kMake(i));
    return values;
  }
  explicit GeneratedStrings(size_t cardinality) : StringInput(make(cardinality)) {}
};

// The argument picks a column of kCategories.
struct CategoryStrings : StringInput {
  explicit CategoryStrings(size_t column) : StringInput(kCategories[column]) {}
};

struct FixedLenInput {
  std::string distinct, page;
  explicit FixedLenInput(size_t cardinality) {
    for (size_t i = 0; i < cardinality; ++i) distinct += string_of(i);
    for (uint64_t id : page_ids(cardinality)) page.append(distinct, id * kStringWidth, kStringWidth);
  }
  size_t bytes() const { return page.size(); }
  FixedLenByteArrayDictionaryEncoder encoder() const {
    return FixedLenByteArrayDictionaryEncoder(kStringWidth, {SIZE_MAX, SIZE_MAX});
  }
  size_t put(FixedLenByteArrayDictionaryEncoder& e, bool all) const {
    const std::string& s = all ? distinct : page;
    return e.put(reinterpret_cast<const uint8_t*>(s.data()), s.size() / kStringWidth);
  }
};

enum class Mode { kPut, kBuild, kPage };

template <class Input>
void BM_Dictionary(benchmark::State& state, Mode mode) {
  Input input(static_cast<size_t>(state.range(0)));
  auto enc = input.encoder();
  input.put(enc, true);
  enc.clear_indices();
  Buffer out;
  for (auto _ : state) {
    if (mode == Mode::kBuild) enc.reset();
    size_t took = input.put(enc, false);
    benchmark::DoNotOptimize(took);
    if (mode == Mode::kPage) {
      out.clear();
      enc.write_indices(out);
      benchmark::DoNotOptimize(out.data());
    } else {
      enc.clear_indices();
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPage));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.bytes()));
  state.counters["entries"] = static_cast<double>(enc.num_entries());
}

void BM_Memcpy(benchmark::State& state) {
  size_t bytes = static_cast<size_t>(state.range(0)) * kPage;
  std::vector<uint8_t> src(bytes, 1), dst(bytes);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPage));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

template <class Input>
void register_type(const char* type) {
  const std::pair<const char*, Mode> modes[] = {{"Put", Mode::kPut}, {"Build", Mode::kBuild}, {"Page", Mode::kPage}};
  for (auto [mode_name, mode] : modes) {
    std::string name = std::string("BM_Dictionary/") + type + "/" + mode_name;
    benchmark::RegisterBenchmark(name.c_str(), [mode = mode](benchmark::State& s) { BM_Dictionary<Input>(s, mode); })
        ->ArgName("distinct")
        ->Arg(100)
        ->Arg(10000)
        ->Arg(1000000)
        ->Unit(benchmark::kMicrosecond);
  }
}

const bool registered = [] {
  register_type<FixedInput<int32_t>>("Int32");
  register_type<FixedInput<int64_t>>("Int64");
  register_type<FixedInput<Int96>>("Int96");
  register_type<FixedInput<float>>("Float");
  register_type<FixedInput<double>>("Double");
  register_type<GeneratedStrings<string_of>>("String16");
  register_type<GeneratedStrings<mixed_string_of>>("StringMixed");
  register_type<FixedLenInput>("FixedLen16");
  // TPC-H's category columns through a warm dictionary.
  benchmark::RegisterBenchmark("BM_Dictionary/Category/Put",
                               [](benchmark::State& s) { BM_Dictionary<CategoryStrings>(s, Mode::kPut); })
      ->ArgName("column")
      ->DenseRange(0, static_cast<int>(kCategories.size()) - 1)
      ->Unit(benchmark::kMicrosecond);
  return true;
}();

// The other side of the String16 bar: decoding the same kind of page back
// into a ByteArrayBatch, 32K values at a time (the output stays in L2).
void BM_DictionaryDecodeString16(benchmark::State& state) {
  GeneratedStrings<string_of> input(static_cast<size_t>(state.range(0)));
  auto enc = input.encoder();
  input.put(enc, true);
  enc.clear_indices();
  constexpr size_t kChunk = 32 * 1024;
  std::vector<Buffer> pages;
  for (size_t i = 0; i < kPage; i += kChunk) {
    enc.put(input.page.offsets() + i, input.page.data(), kChunk);
    pages.emplace_back();
    enc.write_indices(pages.back());
  }
  ByteArrayBatch out;
  const ByteArrayDictionaryTable table(input.distinct);
  for (auto _ : state) {
    for (const Buffer& page : pages) {
      out.clear();
      DictionaryDecoder dec(page.data(), page.size());
      benchmark::DoNotOptimize(dec.decode(table, out, kChunk));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPage));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.bytes()));
}
BENCHMARK(BM_DictionaryDecodeString16)->ArgName("distinct")->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);

// memcpy of 4, 8, 12 and 16 bytes a value.
BENCHMARK(BM_Memcpy)->ArgName("value_bytes")->Arg(4)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
