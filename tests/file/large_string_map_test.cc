// large_string_map.brotli.parquet: two rows whose map keys are 1 GiB strings
// (the column chunk is over 2 GiB uncompressed). Its documentation expects a
// reader to read it, given 2-3 GB of memory: one row per batch keeps each
// batch's string data under the 2 GiB int32 offset limit, and the reader
// picks that batch size itself. Release builds only: under the sanitizers
// it needs several times the memory and minutes.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <filesystem>

#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "test_paths.h"

namespace parq {
namespace {

#ifndef PARQ_SANITIZE_BUILD
// At the default batch size: the reader sizes the row group's batches from
// its chunk's bytes per row, one row each here.
TEST(LargeStringMap, ReadsOneGibibyteKeysOneRowPerBatch) {
  auto file = FileReader::open((testing::corpus_dir() / "data" / "large_string_map.brotli.parquet").string());
  ReadOptions options;
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

// Each key's length and hash, a batch per row.
std::vector<std::pair<int32_t, uint64_t>> key_digests(const FileReader& file) {
  ReadOptions options;
  options.batch_rows = 1;
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::vector<std::pair<int32_t, uint64_t>> out;
  while (source->next(batch)) {
    const Array& keys = batch.columns.at(0).children.at(0);
    const int32_t* o = keys.offsets_data();
    out.emplace_back(o[1] - o[0], XXH64(keys.values.data() + o[0], static_cast<size_t>(o[1] - o[0]), 0));
  }
  return out;
}

TEST(LargeStringMap, RewritesOneGibibyteKeys) {
  auto in = FileReader::open((testing::corpus_dir() / "data" / "large_string_map.brotli.parquet").string());
  const auto path = std::filesystem::temp_directory_path() / "parq-large-string-map.parquet";
  {
    ReadOptions read;
    read.batch_rows = 1;
    WriteOptions options;
    options.codec = {format::CompressionCodec::ZSTD, compression::kDefaultLevel};
    auto writer = FileWriter::open(path.string(), in->schema(), options);
    auto source = read_batches(*in, read);
    writer->write_all(*source);
    writer->close();
  }
  auto out = FileReader::open(path.string());
  const auto expected = key_digests(*in);
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(key_digests(*out), expected);
  std::filesystem::remove(path);
}
#endif

}  // namespace
}  // namespace parq
