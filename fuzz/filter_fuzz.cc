// libFuzzer target for filters. The input is filter text: it must parse or
// throw parq::Error; what parses must print as text that parses to the same
// tree (compared through a second printing). Then the filter is bound to a
// small file of every common type and read with and without pruning: both
// reads must give the same rows, or both throw parq::Error (a literal that
// does not fit its column).
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/filter/expression.h"
#include "parq/schema/field.h"
#include "parq/text/row_text.h"

namespace {

using namespace parq;

// 300 rows in row groups of 64 and pages of 16: ints, doubles with NaN,
// strings, dates, decimals, booleans, a struct; every fifth value null.
const std::vector<uint8_t>& test_file() {
  static const std::vector<uint8_t> bytes = [] {
    Schema schema =
        make_schema({Field::int64("i").required(), Field::float64("d"), Field::string("s"), Field::date("day"),
                     Field::decimal("p", 9, 2), Field::boolean("b"), Field::group("g", {Field::int32("x")})});
    RecordBatch batch;
    const int64_t n = 300;
    batch.num_rows = n;
    auto leaf = [&](const char* name, size_t column, size_t width) {
      Array a;
      a.name = name;
      a.type = schema.column(column).type;
      a.length = n;
      a.validity.resize((n + 7) / 8);
      std::memset(a.validity.data(), 0, a.validity.size());
      for (int64_t r = 0; r < n; ++r)
        if (r % 5 != 4) a.validity.data()[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
      a.null_count = n / 5;
      a.values.resize(static_cast<size_t>(n) * width);
      return a;
    };
    Array i = leaf("i", 0, 8);
    i.validity.clear();
    i.null_count = 0;
    Array d = leaf("d", 1, 8), day = leaf("day", 3, 4), p = leaf("p", 4, 4), x = leaf("x", 6, 4);
    Array b = leaf("b", 5, 0);
    b.values.resize((n + 7) / 8);
    std::memset(b.values.data(), 0, b.values.size());
    Array s = leaf("s", 2, 0);
    s.offsets.append_value<int32_t>(0);
    for (int64_t r = 0; r < n; ++r) {
      i.values.data_as<int64_t>()[r] = r;
      d.values.data_as<double>()[r] = r % 7 == 0 ? __builtin_nan("") : (r % 13) * 0.5 - 3;
      day.values.data_as<int32_t>()[r] = 18000 + static_cast<int32_t>(r / 3);
      p.values.data_as<int32_t>()[r] = static_cast<int32_t>(r * 37 % 1000 - 500);
      x.values.data_as<int32_t>()[r] = static_cast<int32_t>(r % 11);
      if (r % 3 == 0) b.values.data()[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
      static const char* const words[] = {"", "a", "ab", "abc", "b", "xyz", "\xff"};
      s.values.append(std::string_view(words[r % 7]));
      s.offsets.append_value(static_cast<int32_t>(s.values.size()));
    }
    Array g;
    g.kind = ArrayKind::kStruct;
    g.name = "g";
    g.length = n;
    g.children.push_back(std::move(x));
    batch.columns = {std::move(i), std::move(d), std::move(s), std::move(day),
                     std::move(p), std::move(b), std::move(g)};
    WriteOptions options;
    options.row_group_rows = 64;
    options.page_rows = 16;
    options.columns["s"].bloom_filter = BloomFilterOptions{};
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), schema, options);
    writer->write(batch);
    writer->close();
    return std::vector<uint8_t>(sink->buffer().data(), sink->buffer().data() + sink->buffer().size());
  }();
  return bytes;
}

std::string rows(const FileReader& file, const ReadOptions& options) {
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  filter::ExpressionPtr e;
  try {
    e = filter::parse_filter(text);
  } catch (const Error&) {
    return 0;
  }
  const std::string printed = e->to_string();
  if (filter::parse_filter(printed)->to_string() != printed) std::abort();

  static const auto file = FileReader::open(io::memory_input(test_file()));
  ReadOptions pruned;
  pruned.filter = e;
  pruned.batch_rows = 1 + static_cast<int64_t>(size % 50);
  ReadOptions unpruned = pruned;
  unpruned.pruning = PruningOptions{false, false, false, false};
  std::string a, b;
  bool a_failed = false, b_failed = false;
  try {
    a = rows(*file, pruned);
  } catch (const Error&) {
    a_failed = true;
  }
  try {
    b = rows(*file, unpruned);
  } catch (const Error&) {
    b_failed = true;
  }
  if (a_failed != b_failed || a != b) std::abort();
  return 0;
}
