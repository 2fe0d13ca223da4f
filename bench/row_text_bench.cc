// Throughput of rows as text (parq/text/row_text.h) on 1M rows shaped like
// TPC-H lineitem (int keys, DECIMAL(15,2) on INT64, dates, short and medium
// strings): what `parq cat` spends per row once the pages are decoded. The
// output is cleared every 4096 rows, as `parq cat` flushes it to stdout, so
// that the numbers measure rendering rather than a 300 MB string's growth.
// Items are rows; bytes are the text written.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/text/row_text.h"

namespace {

using namespace parq;
using format::Type;

constexpr int64_t kRows = 1'000'000;
constexpr int64_t kFlushRows = 4096;

Array column(std::string name, Type physical) {
  Array a;
  a.name = std::move(name);
  a.type.physical = physical;
  a.length = kRows;
  return a;
}

Array int_column(std::string name, Type physical, std::mt19937_64& rng, uint64_t range) {
  Array a = column(std::move(name), physical);
  for (int64_t i = 0; i < kRows; ++i) {
    const auto v = static_cast<int64_t>(rng() % range);
    if (physical == Type::INT32) {
      a.values.append_value(static_cast<int32_t>(v));
    } else {
      a.values.append_value(v);
    }
  }
  return a;
}

Array decimal_column(std::string name, std::mt19937_64& rng, uint64_t range) {
  Array a = int_column(std::move(name), Type::INT64, rng, range);
  a.type.logical.DECIMAL = format::DecimalType{2, 15};
  return a;
}

Array date_column(std::string name, std::mt19937_64& rng) {
  Array a = column(std::move(name), Type::INT32);
  a.type.logical.DATE.emplace();
  for (int64_t i = 0; i < kRows; ++i) a.values.append_value(static_cast<int32_t>(8035 + rng() % 2557));  // 1992..1998
  return a;
}

Array string_column(std::string name, const std::vector<std::string>& choices, std::mt19937_64& rng) {
  Array a = column(std::move(name), Type::BYTE_ARRAY);
  a.type.logical.STRING.emplace();
  a.offsets.append_value(int32_t{0});
  for (int64_t i = 0; i < kRows; ++i) {
    a.values.append(choices[rng() % choices.size()]);
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  return a;
}

// Comments of 10..43 random lowercase words' letters and spaces, as dbgen's.
Array comment_column(std::string name, std::mt19937_64& rng) {
  Array a = column(std::move(name), Type::BYTE_ARRAY);
  a.type.logical.STRING.emplace();
  a.offsets.append_value(int32_t{0});
  std::string text;
  for (int64_t i = 0; i < kRows; ++i) {
    text.resize(10 + rng() % 34);
    for (char& c : text) c = rng() % 6 == 0 ? ' ' : static_cast<char>('a' + rng() % 26);
    a.values.append(text);
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  return a;
}

const RecordBatch& lineitem() {
  static const RecordBatch batch = [] {
    std::mt19937_64 rng(42);
    RecordBatch b;
    b.num_rows = kRows;
    b.columns.push_back(int_column("l_orderkey", Type::INT64, rng, 6'000'000));
    b.columns.push_back(int_column("l_partkey", Type::INT64, rng, 200'000));
    b.columns.push_back(int_column("l_suppkey", Type::INT64, rng, 10'000));
    b.columns.push_back(int_column("l_linenumber", Type::INT32, rng, 7));
    b.columns.push_back(decimal_column("l_quantity", rng, 5000));
    b.columns.push_back(decimal_column("l_extendedprice", rng, 10'000'000));
    b.columns.push_back(decimal_column("l_discount", rng, 11));
    b.columns.push_back(decimal_column("l_tax", rng, 9));
    b.columns.push_back(string_column("l_returnflag", {"A", "N", "R"}, rng));
    b.columns.push_back(string_column("l_linestatus", {"F", "O"}, rng));
    b.columns.push_back(date_column("l_shipdate", rng));
    b.columns.push_back(date_column("l_commitdate", rng));
    b.columns.push_back(date_column("l_receiptdate", rng));
    b.columns.push_back(
        string_column("l_shipinstruct", {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}, rng));
    b.columns.push_back(string_column("l_shipmode", {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}, rng));
    b.columns.push_back(comment_column("l_comment", rng));
    return b;
  }();
  return batch;
}

void report(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

void BM_JsonLines_Lineitem(benchmark::State& state) {
  const RecordBatch& batch = lineitem();
  std::string out;
  int64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    const text::RowJsonWriter writer(batch);  // per batch, as parq cat does
    for (int64_t begin = 0; begin < kRows; begin += kFlushRows) {
      out.clear();
      writer.append_rows(out, begin, std::min(begin + kFlushRows, kRows));
      bytes += static_cast<int64_t>(out.size());
      benchmark::DoNotOptimize(out.data());
    }
  }
  report(state, bytes);
}
BENCHMARK(BM_JsonLines_Lineitem)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_Csv_Lineitem(benchmark::State& state) {
  const RecordBatch& batch = lineitem();
  std::string out;
  int64_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    text::CsvWriter writer;
    const text::RowJsonWriter rows(batch);
    for (int64_t begin = 0; begin < kRows; begin += kFlushRows) {
      out.clear();
      writer.append_rows(out, rows, begin, std::min(begin + kFlushRows, kRows));
      bytes += static_cast<int64_t>(out.size());
      benchmark::DoNotOptimize(out.data());
    }
  }
  report(state, bytes);
}
BENCHMARK(BM_Csv_Lineitem)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace
