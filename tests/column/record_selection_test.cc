// keep_records: levels and values of the kept records, for flat leaves with
// and without nulls, byte arrays, every fixed width, and records of lists
// spanning several entries.
#include "column/record_selection.h"

#include <gtest/gtest.h>

#include <random>

#include "parq/schema/schema_text.h"

namespace parq {
namespace {

const Schema& schema() {
  static const Schema s = parse_schema_text(R"(message m {
    required int64 a;
    optional int32 b;
    optional binary s (STRING);
    optional fixed_len_byte_array(3) f;
    optional group l (LIST) {
      repeated group list {
        optional binary element (STRING);
      }
    }
  })");
  return s;
}

const ColumnDescriptor& col(const char* path) {
  return schema().column(static_cast<size_t>(schema().find_column(path)));
}

void put_levels(Buffer& b, const std::vector<int16_t>& v) { b.assign(v.data(), v.size() * sizeof(int16_t)); }
std::vector<int16_t> levels(const Buffer& b) {
  return std::vector<int16_t>(b.data_as<int16_t>(), b.data_as<int16_t>() + b.size() / 2);
}

TEST(KeepRecords, FlatRequiredFixedWidth) {
  LeafBatch batch;
  for (int64_t v = 0; v < 100; ++v) batch.values.fixed.append_value(v * 10);
  batch.values.count = 100;
  batch.num_entries = 100;
  std::vector<uint8_t> keep(100);
  std::vector<int64_t> expected;
  for (int i = 0; i < 100; ++i) {
    keep[i] = i % 3 == 0 || i > 90;
    if (keep[i]) expected.push_back(i * 10);
  }
  keep_records(batch, col("a"), keep.data(), 100);
  EXPECT_EQ(batch.num_entries, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(batch.values.count, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(std::vector<int64_t>(batch.values.fixed.data_as<int64_t>(),
                                 batch.values.fixed.data_as<int64_t>() + expected.size()),
            expected);
}

TEST(KeepRecords, NullableValuesAndByteArrays) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 300);
    LeafBatch ints, strings, fixed;
    std::vector<int16_t> def(static_cast<size_t>(n));
    std::vector<uint8_t> keep(static_cast<size_t>(n));
    std::vector<int32_t> want_ints;
    std::vector<std::string> want_strings, want_fixed;
    std::vector<int16_t> want_def;
    for (int i = 0; i < n; ++i) {
      def[i] = rng() % 4 != 0;
      keep[i] = trial % 5 == 0 ? 1 : rng() % 3 != 0;
      if (def[i]) {
        ints.values.fixed.append_value(i);
        std::string s(rng() % 20, static_cast<char>('a' + i % 26));
        strings.values.bytes.append(s);
        std::string f = {static_cast<char>(i), static_cast<char>(i >> 8), 'z'};
        fixed.values.fixed.append(f);
        if (keep[i]) {
          want_ints.push_back(i);
          want_strings.push_back(s);
          want_fixed.push_back(f);
        }
      }
      if (keep[i]) want_def.push_back(def[i]);
    }
    for (LeafBatch* b : {&ints, &strings, &fixed}) {
      put_levels(b->def, def);
      b->num_entries = n;
      b->values.count = static_cast<int64_t>(std::count(def.begin(), def.end(), 1));
    }
    keep_records(ints, col("b"), keep.data(), n);
    keep_records(strings, col("s"), keep.data(), n);
    keep_records(fixed, col("f"), keep.data(), n);
    for (LeafBatch* b : {&ints, &strings, &fixed}) {
      EXPECT_EQ(levels(b->def), want_def);
      EXPECT_EQ(b->values.count, static_cast<int64_t>(want_ints.size()));
    }
    ASSERT_EQ(ints.values.fixed.size(), want_ints.size() * 4);
    for (size_t j = 0; j < want_ints.size(); ++j) {
      EXPECT_EQ(ints.values.fixed.data_as<int32_t>()[j], want_ints[j]);
      EXPECT_EQ(strings.values.bytes.value(j), want_strings[j]);
      EXPECT_EQ(fixed.values.fixed.view().substr(j * 3, 3), want_fixed[j]);
    }
    ASSERT_EQ(strings.values.bytes.size(), want_strings.size());
  }
}

TEST(KeepRecords, ListsKeepWholeRecords) {
  // Records: ["x", null], [], null, ["yy"], ["z", "w", "v"]
  const ColumnDescriptor& c = col("l.list.element");  // def: 0 null list, 1 empty, 2 null element, 3 value
  LeafBatch batch;
  put_levels(batch.def, {3, 2, 1, 0, 3, 3, 3, 3});
  put_levels(batch.rep, {0, 1, 0, 0, 0, 0, 1, 1});
  for (const char* s : {"x", "yy", "z", "w", "v"}) batch.values.bytes.append(s);
  batch.values.count = 5;
  batch.num_entries = 8;
  const uint8_t keep[] = {1, 0, 1, 0, 1};
  keep_records(batch, c, keep, 5);
  EXPECT_EQ(levels(batch.def), (std::vector<int16_t>{3, 2, 0, 3, 3, 3}));
  EXPECT_EQ(levels(batch.rep), (std::vector<int16_t>{0, 1, 0, 0, 1, 1}));
  ASSERT_EQ(batch.values.count, 4);
  EXPECT_EQ(batch.values.bytes.value(0), "x");
  EXPECT_EQ(batch.values.bytes.value(1), "z");
  EXPECT_EQ(batch.values.bytes.value(3), "v");
  const uint8_t none[] = {0, 0, 0};
  keep_records(batch, c, none, 3);
  EXPECT_EQ(batch.num_entries, 0);
  EXPECT_EQ(batch.values.count, 0);
  EXPECT_EQ(batch.values.bytes.size(), 0u);
}

}  // namespace
}  // namespace parq
