// large_string_map.brotli.parquet: two rows whose map keys are 1 GiB strings
// (the column chunk is over 2 GiB uncompressed). Its documentation expects a
// reader to read it, given 2-3 GB of memory: one row per batch keeps each
// batch's string data under the 2 GiB int32 offset limit. Release builds
// only: under the sanitizers it needs several times the memory and minutes.
#include <gtest/gtest.h>

#include "parq/file/batch_reader.h"
#include "test_paths.h"

namespace parq {
namespace {

#ifndef PARQ_SANITIZE_BUILD
TEST(LargeStringMap, ReadsOneGibibyteKeysOneRowPerBatch) {
  auto file = FileReader::open((testing::corpus_dir() / "data" / "large_string_map.brotli.parquet").string());
  ReadOptions options;
  options.batch_rows = 1;
  auto source = read_batches(*file, options);
  RecordBatch batch;
  int64_t rows = 0;
  while (source->next(batch)) {
    ASSERT_EQ(batch.num_rows, 1);
    const Array& map = batch.columns.at(0);
    ASSERT_EQ(map.kind, ArrayKind::kMap);
    const Array& keys = map.children.at(0);
    ASSERT_EQ(keys.length, 1);
    const int32_t* offsets = keys.offsets_data();
    EXPECT_EQ(offsets[1] - offsets[0], 1 << 30);
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}
#endif

}  // namespace
}  // namespace parq
