// Reads with a filter, a row selection, an offset and a limit give exactly
// the rows a full read and a plain row-by-row evaluation give, whether the
// plan prunes or not; and pruning happens.
//
// The reference here evaluates the Expression tree itself on the rows of a
// full read (three-valued, NOT not pushed down, no vector loops, no
// statistics), so it shares only literal binding and the value order with
// the code under test; the differential test against DuckDB checks those.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "../file_bytes.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/filter/literal.h"
#include "parq/schema/field.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

using filter::CompareOp;
using filter::Expression;
using filter::ExpressionPtr;
using filter::Literal;

constexpr int64_t kRows = 6000;

void set_bit(Buffer& b, int64_t i) { b.data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }

// A nullable leaf array of fixed-width values.
template <class T>
Array fixed_array(const std::string& name, const ValueType& type, const std::vector<std::optional<T>>& v) {
  Array a;
  a.name = name;
  a.type = type;
  a.length = static_cast<int64_t>(v.size());
  a.validity.resize((v.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  for (size_t i = 0; i < v.size(); ++i) {
    T x = v[i].value_or(T{});
    a.values.append(&x, sizeof(T));
    if (v[i]) {
      set_bit(a.validity, static_cast<int64_t>(i));
    } else {
      ++a.null_count;
    }
  }
  return a;
}

Array bool_array(const std::string& name, const ValueType& type, const std::vector<std::optional<bool>>& v) {
  Array a;
  a.name = name;
  a.type = type;
  a.length = static_cast<int64_t>(v.size());
  a.validity.resize((v.size() + 7) / 8);
  a.values.resize((v.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  std::memset(a.values.data(), 0, a.values.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i]) {
      set_bit(a.validity, static_cast<int64_t>(i));
      if (*v[i]) set_bit(a.values, static_cast<int64_t>(i));
    } else {
      ++a.null_count;
    }
  }
  return a;
}

Array string_array(const std::string& name, const ValueType& type, const std::vector<std::optional<std::string>>& v) {
  Array a;
  a.name = name;
  a.type = type;
  a.length = static_cast<int64_t>(v.size());
  a.validity.resize((v.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  a.offsets.append_value<int32_t>(0);
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i]) {
      a.values.append(*v[i]);
      set_bit(a.validity, static_cast<int64_t>(i));
    } else {
      ++a.null_count;
    }
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  return a;
}

const std::vector<std::string> kStrings = {"",
                                           "a",
                                           "ab",
                                           "abc",
                                           "abd",
                                           "b",
                                           "ba",
                                           "zz",
                                           "\xff\xff",
                                           "\xffz",
                                           std::string(70, 'x') + "1",
                                           std::string(70, 'x') + "2",
                                           std::string(80, 'y')};
const std::vector<double> kDoubles = {-1.5, -0.0, 0.0, 0.5, 2.25, 100, std::nan(""), INFINITY, -INFINITY};

struct TestFile {
  Schema schema;
  std::vector<uint8_t> bytes;
};

TestFile make_file(uint32_t seed, int page_version, bool dictionary) {
  std::mt19937 rng(seed);
  auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  using parq::Field;
  Schema schema = make_schema({
      Field::int64("id").required(),
      Field::int32("k"),
      Field::float64("d"),
      Field::string("s"),
      Field::date("day"),
      Field::decimal("price", 12, 2),
      Field::boolean("flag"),
      Field::integer("u", 32, false),
      Field::group("g", {Field::int32("x"), Field::string("y")}),
  });
  auto type = [&](const char* path) { return schema.column(static_cast<size_t>(schema.find_column(path))).type; };
  std::vector<std::optional<int64_t>> id, price;
  std::vector<std::optional<int32_t>> k, day, u, x;
  std::vector<std::optional<double>> d;
  std::vector<std::optional<std::string>> s, y;
  std::vector<std::optional<bool>> flag;
  std::vector<bool> g_valid;
  for (int64_t i = 0; i < kRows; ++i) {
    id.push_back(i);
    k.push_back(chance(10) ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(rng() % 101) - 50));
    d.push_back(chance(10)   ? std::nullopt
                : chance(50) ? std::optional<double>(kDoubles[rng() % kDoubles.size()])
                             : std::optional<double>(static_cast<int>(rng() % 400) / 4.0 - 50));
    s.push_back(chance(10) ? std::nullopt : std::optional<std::string>(kStrings[rng() % kStrings.size()]));
    // Sorted by id with some noise, so that statistics prune it.
    day.push_back(chance(5) ? std::nullopt : std::optional<int32_t>(18000 + static_cast<int32_t>(i / 50)));
    price.push_back(chance(10) ? std::nullopt : std::optional<int64_t>(static_cast<int64_t>(rng() % 200001) - 100000));
    flag.push_back(chance(10) ? std::nullopt : std::optional<bool>(chance(30)));
    u.push_back(chance(10) ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(rng() % 8 * 0x20000001u)));
    g_valid.push_back(!chance(10));
    x.push_back(!g_valid.back() || chance(10) ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(i % 97)));
    y.push_back(!g_valid.back() || chance(10) ? std::nullopt : std::optional<std::string>(kStrings[rng() % 5]));
  }
  RecordBatch batch;
  batch.num_rows = kRows;
  batch.columns.push_back(fixed_array("id", type("id"), id));
  batch.columns.back().validity.clear();
  batch.columns.push_back(fixed_array("k", type("k"), k));
  batch.columns.push_back(fixed_array("d", type("d"), d));
  batch.columns.push_back(string_array("s", type("s"), s));
  batch.columns.push_back(fixed_array("day", type("day"), day));
  batch.columns.push_back(fixed_array("price", type("price"), price));
  batch.columns.push_back(bool_array("flag", type("flag"), flag));
  batch.columns.push_back(fixed_array("u", type("u"), u));
  Array g;
  g.kind = ArrayKind::kStruct;
  g.name = "g";
  g.length = kRows;
  g.validity.resize((kRows + 7) / 8);
  std::memset(g.validity.data(), 0, g.validity.size());
  for (int64_t i = 0; i < kRows; ++i) {
    if (g_valid[static_cast<size_t>(i)]) {
      set_bit(g.validity, i);
    } else {
      ++g.null_count;
    }
  }
  g.children.push_back(fixed_array("x", type("g.x"), x));
  g.children.push_back(string_array("y", type("g.y"), y));
  batch.columns.push_back(std::move(g));

  WriteOptions options;
  options.row_group_rows = 700;
  options.page_rows = 100;
  options.page_version = page_version;
  options.dictionary = dictionary;
  for (const char* c : {"s", "k", "day", "g.y"}) options.columns[c].bloom_filter = BloomFilterOptions{};
  return {schema, testing::file_bytes(schema, batch, options)};
}

// ---------------------------------------------------------------------------
// The reference: the expression evaluated row by row on a full read.

enum Truth { kFalse = 0, kUnknown = 1, kTrue = 2 };

struct Reference {
  const Schema& schema;
  const std::vector<RecordBatch>& batches;

  const Array* find(const std::vector<Array>& arrays, const std::string& name) const {
    for (const Array& a : arrays)
      if (a.name == name) return &a;
    return nullptr;
  }

  // The value of a leaf at a row; nullopt when it or a parent is null.
  std::optional<filter::PhysicalValue> value(const std::string& path, int64_t row) const {
    size_t b = 0;
    while (row >= batches[b].num_rows) row -= batches[b++].num_rows;
    const std::vector<Array>* level = &batches[b].columns;
    const Array* a = nullptr;
    size_t start = 0;
    for (;;) {
      const size_t dot = path.find('.', start);
      a = find(*level, path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (a == nullptr || !a->is_valid(row)) return std::nullopt;
      if (dot == std::string::npos) break;
      level = &a->children;
      start = dot + 1;
    }
    filter::PhysicalValue v;
    switch (a->type.physical) {
      case format::Type::BOOLEAN:
        v.integer = a->values.data()[row >> 3] >> (row & 7) & 1;
        break;
      case format::Type::INT32:
        v.integer = a->values.data_as<int32_t>()[row];
        break;
      case format::Type::INT64:
        v.integer = a->values.data_as<int64_t>()[row];
        break;
      case format::Type::DOUBLE:
        v.real = a->values.data_as<double>()[row];
        break;
      case format::Type::BYTE_ARRAY: {
        const int32_t* o = a->offsets_data();
        v.bytes.assign(reinterpret_cast<const char*>(a->values.data()) + o[row],
                       static_cast<size_t>(o[row + 1] - o[row]));
        break;
      }
      default:
        ADD_FAILURE() << "reference: type not covered";
    }
    return v;
  }

  Truth eval(const Expression& e, int64_t row) const {
    using K = Expression::Kind;
    switch (e.kind()) {
      case K::kAnd: {
        Truth t = kTrue;
        for (const auto& c : e.children()) t = std::min(t, eval(*c, row));
        return t;
      }
      case K::kOr: {
        Truth t = kFalse;
        for (const auto& c : e.children()) t = std::max(t, eval(*c, row));
        return t;
      }
      case K::kNot:
        return static_cast<Truth>(2 - eval(*e.children()[0], row));
      default:
        break;
    }
    const ColumnDescriptor& column = schema.column(static_cast<size_t>(schema.find_column(e.column())));
    const auto v = value(e.column(), row);
    if (e.kind() == K::kIsNull) return v ? kFalse : kTrue;
    if (!v) return kUnknown;
    const filter::ValueOrder order = filter::value_order(column);
    auto cmp = [&](const Literal& l) { return filter::compare_values(order, *v, filter::bind_literal(column, l)); };
    switch (e.kind()) {
      case K::kCompare: {
        if (e.literals()[0].kind == Literal::Kind::kNull) return kUnknown;
        const int c = cmp(e.literals()[0]);
        bool r = false;
        switch (e.op()) {
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
        return r ? kTrue : kFalse;
      }
      case K::kIn: {
        Truth t = kFalse;
        for (const Literal& l : e.literals()) {
          if (l.kind == Literal::Kind::kNull) {
            t = std::max(t, kUnknown);
          } else if (cmp(l) == 0) {
            return kTrue;
          }
        }
        return t;
      }
      case K::kStartsWith:
        return v->bytes.compare(0, e.literals()[0].text.size(), e.literals()[0].text) == 0 &&
                       v->bytes.size() >= e.literals()[0].text.size()
                   ? kTrue
                   : kFalse;
      default:
        return kUnknown;
    }
  }
};

// ---------------------------------------------------------------------------
// Random predicates over the test file's columns.

struct PredicateMaker {
  std::mt19937& rng;

  Literal number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return Literal::number(buf);
  }

  Literal literal_for(const std::string& column) {
    if (column == "id") return Literal::number(std::to_string(static_cast<int64_t>(rng() % (kRows + 200)) - 100));
    if (column == "k" || column == "g.x") return Literal::number(std::to_string(static_cast<int>(rng() % 121) - 60));
    if (column == "d") {
      const double v = rng() % 3 == 0 ? kDoubles[rng() % kDoubles.size()] : static_cast<int>(rng() % 440) / 4.0 - 55;
      if (std::isnan(v)) return Literal::number("NaN");
      if (std::isinf(v)) return Literal::number(v > 0 ? "Infinity" : "-Infinity");
      return number(v);
    }
    if (column == "s" || column == "g.y") {
      if (rng() % 4 == 0) return Literal::string(kStrings[rng() % kStrings.size()].substr(0, rng() % 3));
      return Literal::string(kStrings[rng() % kStrings.size()]);
    }
    if (column == "day") {
      const int days = 18000 + static_cast<int>(rng() % 140) - 10;
      const int64_t unix_day = days;
      // civil date of unix_day, enough for 2019-2020
      std::time_t t = static_cast<std::time_t>(unix_day * 86400);
      std::tm tm{};
      gmtime_r(&t, &tm);
      char buf[16];
      std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
      return Literal::date(buf);
    }
    if (column == "price") {
      const int64_t cents = static_cast<int64_t>(rng() % 240001) - 120000;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%lld.%02lld", cents < 0 ? "-" : "",
                    static_cast<long long>(std::llabs(cents) / 100), static_cast<long long>(std::llabs(cents) % 100));
      return Literal::number(buf);
    }
    if (column == "flag") return Literal::boolean(rng() % 2 == 0);
    if (column == "u")
      return Literal::number(std::to_string(static_cast<uint64_t>(rng() % 8) * 0x20000001u + rng() % 2));
    return Literal::null();
  }

  ExpressionPtr leaf() {
    static const char* const kColumns[] = {"id", "k", "d", "s", "day", "price", "flag", "u", "g.x", "g.y"};
    const std::string column = kColumns[rng() % std::size(kColumns)];
    const bool is_string = column == "s" || column == "g.y";
    switch (rng() % (is_string ? 6 : 5)) {
      case 0:
        return Expression::is_null(column);
      case 1: {
        std::vector<Literal> values;
        for (int n = 1 + static_cast<int>(rng() % 3); n > 0; --n) values.push_back(literal_for(column));
        if (rng() % 8 == 0) values.push_back(Literal::null());
        return Expression::in(column, values);
      }
      case 5:
        return Expression::starts_with(column, kStrings[rng() % kStrings.size()].substr(0, 1 + rng() % 2));
      default: {
        const CompareOp op = static_cast<CompareOp>(rng() % 6);
        return Expression::compare(column, op, rng() % 40 == 0 ? Literal::null() : literal_for(column));
      }
    }
  }

  ExpressionPtr tree(int depth) {
    if (depth == 0 || rng() % 3 == 0) return rng() % 5 == 0 ? Expression::negate(leaf()) : leaf();
    std::vector<ExpressionPtr> parts;
    for (int n = 2 + static_cast<int>(rng() % 2); n > 0; --n) parts.push_back(tree(depth - 1));
    ExpressionPtr e = rng() % 2 ? Expression::all_of(parts) : Expression::any_of(parts);
    return rng() % 6 == 0 ? Expression::negate(e) : e;
  }
};

std::vector<int64_t> ids_of(const FileReader& file, ReadOptions options, ReadStats* stats = nullptr) {
  options.columns = {"id"};
  options.stats = stats;
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::vector<int64_t> ids;
  while (source->next(batch)) {
    EXPECT_EQ(batch.columns[0].length, batch.num_rows);
    const int64_t* v = batch.columns[0].values.data_as<int64_t>();
    ids.insert(ids.end(), v, v + batch.num_rows);
  }
  return ids;
}

TEST(FilteredRead, RandomPredicatesGiveTheReferenceRowsWithAndWithoutPruning) {
  int64_t pruned_groups = 0, by_dictionary = 0, by_bloom = 0, pages_pruned = 0, cases = 0, empty = 0, everything = 0;
  for (auto [seed, version, dictionary] :
       {std::tuple{1u, 1, true}, std::tuple{2u, 2, false}, std::tuple{3u, 2, true}}) {
    const TestFile tf = make_file(seed, version, dictionary);
    auto file = FileReader::open(io::memory_input(tf.bytes));
    ASSERT_GE(file->metadata().row_groups.size(), 8u);
    auto full = read_batches(*file);
    std::vector<RecordBatch> batches(1);
    int64_t total = 0;
    while (full->next(batches.back())) {
      total += batches.back().num_rows;
      batches.emplace_back();
    }
    ASSERT_EQ(total, kRows);
    const Reference reference{file->schema(), batches};
    std::vector<std::string> lines;  // each row's canonical text
    for (const RecordBatch& b : batches) {
      std::string text;
      text::RowJsonWriter(b).append_rows(text, 0, b.num_rows);
      for (size_t at = 0; at < text.size();) {
        const size_t end = text.find('\n', at);
        lines.push_back(text.substr(at, end - at + 1));
        at = end + 1;
      }
    }
    ASSERT_EQ(lines.size(), static_cast<size_t>(kRows));
    std::mt19937 rng(seed * 7919);
    PredicateMaker maker{rng};
    for (int trial = 0; trial < 150; ++trial) {
      ExpressionPtr e = maker.tree(3);
      std::vector<int64_t> expected;
      for (int64_t r = 0; r < kRows; ++r)
        if (reference.eval(*e, r) == kTrue) expected.push_back(r);
      ReadOptions options;
      options.filter = e;
      options.batch_rows = 1 + static_cast<int64_t>(rng() % 900);
      ReadStats stats;
      std::vector<int64_t> got;
      try {
        got = ids_of(*file, options, &stats);
      } catch (const Error& err) {
        ADD_FAILURE() << e->to_string() << ": " << err.what();
        continue;
      }
      ASSERT_EQ(got, expected) << e->to_string();
      EXPECT_EQ(stats.rows_returned, static_cast<int64_t>(expected.size()));
      EXPECT_EQ(stats.rows_decoded + stats.rows_pruned_by_row_groups + stats.rows_pruned_by_pages, kRows)
          << e->to_string();
      ReadOptions unpruned = options;
      unpruned.pruning = PruningOptions{false, false, false, false};
      ASSERT_EQ(ids_of(*file, unpruned), expected) << e->to_string();
      // The text form parses back to the same rows.
      ReadOptions reparsed = options;
      reparsed.filter = filter::parse_filter(e->to_string());
      ASSERT_EQ(ids_of(*file, reparsed), expected) << e->to_string();
      if (trial % 4 == 0) {
        // Every column: those the filter reads and those read after its
        // verdict for the rows it keeps.
        std::string want, got_text;
        for (int64_t r : expected) want += lines[static_cast<size_t>(r)];
        auto source = read_batches(*file, options);
        RecordBatch b;
        while (source->next(b)) text::RowJsonWriter(b).append_rows(got_text, 0, b.num_rows);
        ASSERT_EQ(got_text, want) << e->to_string();
      }
      if (trial % 10 == 0) {
        ReadOptions threaded = options;
        threaded.threads = 2;
        ASSERT_EQ(ids_of(*file, threaded), expected) << e->to_string();
      }
      pruned_groups += stats.row_groups_pruned_by_statistics;
      by_dictionary += stats.row_groups_pruned_by_dictionary;
      by_bloom += stats.row_groups_pruned_by_bloom_filter;
      pages_pruned += stats.pages_pruned_by_index;
      ++cases;
      empty += expected.empty();
      everything += expected.size() == static_cast<size_t>(kRows);
    }
  }
  // The cases exercise pruning and both extremes.
  EXPECT_GT(pruned_groups, 100);
  EXPECT_GT(by_dictionary, 10);
  EXPECT_GT(by_bloom, 0);  // statistics and dictionaries catch most first
  EXPECT_GT(pages_pruned, 100);
  EXPECT_GT(empty, 10);
  EXPECT_GT(cases - empty - everything, 200);
}

TEST(FilteredRead, RowSelectionReadsOnlyItsRanges) {
  const TestFile tf = make_file(9, 1, true);
  auto file = FileReader::open(io::memory_input(tf.bytes));
  ReadOptions options;
  options.has_row_selection = true;
  options.row_selection = {{10, 20}, {650, 720}, {5990, 7000}, {15, 30}};
  options.batch_rows = 7;
  std::vector<int64_t> expected;
  for (int64_t r = 10; r < 30; ++r) expected.push_back(r);
  for (int64_t r = 650; r < 720; ++r) expected.push_back(r);
  for (int64_t r = 5990; r < kRows; ++r) expected.push_back(r);
  ReadStats stats;
  EXPECT_EQ(ids_of(*file, options, &stats), expected);
  EXPECT_EQ(stats.row_groups_pruned_by_selection, static_cast<int64_t>(file->metadata().row_groups.size()) - 3);
  EXPECT_EQ(stats.rows_decoded, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(stats.rows_pruned_by_selection, kRows - static_cast<int64_t>(expected.size()));

  // The selection applies before the filter.
  options.filter = filter::parse_filter("id >= 15 AND id < 700");
  std::vector<int64_t> both;
  for (int64_t r : expected)
    if (r >= 15 && r < 700) both.push_back(r);
  EXPECT_EQ(ids_of(*file, options), both);
}

TEST(FilteredRead, OffsetAndLimitCountRowsThatPass) {
  const TestFile tf = make_file(10, 2, false);
  auto file = FileReader::open(io::memory_input(tf.bytes));
  ReadOptions options;
  options.filter = filter::parse_filter("id >= 100 AND id < 5000 AND (k IS NULL OR k > 0)");
  const std::vector<int64_t> all = ids_of(*file, options);
  ASSERT_GT(all.size(), 1000u);
  for (auto [offset, limit, batch] : {std::tuple{0L, 5L, 64L}, std::tuple{3L, 1000L, 100L}, std::tuple{900L, -1L, 33L},
                                      std::tuple{0L, 0L, 10L}, std::tuple{99999L, 10L, 10L}}) {
    ReadOptions o = options;
    o.offset = offset;
    o.limit = limit;
    o.batch_rows = batch;
    ReadStats stats;
    std::vector<int64_t> expected;
    for (size_t i = static_cast<size_t>(std::min<int64_t>(offset, static_cast<int64_t>(all.size())));
         i < all.size() && (limit < 0 || static_cast<int64_t>(expected.size()) < limit); ++i)
      expected.push_back(all[i]);
    EXPECT_EQ(ids_of(*file, o, &stats), expected) << offset << " " << limit;
    EXPECT_EQ(stats.rows_returned, static_cast<int64_t>(expected.size()));
  }
  // Without a filter the plan keeps only the rows the offset and limit
  // leave: nothing before them is decoded.
  for (auto [offset, limit] : {std::pair{0L, 10L}, std::pair{1390L, 20L}, std::pair{5995L, 100L}, std::pair{7000L, 5L},
                               std::pair{123L, -1L}}) {
    ReadOptions plain;
    plain.offset = offset;
    plain.limit = limit;
    plain.batch_rows = 64;
    plain.threads = limit < 0 ? 2 : 1;
    std::vector<int64_t> expected;
    for (int64_t r = offset; r < kRows && (limit < 0 || r < offset + limit); ++r) expected.push_back(r);
    ReadStats stats;
    EXPECT_EQ(ids_of(*file, plain, &stats), expected) << offset << " " << limit;
    EXPECT_EQ(stats.rows_decoded, static_cast<int64_t>(expected.size()));
  }
  // The row index column gives each row's position in the file.
  ReadOptions indexed = options;
  indexed.row_index_column = "row";
  indexed.columns = {"k"};
  indexed.limit = 50;
  auto source = read_batches(*file, indexed);
  RecordBatch batch;
  std::vector<int64_t> positions;
  while (source->next(batch)) {
    ASSERT_EQ(batch.columns.size(), 2u);
    EXPECT_EQ(batch.columns[1].name, "row");
    const int64_t* v = batch.columns[1].values.data_as<int64_t>();
    positions.insert(positions.end(), v, v + batch.num_rows);
  }
  EXPECT_EQ(positions, std::vector<int64_t>(all.begin(), all.begin() + 50));
  EXPECT_EQ(read_batches(*file, indexed)->prototype().columns.back().name, "row");
}

TEST(FilteredRead, BadOptionsAreErrors) {
  const TestFile tf = make_file(11, 1, true);
  auto file = FileReader::open(io::memory_input(tf.bytes));
  ReadOptions options;
  options.filter = filter::parse_filter("nothere = 1");
  EXPECT_THROW(read_batches(*file, options), Error);
  options.filter = filter::parse_filter("k = 'text'");
  try {
    read_batches(*file, options);
    ADD_FAILURE() << "bound a string to an INT32 column";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("column k"), std::string::npos) << e.what();
  }
  ReadOptions negative;
  negative.offset = -1;
  EXPECT_THROW(read_batches(*file, negative), Error);
  ReadOptions backwards;
  backwards.has_row_selection = true;
  backwards.row_selection = {{10, 5}};
  EXPECT_THROW(read_batches(*file, backwards), Error);
}

}  // namespace
}  // namespace parq
