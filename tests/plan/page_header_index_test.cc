// Page indexes synthesized from data page headers: equal to the writer's
// own page index where a file has both, never ruling out a row the filter
// keeps (random predicates against a row-by-row evaluation), absent where a
// page's rows are not in its header, and an error or nothing on damaged
// chunks. The corpus's files from parquet-mr, Arrow C++ and arrow-rs carry
// page header statistics of other writers.
#include "plan/page_header_index.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "../file_bytes.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/file/page_index.h"
#include "parq/format/metadata_codec.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

using filter::CompareOp;
using filter::Expression;
using filter::ExpressionPtr;
using filter::Literal;
using plan::index_from_page_headers;
using plan::page_header_ranges;
using plan::SynthesizedPageIndex;

// ---- checks every synthesized index must pass ----

// The promises page_index.h makes of a validated index, which the fetch
// and decode stages rely on, plus the column index's shape.
void expect_well_formed(const SynthesizedPageIndex& index, const ChunkBytes& chunk, int64_t num_rows) {
  const auto& pages = index.offset_index.page_locations;
  const auto& ci = index.column_index;
  ASSERT_FALSE(pages.empty());
  ASSERT_EQ(ci.null_pages.size(), pages.size());
  ASSERT_EQ(ci.min_values.size(), pages.size());
  ASSERT_EQ(ci.max_values.size(), pages.size());
  ASSERT_EQ(index.unbounded.size(), pages.size());
  if (ci.null_counts) {
    ASSERT_EQ(ci.null_counts->size(), pages.size());
  }
  if (ci.nan_counts) {
    ASSERT_EQ(ci.nan_counts->size(), pages.size());
  }
  EXPECT_EQ(ci.boundary_order, format::BoundaryOrder::UNORDERED);
  EXPECT_EQ(pages[0].first_row_index, 0);
  int64_t end_of_last = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    if (p > 0) {
      EXPECT_GT(pages[p].first_row_index, pages[p - 1].first_row_index);
    }
    EXPECT_LT(pages[p].first_row_index, num_rows);
    EXPECT_GT(pages[p].compressed_page_size, 0);
    EXPECT_GE(pages[p].offset, end_of_last);
    end_of_last = pages[p].offset + pages[p].compressed_page_size;
    bool inside = false;
    for (const auto& s : chunk.segments)
      inside = inside || (static_cast<uint64_t>(pages[p].offset) >= s.offset &&
                          static_cast<uint64_t>(end_of_last) <= s.offset + s.bytes.size());
    EXPECT_TRUE(inside) << "page " << p << " is not inside the chunk's bytes";
    if (ci.null_pages[p]) {
      EXPECT_FALSE(index.unbounded[p]);
    }
  }
}

// ---- a file of the common types, written by parq ----

constexpr int64_t kRows = 6000;
constexpr int64_t kGroupRows = 2000;

struct Data {
  std::vector<int64_t> id;                    // 0 id: sorted
  std::vector<std::optional<int32_t>> i32;    // 1 i32: clustered, a run of nulls
  std::vector<std::optional<double>> d;       // 2 d: NaN, -0.0, infinities
  std::vector<std::optional<std::string>> s;  // 3 s: clustered prefixes, long (truncated) bounds, a run of nulls
  std::vector<std::optional<bool>> b;         // 4 b
  std::vector<std::optional<uint32_t>> u;     // 5 u: INTEGER(32, false), past INT32_MAX
};
const char* const kNames[] = {"id", "i32", "d", "s", "b", "u"};

// `nan_pages`: rows 2000-2299 of d are all NaN, so its pages there have
// no bounds (and the writer drops d's column index).
Data make_data(bool nan_pages) {
  std::mt19937_64 rng(7);
  Data x;
  for (int64_t i = 0; i < kRows; ++i) {
    x.id.push_back(i);
    x.i32.push_back(rng() % 10 == 0 || (i >= 5000 && i < 5300)
                        ? std::nullopt
                        : std::optional<int32_t>(static_cast<int32_t>(i / 250 * 7 - 100 + rng() % 20)));
    std::optional<double> d;
    if (rng() % 20 != 0) {
      if ((nan_pages && i >= 2000 && i < 2300) || rng() % 100 == 0) {
        d = std::nan("");
      } else if (rng() % 200 == 0) {
        d = rng() % 2 ? 0.0 : -0.0;
      } else if (rng() % 500 == 0) {
        d = rng() % 2 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
      } else {
        d = static_cast<double>(i % 1500) / 10.0 - 50 + static_cast<double>(rng() % 100) / 1000.0;
      }
    }
    x.d.push_back(d);
    std::optional<std::string> s;
    if (!(i >= 3000 && i < 3300) && rng() % 20 != 0) {
      s = "k" + std::to_string(100 + i / 400);
      if (i >= 4500 && i < 4700) {
        *s += std::string(70, 'z') + std::to_string(rng() % 10);
      } else {
        *s += "-" + std::to_string(rng() % 50);
      }
    }
    x.s.push_back(s);
    x.b.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<bool>(i / 600 % 2 == 0 || rng() % 3 == 0));
    x.u.push_back(rng() % 9 == 0 ? std::nullopt
                                 : std::optional<uint32_t>(static_cast<uint32_t>(i * 700000 + rng() % 1000)));
  }
  return x;
}

Schema data_schema() {
  return make_schema({Field::int64("id").required(), Field::int32("i32"), Field::float64("d"), Field::string("s"),
                      Field::boolean("b"), Field::integer("u", 32, false)});
}

void set_valid(Array& a, size_t n, const std::vector<bool>& valid) {
  a.length = static_cast<int64_t>(n);
  a.validity.resize((n + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  for (size_t i = 0; i < n; ++i) {
    if (valid[i]) {
      a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    } else {
      ++a.null_count;
    }
  }
}

template <class T>
Array fixed(const Schema& schema, size_t column, const std::vector<std::optional<T>>& v) {
  Array a;
  a.name = kNames[column];
  a.type = schema.column(column).type;
  std::vector<bool> valid;
  for (const auto& x : v) {
    valid.push_back(x.has_value());
    a.values.append_value(x.value_or(T{}));
  }
  set_valid(a, v.size(), valid);
  return a;
}

std::vector<uint8_t> write(const Schema& schema, const RecordBatch& batch, int page_version, bool dictionary,
                           bool page_index) {
  WriteOptions options;
  options.row_group_rows = kGroupRows;
  options.page_rows = 97;
  options.page_version = page_version;
  options.dictionary = dictionary;
  options.page_index = page_index;
  return testing::file_bytes(schema, batch, options);
}

std::vector<uint8_t> write_data(const Data& x, int page_version, bool dictionary, bool page_index) {
  const Schema schema = data_schema();
  RecordBatch batch;
  batch.num_rows = kRows;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  id.length = kRows;
  for (int64_t v : x.id) id.values.append_value(v);
  batch.columns.push_back(std::move(id));
  batch.columns.push_back(fixed(schema, 1, x.i32));
  batch.columns.push_back(fixed(schema, 2, x.d));
  Array s;
  s.name = "s";
  s.type = schema.column(3).type;
  s.offsets.append_value<int32_t>(0);
  std::vector<bool> valid;
  for (const auto& v : x.s) {
    valid.push_back(v.has_value());
    if (v) s.values.append(*v);
    s.offsets.append_value(static_cast<int32_t>(s.values.size()));
  }
  set_valid(s, x.s.size(), valid);
  batch.columns.push_back(std::move(s));
  Array b;
  b.name = "b";
  b.type = schema.column(4).type;
  b.values.resize((kRows + 7) / 8);
  std::memset(b.values.data(), 0, b.values.size());
  valid.clear();
  for (int64_t i = 0; i < kRows; ++i) {
    valid.push_back(x.b[static_cast<size_t>(i)].has_value());
    if (x.b[static_cast<size_t>(i)].value_or(false)) b.values.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  set_valid(b, kRows, valid);
  batch.columns.push_back(std::move(b));
  batch.columns.push_back(fixed(schema, 5, x.u));
  return write(schema, batch, page_version, dictionary, page_index);
}

struct Config {
  int page_version;
  bool dictionary;
};
const Config kConfigs[] = {{1, true}, {1, false}, {2, true}, {2, false}};

std::string describe(const Config& c) {
  return "v" + std::to_string(c.page_version) + (c.dictionary ? " pages, dictionary" : " pages, no dictionary");
}

TEST(PageHeaderIndex, EqualsTheWrittenPageIndex) {
  const Data data = make_data(false);
  for (const Config& config : kConfigs) {
    SCOPED_TRACE(describe(config));
    const std::vector<uint8_t> bytes = write_data(data, config.page_version, config.dictionary, true);
    auto file = FileReader::open(io::memory_input(bytes));
    const auto& meta = file->metadata();
    int64_t null_pages = 0, pages = 0;
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      for (size_t c = 0; c < file->schema().num_columns(); ++c) {
        SCOPED_TRACE("row group " + std::to_string(g) + ", column " + kNames[c]);
        const std::optional<PageIndex> real = read_page_index(*file, g, c);
        ASSERT_TRUE(real && real->column_index && real->offset_index);
        const ChunkBytes chunk = fetch_whole_chunk(file->input(), meta, g, c);
        const auto made = index_from_page_headers(chunk, file->name(), meta, g, file->schema().column(c));
        ASSERT_TRUE(made.has_value());
        expect_well_formed(*made, chunk, meta.row_groups[g].num_rows);
        EXPECT_EQ(made->offset_index.page_locations, real->offset_index->page_locations);
        const format::ColumnIndex& want = *real->column_index;
        const format::ColumnIndex& got = made->column_index;
        EXPECT_EQ(got.null_pages, want.null_pages);
        EXPECT_EQ(got.min_values, want.min_values);
        EXPECT_EQ(got.max_values, want.max_values);
        EXPECT_EQ(got.null_counts, want.null_counts);
        EXPECT_EQ(got.nan_counts, want.nan_counts);
        EXPECT_EQ(made->unbounded, std::vector<bool>(got.null_pages.size(), false));
        for (bool n : got.null_pages) null_pages += n;
        pages += static_cast<int64_t>(got.null_pages.size());
      }
    }
    EXPECT_GT(null_pages, 0);  // the runs of nulls in i32 and s
    EXPECT_GT(pages, 6 * 3 * 20);
  }
}

// ---- random predicates, evaluated row by row ----

struct Value {
  bool null = false;
  int64_t i = 0;  // id, i32, b (0/1), u
  double d = 0;
  std::string s;
};

struct Pred {
  enum Kind { kCmp, kIn, kIsNull, kIsNotNull, kStarts, kAnd, kOr, kNot };
  Kind kind = kCmp;
  int column = 0;
  CompareOp op = CompareOp::kEqual;
  std::vector<Value> values;
  std::vector<Pred> kids;
};

Value cell(const Data& x, int column, size_t row) {
  Value v;
  auto set = [&](const auto& opt, auto&& assign) {
    if (opt) {
      assign(*opt);
    } else {
      v.null = true;
    }
  };
  switch (column) {
    case 0:
      v.i = x.id[row];
      break;
    case 1:
      set(x.i32[row], [&](int32_t a) { v.i = a; });
      break;
    case 2:
      set(x.d[row], [&](double a) { v.d = a; });
      break;
    case 3:
      set(x.s[row], [&](const std::string& a) { v.s = a; });
      break;
    case 4:
      set(x.b[row], [&](bool a) { v.i = a; });
      break;
    default:
      set(x.u[row], [&](uint32_t a) { v.i = a; });
      break;
  }
  return v;
}

// NaN equals NaN and sorts above every number; -0.0 equals 0.0.
int compare(int column, const Value& a, const Value& b) {
  if (column == 2) {
    const bool na = std::isnan(a.d), nb = std::isnan(b.d);
    if (na || nb) return static_cast<int>(na) - static_cast<int>(nb);
    return (a.d > b.d) - (a.d < b.d);
  }
  if (column == 3) {
    const int c = a.s.compare(b.s);
    return (c > 0) - (c < 0);
  }
  return (a.i > b.i) - (a.i < b.i);
}

// 0 false, 1 unknown, 2 true.
int truth(const Pred& p, const Data& x, size_t row) {
  switch (p.kind) {
    case Pred::kAnd: {
      int t = 2;
      for (const Pred& k : p.kids) t = std::min(t, truth(k, x, row));
      return t;
    }
    case Pred::kOr: {
      int t = 0;
      for (const Pred& k : p.kids) t = std::max(t, truth(k, x, row));
      return t;
    }
    case Pred::kNot:
      return 2 - truth(p.kids[0], x, row);
    default:
      break;
  }
  const Value v = cell(x, p.column, row);
  if (p.kind == Pred::kIsNull) return v.null ? 2 : 0;
  if (p.kind == Pred::kIsNotNull) return v.null ? 0 : 2;
  if (v.null) return 1;
  if (p.kind == Pred::kStarts) return v.s.compare(0, p.values[0].s.size(), p.values[0].s) == 0 ? 2 : 0;
  if (p.kind == Pred::kIn) {
    bool has_null = false;
    for (const Value& w : p.values) {
      if (w.null) {
        has_null = true;
      } else if (compare(p.column, v, w) == 0) {
        return 2;
      }
    }
    return has_null ? 1 : 0;
  }
  const int c = compare(p.column, v, p.values[0]);
  bool r = false;
  switch (p.op) {
    case CompareOp::kEqual:
      r = c == 0;
      break;
    case CompareOp::kNotEqual:
      r = c != 0;
      break;
    case CompareOp::kLess:
      r = c < 0;
      break;
    case CompareOp::kLessEqual:
      r = c <= 0;
      break;
    case CompareOp::kGreater:
      r = c > 0;
      break;
    case CompareOp::kGreaterEqual:
      r = c >= 0;
      break;
  }
  return r ? 2 : 0;
}

Literal literal(int column, const Value& v) {
  if (v.null) return Literal::null();
  switch (column) {
    case 2: {
      if (std::isnan(v.d)) return Literal::number("NaN");
      if (std::isinf(v.d)) return Literal::number(v.d > 0 ? "Infinity" : "-Infinity");
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", v.d);
      return Literal::number(text);
    }
    case 3:
      return Literal::string(v.s);
    case 4:
      return Literal::boolean(v.i != 0);
    default:
      return Literal::number(std::to_string(v.i));
  }
}

ExpressionPtr expression(const Pred& p) {
  const std::string name = kNames[p.column];
  switch (p.kind) {
    case Pred::kCmp:
      return Expression::compare(name, p.op, literal(p.column, p.values[0]));
    case Pred::kIn: {
      std::vector<Literal> list;
      for (const Value& v : p.values) list.push_back(literal(p.column, v));
      return Expression::in(name, list);
    }
    case Pred::kIsNull:
      return Expression::is_null(name);
    case Pred::kIsNotNull:
      return Expression::is_not_null(name);
    case Pred::kStarts:
      return Expression::starts_with(name, p.values[0].s);
    case Pred::kAnd:
    case Pred::kOr: {
      std::vector<ExpressionPtr> kids;
      for (const Pred& k : p.kids) kids.push_back(expression(k));
      return p.kind == Pred::kAnd ? Expression::all_of(kids) : Expression::any_of(kids);
    }
    case Pred::kNot:
      return Expression::negate(expression(p.kids[0]));
  }
  return nullptr;
}

struct PredicateMaker {
  const Data& x;
  std::mt19937_64 rng{11};

  size_t pick(size_t n) { return static_cast<size_t>(rng() % n); }

  // A value near the data: one of its values, perturbed, or a special one.
  Value value(int column) {
    Value v = cell(x, column, pick(kRows));
    v.null = false;
    switch (column) {
      case 0:
        if (pick(3) == 0) v.i = static_cast<int64_t>(pick(kRows + 20)) - 10;
        break;
      case 1:
      case 5:
        if (pick(3) == 0) v.i += static_cast<int64_t>(pick(5)) - 2;
        if (column == 5 && v.i < 0) v.i = 0;
        break;
      case 2: {
        const double specials[] = {
            std::nan(""), 0.0,  -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
            -50,          99.95};
        if (pick(4) == 0) v.d = specials[pick(7)];
        break;
      }
      case 3:
        if (pick(3) == 0) v.s = v.s.substr(0, pick(v.s.size() + 1));
        if (pick(5) == 0) v.s += std::string(1, static_cast<char>('0' + pick(75)));
        break;
      case 4:
        v.i = static_cast<int64_t>(pick(2));
        break;
    }
    return v;
  }

  Pred leaf() {
    Pred p;
    p.column = static_cast<int>(pick(6));
    const size_t k = pick(20);
    if (k < 2) {
      p.kind = Pred::kIsNull;
    } else if (k < 4) {
      p.kind = Pred::kIsNotNull;
    } else if (k < 7) {
      p.kind = Pred::kIn;
      for (size_t n = 1 + pick(4); n > 0; --n) p.values.push_back(value(p.column));
      if (pick(6) == 0) p.values.push_back(Value{true});
    } else if (k < 9 && p.column == 3) {
      p.kind = Pred::kStarts;
      Value v = value(3);
      v.s = v.s.substr(0, pick(v.s.size() + 1));
      p.values.push_back(v);
    } else {
      p.kind = Pred::kCmp;
      p.op = static_cast<CompareOp>(p.column == 4 ? pick(2) : pick(6));
      p.values.push_back(value(p.column));
    }
    return p;
  }

  Pred make(int depth) {
    const size_t k = pick(10);
    if (depth == 0 || k < 4) return leaf();
    Pred p;
    if (k < 6) {
      p.kind = Pred::kNot;
      p.kids.push_back(make(depth - 1));
      return p;
    }
    p.kind = k < 8 ? Pred::kAnd : Pred::kOr;
    for (size_t n = 2 + pick(2); n > 0; --n) p.kids.push_back(make(depth - 1));
    return p;
  }
};

bool contains(const std::vector<RowRange>& ranges, int64_t row) {
  for (const RowRange& r : ranges)
    if (row >= r.begin && row < r.end) return true;
  return false;
}

TEST(PageHeaderIndex, RangesKeepEveryMatchingRow) {
  const Data data = make_data(true);
  const Schema schema = data_schema();
  for (const Config& config : kConfigs) {
    SCOPED_TRACE(describe(config));
    const std::vector<uint8_t> bytes = write_data(data, config.page_version, config.dictionary, false);
    auto file = FileReader::open(io::memory_input(bytes));
    const auto& meta = file->metadata();
    ASSERT_EQ(meta.row_groups.size(), 3u);
    // Chunks by (row group, column); every one has an index from its headers.
    std::vector<std::vector<ChunkBytes>> chunks(meta.row_groups.size());
    bool unbounded = false;
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      EXPECT_FALSE(read_page_index(*file, g, 0).has_value());
      for (size_t c = 0; c < schema.num_columns(); ++c) {
        chunks[g].push_back(fetch_whole_chunk(file->input(), meta, g, c));
        const auto made = index_from_page_headers(chunks[g][c], file->name(), meta, g, schema.column(c));
        ASSERT_TRUE(made.has_value()) << "row group " << g << ", column " << kNames[c];
        expect_well_formed(*made, chunks[g][c], meta.row_groups[g].num_rows);
        for (bool u : made->unbounded) unbounded = unbounded || u;
      }
    }
    EXPECT_TRUE(unbounded);  // d's all-NaN pages

    PredicateMaker maker{data};
    int64_t kept = 0, matching = 0, pages = 0, pages_pruned = 0;
    for (int n = 0; n < 400; ++n) {
      const Pred pred = maker.make(3);
      const ExpressionPtr expr = expression(pred);
      SCOPED_TRACE(expr->to_string());
      const filter::BoundFilter bound = filter::BoundFilter::bind(*expr, schema);
      for (size_t g = 0; g < meta.row_groups.size(); ++g) {
        const std::vector<RowRange> ranges = page_header_ranges(
            bound, meta, schema, g, [&](size_t c) { return &chunks[g][c]; }, file->name(), pages, pages_pruned);
        EXPECT_EQ(ranges, normalize_ranges(ranges));
        for (const RowRange& r : ranges) {
          EXPECT_GE(r.begin, 0);
          EXPECT_LE(r.end, kGroupRows);
          kept += r.size();
        }
        for (int64_t row = 0; row < kGroupRows; ++row) {
          if (truth(pred, data, static_cast<size_t>(g * kGroupRows + row)) != 2) continue;
          ++matching;
          ASSERT_TRUE(contains(ranges, row)) << "row group " << g << " row " << row << " matches but is pruned";
        }
      }
    }
    // The pages do prune: far fewer rows kept than 400 predicates' worth.
    EXPECT_LT(kept, 400 * kRows * 3 / 4);
    EXPECT_GT(matching, 0);
    EXPECT_GT(pages_pruned, 0);
    EXPECT_LE(pages_pruned, pages);
  }
}

TEST(PageHeaderIndex, CombinesWithTheFilesOwnIndex) {
  // With lookups, a column's real index is used and the others are
  // synthesized: the same ranges as the real indexes of both.
  const Data data = make_data(false);
  const Schema schema = data_schema();
  const std::vector<uint8_t> bytes = write_data(data, 1, true, true);
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& meta = file->metadata();
  struct Lookups final : plan::ChunkLookups {
    const FileReader& file;
    std::map<size_t, std::optional<parq::PageIndex>> kept;
    std::set<size_t> with_index;
    explicit Lookups(const FileReader& f) : file(f) {}
    const Array* dictionary(size_t, size_t) override { return nullptr; }
    const BloomFilter* bloom_filter(size_t, size_t) override { return nullptr; }
    std::optional<ChunkLookups::PageIndex> page_index(size_t g, size_t column) override {
      if (!with_index.count(column)) return std::nullopt;
      auto& slot = kept[g * 100 + column];
      if (!slot) slot = read_page_index(file, g, column);
      return ChunkLookups::PageIndex{&*slot->column_index, &*slot->offset_index};
    }
  };
  Lookups all(*file), some(*file);
  all.with_index = {0, 1, 2, 3, 4, 5};
  some.with_index = {1, 3};
  std::vector<ChunkBytes> chunks;
  for (size_t c = 0; c < schema.num_columns(); ++c) chunks.push_back(fetch_whole_chunk(file->input(), meta, 1, c));
  const char* filters[] = {"i32 < -20 OR s >= 'k110'", "id BETWEEN 100 AND 300 AND s LIKE 'k10%'",
                           "i32 IS NULL AND u < 1500000000", "NOT (d > 0) AND i32 = 40"};
  for (const char* text : filters) {
    SCOPED_TRACE(text);
    const auto bound = filter::BoundFilter::bind(*filter::parse_filter(text), schema);
    int64_t pages = 0, pruned = 0, unused = 0;
    const auto want = plan::page_index_ranges(bound, meta, schema, 1, kGroupRows, all, unused, unused);
    const auto got = page_header_ranges(
        bound, meta, schema, 1, [&](size_t c) { return &chunks[c]; }, file->name(), pages, pruned, &some);
    EXPECT_EQ(got, want);
    EXPECT_NE(got, (std::vector<RowRange>{{0, kGroupRows}}));
    // Only the synthesized indexes' pages are counted here.
    int64_t synthesized_pages = 0;
    for (int c : bound.columns())
      if (!some.with_index.count(static_cast<size_t>(c)))
        synthesized_pages += static_cast<int64_t>(
            index_from_page_headers(chunks[static_cast<size_t>(c)], file->name(), meta, 1, schema.column(c))
                ->offset_index.page_locations.size());
    EXPECT_EQ(pages, synthesized_pages);
  }
}

// ---- repeated columns ----

TEST(PageHeaderIndex, RepeatedColumnsNeedV2Pages) {
  const Schema schema = make_schema({Field::int64("id").required(), Field::list("l", Field::int32("element"))});
  const int64_t rows = 3000;
  RecordBatch batch;
  batch.num_rows = rows;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  id.length = rows;
  Array element;
  element.name = "element";
  element.type = schema.column(1).type;
  Array list;
  list.kind = ArrayKind::kList;
  list.name = "l";
  list.offsets.append_value<int32_t>(0);
  std::vector<bool> list_valid, element_valid;
  for (int64_t i = 0; i < rows; ++i) {
    id.values.append_value(i);
    const int64_t n = i % 4;
    list_valid.push_back(i % 11 != 0);
    if (i % 11 != 0) {
      for (int64_t k = 0; k < n; ++k) {
        element.values.append_value(static_cast<int32_t>(i + k));
        element_valid.push_back((i + k) % 5 != 0);
      }
    }
    list.offsets.append_value(static_cast<int32_t>(element_valid.size()));
  }
  set_valid(element, element_valid.size(), element_valid);
  set_valid(list, static_cast<size_t>(rows), list_valid);
  list.children.push_back(std::move(element));
  batch.columns = {std::move(id), std::move(list)};
  for (int version : {1, 2}) {
    SCOPED_TRACE("v" + std::to_string(version) + " pages");
    const std::vector<uint8_t> bytes = write(schema, batch, version, false, true);
    auto file = FileReader::open(io::memory_input(bytes));
    const auto& meta = file->metadata();
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      const ChunkBytes ids = fetch_whole_chunk(file->input(), meta, g, 0);
      EXPECT_TRUE(index_from_page_headers(ids, file->name(), meta, g, schema.column(0)).has_value());
      const ChunkBytes chunk = fetch_whole_chunk(file->input(), meta, g, 1);
      const auto made = index_from_page_headers(chunk, file->name(), meta, g, schema.column(1));
      if (version == 1) {
        EXPECT_FALSE(made.has_value());  // a v1 page's rows are not in its header
        continue;
      }
      ASSERT_TRUE(made.has_value());
      expect_well_formed(*made, chunk, meta.row_groups[g].num_rows);
      const auto real = read_page_index(*file, g, 1);
      ASSERT_TRUE(real && real->column_index && real->offset_index);
      EXPECT_GT(real->offset_index->page_locations.size(), 1u);
      EXPECT_EQ(made->offset_index.page_locations, real->offset_index->page_locations);
      EXPECT_EQ(made->column_index.null_pages, real->column_index->null_pages);
      EXPECT_EQ(made->column_index.min_values, real->column_index->min_values);
      EXPECT_EQ(made->column_index.max_values, real->column_index->max_values);
      EXPECT_EQ(made->column_index.null_counts, real->column_index->null_counts);
    }
  }
}

// ---- hand-made and damaged chunks ----

// One row group of `rows` rows and columns a (INT64), s (STRING), u
// (UINT_32), whose chunks are the pages given, at file offset 4.
struct HandMade {
  Schema schema =
      make_schema({Field::int64("a"), Field::string("s"), Field::integer("u", 32, false), Field::float64("d")});
  format::FileMetaData meta;
  ChunkBytes chunk;
  std::string bytes;

  explicit HandMade(int64_t rows) {
    meta.num_rows = rows;
    meta.row_groups.resize(1);
    meta.row_groups[0].num_rows = rows;
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      format::ColumnChunk cc;
      auto& md = cc.meta_data.emplace();
      md.type = schema.column(c).type.physical;
      md.path_in_schema = schema.column(c).path;
      md.codec = format::CompressionCodec::SNAPPY;
      md.num_values = rows;
      md.data_page_offset = 4;
      meta.row_groups[0].columns.push_back(cc);
    }
  }
  void add(const format::PageHeader& h, size_t payload) {
    format::encode_thrift(h, bytes);
    bytes.append(payload, '\0');
  }
  void add_v1(int32_t values, std::optional<format::Statistics> st = std::nullopt) {
    format::PageHeader h;
    h.type = format::PageType::DATA_PAGE;
    h.compressed_page_size = h.uncompressed_page_size = 8;
    h.data_page_header.emplace().num_values = values;
    h.data_page_header->statistics = std::move(st);
    add(h, 8);
  }
  std::optional<SynthesizedPageIndex> index(size_t column) {
    for (auto& cc : meta.row_groups[0].columns)
      cc.meta_data->total_compressed_size = static_cast<int64_t>(bytes.size());
    auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    chunk = ChunkBytes{};
    chunk.segments.push_back({4, io::ByteRange::read(*input, 0, bytes.size())});
    auto out = index_from_page_headers(chunk, "hand-made", meta, 0, schema.column(column));
    if (out) expect_well_formed(*out, chunk, meta.row_groups[0].num_rows);
    return out;
  }
};

std::string plain64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }
std::string plain32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

format::Statistics stats(std::optional<std::string> min_value, std::optional<std::string> max_value,
                         std::optional<int64_t> nulls) {
  format::Statistics st;
  st.min_value = std::move(min_value);
  st.max_value = std::move(max_value);
  st.null_count = nulls;
  return st;
}

TEST(PageHeaderIndex, PagesWithoutStatisticsAllowEveryValue) {
  HandMade m(30);
  m.add_v1(10, stats("b", "c", 0));
  m.add_v1(10);  // no statistics: any string, nulls or not
  m.add_v1(10, stats(std::nullopt, std::nullopt, 10));
  const auto made = m.index(1);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->unbounded, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(made->column_index.null_pages, (std::vector<bool>{false, false, true}));
  EXPECT_FALSE(made->column_index.null_counts.has_value());  // page 1's is unknown
  const auto ranges = [&](const char* text) {
    const auto bound = filter::BoundFilter::bind(*filter::parse_filter(text), m.schema);
    int64_t pages = 0, pruned = 0;
    return page_header_ranges(
        bound, m.meta, m.schema, 0, [&](size_t c) { return c == 1 ? &m.chunk : nullptr; }, "hand-made", pages, pruned);
  };
  EXPECT_EQ(ranges("s = 'zzz'"), (std::vector<RowRange>{{10, 20}}));
  EXPECT_EQ(ranges("s = 'bb'"), (std::vector<RowRange>{{0, 20}}));
  EXPECT_EQ(ranges("s IS NULL"), (std::vector<RowRange>{{0, 30}}));
  EXPECT_EQ(ranges("s IS NOT NULL"), (std::vector<RowRange>{{0, 20}}));
  EXPECT_EQ(ranges("a = 1 OR s = 'zzz'"), (std::vector<RowRange>{{0, 30}}));  // a has no chunk at hand
}

TEST(PageHeaderIndex, LegacyBoundsOnlyWhereTheirOrderIsTheColumns) {
  auto legacy = [](std::string lo, std::string hi) {
    format::Statistics st;
    st.min = std::move(lo);
    st.max = std::move(hi);
    st.null_count = 0;
    return st;
  };
  // Signed INT64: the legacy order is the column's.
  HandMade a(20);
  a.add_v1(10, legacy(plain64(-5), plain64(5)));
  a.add_v1(10, legacy(plain64(6), plain64(9)));
  auto made = a.index(0);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->unbounded, (std::vector<bool>{false, false}));
  EXPECT_EQ(made->column_index.min_values[0], plain64(-5));
  // Strings and unsigned integers: legacy bounds were signed, so no bounds.
  HandMade s(20);
  s.add_v1(10, legacy("a", "b"));
  s.add_v1(10, legacy("c", "\xff"));
  made = s.index(1);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->unbounded, (std::vector<bool>{true, true}));
  HandMade u(20);
  u.add_v1(10, legacy(plain32(-1), plain32(3)));
  u.add_v1(10, legacy(plain32(4), plain32(9)));
  made = u.index(2);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->unbounded, (std::vector<bool>{true, true}));
  // min_value/max_value of an unsigned column are in its order.
  HandMade v(20);
  v.add_v1(10, stats(plain32(4), plain32(-1), 0));
  v.add_v1(10, stats("xx", plain32(9), 0));  // not an INT32: no bounds
  made = v.index(2);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(made->unbounded, (std::vector<bool>{false, true}));
}

TEST(PageHeaderIndex, DictionaryAndV2PagesAndNanCounts) {
  HandMade m(25);
  format::PageHeader dict;
  dict.type = format::PageType::DICTIONARY_PAGE;
  dict.compressed_page_size = dict.uncompressed_page_size = 16;
  dict.dictionary_page_header.emplace().num_values = 2;
  m.add(dict, 16);
  format::PageHeader v2;
  v2.type = format::PageType::DATA_PAGE_V2;
  v2.compressed_page_size = v2.uncompressed_page_size = 4;
  auto& h = v2.data_page_header_v2.emplace();
  h.num_values = h.num_rows = 15;
  h.num_nulls = 15;
  m.add(v2, 4);
  h.num_values = h.num_rows = 10;
  h.num_nulls = 2;
  double lo = -1, hi = 2;
  format::Statistics st = stats(std::string(reinterpret_cast<const char*>(&lo), 8),
                                std::string(reinterpret_cast<const char*>(&hi), 8), std::nullopt);
  st.nan_count = 0;
  h.statistics = st;
  m.add(v2, 4);
  const auto made = m.index(3);
  ASSERT_TRUE(made.has_value());
  ASSERT_EQ(made->offset_index.page_locations.size(), 2u);  // the dictionary page is not a data page
  EXPECT_GT(made->offset_index.page_locations[0].offset, 4);
  EXPECT_EQ(made->offset_index.page_locations[1].first_row_index, 15);
  EXPECT_EQ(made->column_index.null_pages, (std::vector<bool>{true, false}));
  EXPECT_EQ(made->column_index.null_counts, (std::vector<int64_t>{15, 2}));  // num_nulls of v2 headers
  EXPECT_FALSE(made->column_index.nan_counts.has_value());                   // page 0 has none
}

TEST(PageHeaderIndex, BadCountsGiveNoIndex) {
  {
    HandMade m(20);
    m.add_v1(10, stats(plain64(1), plain64(2), 0));
    m.add_v1(-5, stats(plain64(1), plain64(2), 0));
    EXPECT_FALSE(m.index(0).has_value());
  }
  {
    HandMade m(20);  // 15 + 15 rows in a row group of 20
    m.add_v1(15, stats(plain64(1), plain64(2), 0));
    m.add_v1(15, stats(plain64(1), plain64(2), 0));
    EXPECT_FALSE(m.index(0).has_value());
  }
  {
    HandMade m(20);  // 10 rows of 20: the chunk ends early
    m.add_v1(10, stats(plain64(1), plain64(2), 0));
    EXPECT_FALSE(m.index(0).has_value());
  }
  {
    HandMade m(20);  // a v2 page of no rows
    format::PageHeader v2;
    v2.type = format::PageType::DATA_PAGE_V2;
    v2.compressed_page_size = v2.uncompressed_page_size = 0;
    v2.data_page_header_v2.emplace().statistics = stats(plain64(1), plain64(2), 0);
    m.add(v2, 0);
    m.add_v1(20, stats(plain64(1), plain64(2), 0));
    EXPECT_FALSE(m.index(0).has_value());
  }
  {
    HandMade m(20);  // no statistics anywhere: nothing to prune by
    m.add_v1(10);
    m.add_v1(10);
    EXPECT_FALSE(m.index(0).has_value());
  }
  {
    HandMade m(20);  // a header claiming more bytes than the chunk has
    m.add_v1(10, stats(plain64(1), plain64(2), 0));
    format::PageHeader h;
    h.type = format::PageType::DATA_PAGE;
    h.compressed_page_size = h.uncompressed_page_size = 1 << 30;
    h.data_page_header.emplace().num_values = 10;
    m.add(h, 8);
    try {
      m.index(0);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("hand-made: column a, row group 0"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("past the end of the column chunk"), std::string::npos) << e.what();
    }
    // page_header_ranges does without it.
    const auto bound = filter::BoundFilter::bind(*filter::parse_filter("a = 7"), m.schema);
    int64_t pages = 0, pruned = 0;
    EXPECT_EQ(page_header_ranges(
                  bound, m.meta, m.schema, 0, [&](size_t) { return &m.chunk; }, "hand-made", pages, pruned),
              (std::vector<RowRange>{{0, 20}}));
    EXPECT_EQ(pages, 0);
  }
}

TEST(PageHeaderIndex, DamagedChunksGiveAnErrorOrNoIndex) {
  const Data data = make_data(false);
  const std::vector<uint8_t> bytes = write_data(data, 1, true, false);
  auto file = FileReader::open(io::memory_input(bytes));
  const auto& meta = file->metadata();
  const int64_t num_rows = meta.row_groups[0].num_rows;
  std::mt19937_64 rng(3);
  int64_t errors = 0, none = 0, made = 0;
  for (size_t c = 0; c < file->schema().num_columns(); ++c) {
    const ChunkBytes whole = fetch_whole_chunk(file->input(), meta, 0, c);
    const std::vector<uint8_t> original(whole.segments[0].bytes.data(),
                                        whole.segments[0].bytes.data() + whole.segments[0].bytes.size());
    auto attempt = [&](std::vector<uint8_t> damaged) {
      auto input = io::buffer_input(std::move(damaged));
      ChunkBytes chunk;
      chunk.segments.push_back({whole.segments[0].offset, io::ByteRange::read(*input, 0, input->size())});
      try {
        const auto index = index_from_page_headers(chunk, file->name(), meta, 0, file->schema().column(c));
        if (index) {
          ++made;
          expect_well_formed(*index, chunk, num_rows);
        } else {
          ++none;
        }
      } catch (const Error&) {
        ++errors;
      }
    };
    for (size_t keep = 0; keep < original.size(); keep += 1 + original.size() / 97)
      attempt(std::vector<uint8_t>(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(keep)));
    for (int n = 0; n < 300; ++n) {
      std::vector<uint8_t> damaged = original;
      for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips)
        damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      attempt(std::move(damaged));
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(none, 0);
  EXPECT_GT(made, 0);  // flips in page payloads leave the headers whole
}

// ---- the corpus ----

// Every chunk of every corpus file: an index, nothing, or an error (files
// that do not open are another test's business). Where the writer also
// wrote a page index, the page locations agree.
TEST(PageHeaderIndex, CorpusChunks) {
  std::map<std::string, std::pair<int, int>> synthesized;  // file -> (indexes, chunks)
  for (const auto& path : testing::parquet_files(testing::corpus_dir())) {
    std::unique_ptr<FileReader> file;
    try {
      file = FileReader::open(path.string());
    } catch (const Error&) {
      continue;
    }
    const auto& meta = file->metadata();
    auto& [indexes, chunks] = synthesized[path.filename().string()];
    for (size_t g = 0; g < meta.row_groups.size(); ++g) {
      for (size_t c = 0; c < file->schema().num_columns(); ++c) {
        ++chunks;
        try {
          const ChunkBytes chunk = fetch_whole_chunk(file->input(), meta, g, c);
          const auto made = index_from_page_headers(chunk, file->name(), meta, g, file->schema().column(c));
          if (!made) continue;
          ++indexes;
          SCOPED_TRACE(path.string() + ": row group " + std::to_string(g) + ", column " + std::to_string(c));
          expect_well_formed(*made, chunk, meta.row_groups[g].num_rows);
          std::optional<PageIndex> real;
          try {
            real = read_page_index(*file, g, c);
          } catch (const Error&) {
          }
          if (real && real->offset_index) {
            EXPECT_EQ(made->offset_index.page_locations, real->offset_index->page_locations);
          }
        } catch (const Error&) {
        }
      }
    }
  }
  // parquet-mr (v2 pages), Arrow C++ and arrow-rs files with page header
  // statistics; repeated columns with v1 pages have none.
  EXPECT_EQ(synthesized["delta_binary_packed.parquet"], std::make_pair(66, 66));
  EXPECT_EQ(synthesized["nested_structs.rust.parquet"], std::make_pair(216, 216));
  EXPECT_EQ(synthesized["byte_stream_split_extended.gzip.parquet"], std::make_pair(14, 14));
  EXPECT_EQ(synthesized["binary_truncated_min_max.parquet"], std::make_pair(6, 6));
  EXPECT_EQ(synthesized["list_columns.parquet"].first, 0);
  EXPECT_EQ(synthesized["repeated_primitive_no_list.parquet"].first, 0);
  EXPECT_GT(synthesized["nullable.impala.parquet"].first, 0);
  EXPECT_LT(synthesized["nullable.impala.parquet"].first, synthesized["nullable.impala.parquet"].second);
  EXPECT_EQ(synthesized["alltypes_plain.parquet"].first, 0);  // no page statistics
}

// The literal for a physical value of a column whose literals are plain
// numbers or strings; nullopt for the others (dates, decimals, ...).
std::optional<Literal> corpus_literal(const ColumnDescriptor& column, const filter::PhysicalValue& v) {
  const auto& logical = column.type.logical;
  if (logical.DATE || logical.TIME || logical.TIMESTAMP || logical.DECIMAL || logical.FLOAT16 ||
      column.type.converted == format::ConvertedType::DECIMAL)
    return std::nullopt;
  switch (filter::value_order(column)) {
    case filter::ValueOrder::kInt32:
    case filter::ValueOrder::kInt64:
      return Literal::number(std::to_string(v.integer));
    case filter::ValueOrder::kUInt32:
      return Literal::number(std::to_string(static_cast<uint32_t>(v.integer)));
    case filter::ValueOrder::kUInt64:
      return Literal::number(std::to_string(static_cast<uint64_t>(v.integer)));
    case filter::ValueOrder::kFloat:
    case filter::ValueOrder::kDouble: {
      if (std::isnan(v.real)) return Literal::number("NaN");
      if (std::isinf(v.real)) return Literal::number(v.real > 0 ? "Infinity" : "-Infinity");
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", v.real);
      return Literal::number(text);
    }
    case filter::ValueOrder::kBytes:
      if (column.type.physical != format::Type::BYTE_ARRAY) return std::nullopt;
      return logical.STRING ? Literal::string(v.bytes) : Literal::binary(v.bytes);
    default:
      return std::nullopt;
  }
}

// Random comparisons with the bounds in the corpus's page headers (and
// values beside them) against the reader's own row-by-row evaluation with
// pruning off: the synthesized ranges keep every row it returns.
TEST(PageHeaderIndex, CorpusRangesKeepEveryMatchingRow) {
  std::mt19937_64 rng(5);
  int files = 0, predicates = 0;
  for (const auto& path : testing::parquet_files(testing::corpus_dir() / "data")) {
    std::unique_ptr<FileReader> file;
    try {
      file = FileReader::open(path.string());
    } catch (const Error&) {
      continue;
    }
    const auto& meta = file->metadata();
    const Schema& schema = file->schema();
    // Per filterable column: its literals and row group chunks.
    struct Column {
      size_t index;
      std::vector<Literal> literals;
    };
    std::vector<Column> columns;
    std::vector<std::map<size_t, ChunkBytes>> chunks(meta.row_groups.size());
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      const ColumnDescriptor& column = schema.column(c);
      if (column.max_repetition_level > 0) continue;
      Column entry{c, {}};
      for (size_t g = 0; g < meta.row_groups.size(); ++g) {
        try {
          ChunkBytes chunk = fetch_whole_chunk(file->input(), meta, g, c);
          const auto made = index_from_page_headers(chunk, file->name(), meta, g, column);
          if (!made) continue;
          for (size_t p = 0; p < made->unbounded.size(); ++p) {
            for (const std::string* bound : {&made->column_index.min_values[p], &made->column_index.max_values[p]}) {
              filter::PhysicalValue v;
              if (made->unbounded[p] || made->column_index.null_pages[p] ||
                  !filter::from_plain_bytes(column, *bound, v))
                continue;
              for (int delta : {-1, 0, 1}) {
                filter::PhysicalValue w = v;
                w.integer = static_cast<int64_t>(static_cast<uint64_t>(w.integer) + static_cast<uint64_t>(delta));
                w.real += delta;
                if (delta != 0 && !w.bytes.empty())
                  w.bytes = delta < 0 ? w.bytes.substr(0, w.bytes.size() - 1) : w.bytes + "\x01";
                if (auto l = corpus_literal(column, w)) entry.literals.push_back(*l);
              }
            }
          }
          chunks[g].emplace(c, std::move(chunk));
        } catch (const Error&) {
        }
      }
      if (!entry.literals.empty()) columns.push_back(std::move(entry));
    }
    if (columns.empty()) continue;
    ++files;
    for (int n = 0; n < 40; ++n) {
      std::vector<ExpressionPtr> leaves;
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
        const Column& column = columns[rng() % columns.size()];
        const std::string name = schema.column(column.index).dotted_path();
        const Literal& l = column.literals[rng() % column.literals.size()];
        const size_t kind = rng() % 8;
        if (kind == 0) {
          leaves.push_back(Expression::is_null(name));
        } else if (kind == 1) {
          leaves.push_back(Expression::is_not_null(name));
        } else {
          leaves.push_back(Expression::compare(name, static_cast<CompareOp>(rng() % 6), l));
        }
      }
      ExpressionPtr expr = rng() % 2 ? Expression::all_of(leaves) : Expression::any_of(leaves);
      if (rng() % 4 == 0) expr = Expression::negate(expr);
      SCOPED_TRACE(path.string() + ": " + expr->to_string());
      std::optional<filter::BoundFilter> bound;
      try {
        bound = filter::BoundFilter::bind(*expr, schema);
      } catch (const Error&) {
        continue;  // a literal out of its column's range
      }
      ReadOptions options;
      options.filter = expr;
      options.columns = {schema.column(columns[0].index).dotted_path()};
      options.row_index_column = "__row";
      options.pruning = PruningOptions{false, false, false, false};
      std::vector<int64_t> matches;
      try {
        auto source = read_batches(*file, options);
        RecordBatch batch;
        while (source->next(batch)) {
          const Array& rows = batch.columns.back();
          for (int64_t i = 0; i < batch.num_rows; ++i) matches.push_back(rows.values.data_as<int64_t>()[i]);
        }
      } catch (const Error&) {
        continue;  // files another test shows to be unreadable
      }
      ++predicates;
      int64_t first = 0;
      size_t m = 0;
      for (size_t g = 0; g < meta.row_groups.size(); ++g) {
        int64_t pages = 0, pruned = 0;
        const auto ranges = page_header_ranges(
            *bound, meta, schema, g,
            [&](size_t c) {
              auto at = chunks[g].find(c);
              return at == chunks[g].end() ? nullptr : &at->second;
            },
            file->name(), pages, pruned);
        const int64_t end = first + meta.row_groups[g].num_rows;
        for (; m < matches.size() && matches[m] < end; ++m)
          ASSERT_TRUE(contains(ranges, matches[m] - first)) << "row " << matches[m] << " matches but is pruned";
        first = end;
      }
    }
  }
  EXPECT_GE(files, 8);
  EXPECT_GE(predicates, 300);
}

}  // namespace
}  // namespace parq
