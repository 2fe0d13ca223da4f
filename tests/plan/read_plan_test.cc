// Each pruning stage on its own: statistics, dictionaries, bloom filters and
// the page index drop what they can and nothing else, and turning a stage
// off changes what is pruned but never the rows. Row range arithmetic.
#include "parq/plan/read_plan.h"

#include <gtest/gtest.h>

#include <cstring>

#include "../file_bytes.h"
#include "parq/file/batch_reader.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

TEST(RowRanges, NormalizeIntersectUnite) {
  EXPECT_EQ(normalize_ranges({{5, 7}, {0, 2}, {2, 3}, {6, 9}, {4, 4}}), (std::vector<RowRange>{{0, 3}, {5, 9}}));
  EXPECT_EQ(intersect_ranges({{0, 10}, {20, 30}}, {{5, 25}}), (std::vector<RowRange>{{5, 10}, {20, 25}}));
  EXPECT_EQ(intersect_ranges({{0, 10}}, {{10, 20}}), (std::vector<RowRange>{}));
  EXPECT_EQ(unite_ranges({{0, 10}}, {{10, 20}, {30, 31}}), (std::vector<RowRange>{{0, 20}, {30, 31}}));
}

struct Built {
  std::vector<uint8_t> bytes;
  std::unique_ptr<FileReader> file;
};

// `rows` rows of id (0..rows-1, sorted) and s (`text(i)`), in row groups
// of `group_rows`, pages of 100 rows.
Built build(int64_t rows, int64_t group_rows, bool dictionary, bool bloom,
            const std::function<std::string(int64_t)>& text) {
  Schema schema = make_schema({Field::int64("id").required(), Field::string("s").required()});
  RecordBatch batch;
  batch.num_rows = rows;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  id.length = rows;
  Array s;
  s.name = "s";
  s.type = schema.column(1).type;
  s.length = rows;
  s.offsets.append_value<int32_t>(0);
  for (int64_t i = 0; i < rows; ++i) {
    id.values.append_value(i);
    s.values.append(text(i));
    s.offsets.append_value(static_cast<int32_t>(s.values.size()));
  }
  batch.columns = {std::move(id), std::move(s)};
  WriteOptions options;
  options.row_group_rows = group_rows;
  options.page_rows = 100;
  options.dictionary = dictionary;
  if (bloom) options.columns["s"].bloom_filter = BloomFilterOptions{};
  Built b;
  b.bytes = testing::file_bytes(schema, batch, options);
  b.file = FileReader::open(io::memory_input(b.bytes));
  return b;
}

int64_t count(const FileReader& file, const char* where, ReadStats& stats, PruningOptions pruning = {}) {
  ReadOptions options;
  options.filter = filter::parse_filter(where);
  options.pruning = pruning;
  options.stats = &stats;
  auto source = read_batches(file, options);
  RecordBatch batch;
  int64_t rows = 0;
  while (source->next(batch)) rows += batch.num_rows;
  return rows;
}

TEST(ReadPlan, StatisticsPruneRowGroups) {
  Built b = build(10000, 1000, true, false, [](int64_t i) { return std::to_string(i % 7); });
  ReadStats stats;
  EXPECT_EQ(count(*b.file, "id = 4321", stats), 1);
  EXPECT_EQ(stats.row_groups, 10);
  EXPECT_EQ(stats.row_groups_pruned_by_statistics, 9);
  EXPECT_EQ(stats.rows_pruned_by_row_groups, 9000);
  ReadStats off;
  PruningOptions no_stats{false, false, false, false};  // dictionaries would catch it too
  EXPECT_EQ(count(*b.file, "id = 4321", off, no_stats), 1);
  EXPECT_EQ(off.row_groups_pruned_by_statistics, 0);
  EXPECT_EQ(off.rows_decoded, 10000);
}

TEST(ReadPlan, DictionariesPruneWhatBoundsCannot) {
  // Every row group holds "a", "c" and "e": "b" lies between its bounds.
  Built b = build(6000, 1000, true, false, [](int64_t i) { return std::string(1, "ace"[i % 3]); });
  ReadStats stats;
  EXPECT_EQ(count(*b.file, "s = 'b'", stats), 0);
  EXPECT_EQ(stats.row_groups_pruned_by_statistics, 0);
  EXPECT_EQ(stats.row_groups_pruned_by_dictionary, 6);
  EXPECT_EQ(stats.rows_decoded, 0);
  EXPECT_EQ(count(*b.file, "s IN ('b', 'd') OR s LIKE 'x%'", stats), 0);
  ReadStats found;
  EXPECT_EQ(count(*b.file, "s IN ('b', 'c')", found), 2000);
  EXPECT_EQ(found.row_groups_pruned_by_dictionary, 0);
  ReadStats off;
  PruningOptions no_dict;
  no_dict.dictionaries = false;
  EXPECT_EQ(count(*b.file, "s = 'b'", off, no_dict), 0);
  EXPECT_EQ(off.row_groups_pruned_by_dictionary, 0);
  EXPECT_EQ(off.rows_decoded, 6000);
}

TEST(ReadPlan, BloomFiltersPruneAbsentValues) {
  // Unique strings without a dictionary: only the bloom filter can tell.
  auto text = [](int64_t i) { return "key-" + std::to_string(i * 7919 % 100003); };
  Built b = build(8000, 1000, false, true, text);
  ReadStats stats;
  EXPECT_EQ(count(*b.file, "s = 'key-5'", stats), 0);  // inside every group's bounds, in none
  EXPECT_EQ(stats.row_groups_pruned_by_dictionary, 0);
  EXPECT_GE(stats.row_groups_pruned_by_bloom_filter, 7);  // a false positive is allowed
  ReadStats present;
  EXPECT_EQ(count(*b.file, ("s = '" + text(4567) + "'").c_str(), present), 1);
  EXPECT_LE(present.rows_decoded, 2000);  // its group, and at most one false positive
  ReadStats off;
  PruningOptions no_bloom;
  no_bloom.bloom_filters = false;
  EXPECT_EQ(count(*b.file, "s = 'key-5'", off, no_bloom), 0);
  EXPECT_EQ(off.row_groups_pruned_by_bloom_filter, 0);
}

TEST(ReadPlan, PageIndexKeepsOnlyMatchingPages) {
  Built b = build(10000, 5000, true, false, [](int64_t i) { return std::to_string(i); });
  ReadStats stats;
  EXPECT_EQ(count(*b.file, "id BETWEEN 1234 AND 1290", stats), 57);
  EXPECT_EQ(stats.row_groups_pruned_by_statistics, 1);
  EXPECT_EQ(stats.pages, 50);  // the id column's pages in the row group read
  EXPECT_EQ(stats.pages_pruned_by_index, 49);
  EXPECT_EQ(stats.rows_pruned_by_pages, 4900);
  EXPECT_EQ(stats.rows_decoded, 100);
  ReadStats either;
  EXPECT_EQ(count(*b.file, "id < 150 OR id >= 9950", either), 200);
  EXPECT_EQ(either.rows_decoded, 300);  // pages 0, 1 and the last
  ReadStats off;
  PruningOptions no_pages;
  no_pages.page_index = false;
  EXPECT_EQ(count(*b.file, "id BETWEEN 1234 AND 1290", off, no_pages), 57);
  EXPECT_EQ(off.rows_decoded, 5000);
}

TEST(ReadPlan, TinyPagesFileSelectsPagesByItsIndex) {
  // alltypes_tiny_pages: ~5,800 pages with a page index.
  auto file = FileReader::open((testing::corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string());
  const char* where = "int_col = 7 AND id >= 3000 AND id < 3400";
  ReadStats stats;
  const int64_t rows = count(*file, where, stats);
  EXPECT_GT(stats.pages_pruned_by_index, 0);
  EXPECT_GT(stats.rows_pruned_by_pages, 6000);
  ReadStats full;
  PruningOptions none{false, false, false, false};
  EXPECT_EQ(count(*file, where, full, none), rows);
  EXPECT_EQ(full.rows_decoded, 7300);
  EXPECT_GT(rows, 0);
}

TEST(ReadPlan, PlanNotesSayWhy) {
  Built b = build(3000, 1000, true, false, [](int64_t i) { return std::to_string(i); });
  ReadOptions options;
  options.filter = filter::parse_filter("id >= 2500");
  ReadStats stats;
  ReadPlan plan = plan_read(*b.file, options, &stats);
  ASSERT_EQ(plan.row_groups.size(), 1u);
  EXPECT_EQ(plan.row_groups[0].row_group, 2u);
  EXPECT_EQ(plan.row_groups[0].first_row, 2000);
  EXPECT_EQ(plan.row_groups[0].ranges, (std::vector<RowRange>{{500, 1000}}));
  ASSERT_GE(plan.notes.size(), 2u);
  EXPECT_NE(plan.notes[0].find("row group 0: statistics rule out id >= <value>"), std::string::npos) << plan.notes[0];
  EXPECT_NE(stats.to_string().find("2 by statistics"), std::string::npos) << stats.to_string();
}

}  // namespace
}  // namespace parq
