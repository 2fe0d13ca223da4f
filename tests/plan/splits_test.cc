// Splits of a file's row groups into units of parallel work.
#include "parq/plan/splits.h"

#include <gtest/gtest.h>

#include "parq/error.h"

namespace parq {
namespace {

// A footer with one row group per entry of `sizes`, each with two column
// chunks of sizes[g] bytes between them (first chunk 1/4, second 3/4) and
// 10 rows per row group.
format::FileMetaData footer(const std::vector<int64_t>& sizes) {
  format::FileMetaData md;
  for (int64_t s : sizes) {
    format::RowGroup rg;
    rg.num_rows = 10;
    for (int64_t part : {s / 4, s - s / 4}) {
      format::ColumnChunk c;
      c.meta_data.emplace();
      c.meta_data->total_compressed_size = part;
      rg.columns.push_back(c);
    }
    md.row_groups.push_back(rg);
  }
  return md;
}

TEST(Splits, RowGroupsGatherUpToTheTarget) {
  const auto splits = plan_splits(footer({40, 40, 40, 200, 40, 40}), 100);
  ASSERT_EQ(splits.size(), 4u);
  EXPECT_EQ(splits[0].row_group_begin, 0u);
  EXPECT_EQ(splits[0].row_group_end, 2u);  // 80; a third would pass 100
  EXPECT_EQ(splits[0].bytes, 80);
  EXPECT_EQ(splits[0].rows, 20);
  EXPECT_EQ(splits[1].row_group_begin, 2u);
  EXPECT_EQ(splits[1].row_group_end, 3u);
  EXPECT_EQ(splits[2].row_group_begin, 3u);  // larger than the target: alone
  EXPECT_EQ(splits[2].row_group_end, 4u);
  EXPECT_EQ(splits[2].bytes, 200);
  EXPECT_EQ(splits[3].row_group_begin, 4u);
  EXPECT_EQ(splits[3].row_group_end, 6u);
  // Every row group in exactly one split, in order.
  size_t next = 0;
  int64_t rows = 0;
  for (const Split& s : splits) {
    EXPECT_EQ(s.row_group_begin, next);
    next = s.row_group_end;
    rows += s.rows;
  }
  EXPECT_EQ(next, 6u);
  EXPECT_EQ(rows, 60);
}

TEST(Splits, AProjectionCountsOnlyItsChunks) {
  // Only the first chunk of each row group (a quarter: 10 bytes) is read.
  const auto splits = plan_splits(footer({40, 40, 40, 40}), 25, {0});
  ASSERT_EQ(splits.size(), 2u);
  EXPECT_EQ(splits[0].bytes, 20);
  EXPECT_EQ(splits[0].row_group_end, 2u);
  EXPECT_EQ(plan_splits(footer({40, 40, 40, 40}), 1 << 20).size(), 1u);
}

TEST(Splits, EmptyFilesHostileSizesAndBadArguments) {
  EXPECT_TRUE(plan_splits(footer({}), 100).empty());
  format::FileMetaData md = footer({40, 40});
  md.row_groups[0].columns[0].meta_data->total_compressed_size = -1000;  // hostile: counts as nothing
  md.row_groups[1].columns[1].meta_data.reset();                         // encrypted metadata
  const auto splits = plan_splits(md, 1000);
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_EQ(splits[0].bytes, 30 + 10);
  for (int64_t bad : {0, -5}) {
    try {
      plan_splits(md, bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    }
  }
  try {
    plan_splits(md, 100, {7});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    EXPECT_EQ(e.location().row_group, 0);
  }
}

}  // namespace
}  // namespace parq
