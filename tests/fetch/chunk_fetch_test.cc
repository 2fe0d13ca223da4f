// The fetch stage's requests: the whole chunk when every row is wanted or
// there is no offset index; else the dictionary page and the pages the rows
// meet, merged when adjacent; an index that points outside its chunk is an
// error.
#include "../../src/fetch/chunk_fetch.h"

#include <gtest/gtest.h>

#include "../file_bytes.h"
#include "parq/error.h"
#include "parq/file/page_index.h"
#include "parq/schema/field.h"

namespace parq::fetch {
namespace {

struct Written {
  std::vector<uint8_t> bytes;
  std::unique_ptr<FileReader> file;
};

// 1000 rows of an int64 column in pages of 100 rows, dictionary-encoded.
Written write_file() {
  Schema schema = make_schema({Field::int64("v").required()});
  RecordBatch batch;
  batch.num_rows = 1000;
  Array a;
  a.name = "v";
  a.type = schema.column(0).type;
  a.length = 1000;
  for (int64_t i = 0; i < 1000; ++i) a.values.append_value(i % 10);
  batch.columns.push_back(std::move(a));
  WriteOptions options;
  options.page_rows = 100;
  Written w;
  w.bytes = testing::file_bytes(schema, batch, options);
  w.file = FileReader::open(io::memory_input(w.bytes));
  return w;
}

TEST(ChunkFetch, RequestsTheDictionaryAndThePagesOfTheRows) {
  Written w = write_file();
  const auto& meta = w.file->metadata();
  auto index = read_page_index(*w.file, 0, 0);
  ASSERT_TRUE(index && index->offset_index);
  const auto& pages = index->offset_index->page_locations;
  ASSERT_EQ(pages.size(), 10u);
  const ChunkRange whole = chunk_range(meta, 0, 0, w.bytes.size());

  const ChunkRequest all = chunk_request(meta, 0, 0, w.bytes.size(), &*index->offset_index, {{0, 1000}}, 1000);
  EXPECT_FALSE(all.partial);
  EXPECT_EQ(all.ranges, (std::vector<io::FileRange>{{whole.offset, whole.length}}));
  const ChunkRequest no_index = chunk_request(meta, 0, 0, w.bytes.size(), nullptr, {{150, 160}}, 1000);
  EXPECT_FALSE(no_index.partial);
  EXPECT_EQ(no_index.ranges.size(), 1u);

  // Rows 150-159 and 300-420: pages 1, 3 and 4 (adjacent: one range), after
  // the dictionary page.
  const ChunkRequest some =
      chunk_request(meta, 0, 0, w.bytes.size(), &*index->offset_index, {{150, 160}, {300, 420}}, 1000);
  EXPECT_TRUE(some.partial);
  ASSERT_EQ(some.ranges.size(), 3u);
  EXPECT_EQ(some.ranges[0].offset, whole.offset);
  EXPECT_EQ(some.ranges[0].end(), static_cast<uint64_t>(pages[0].offset));
  EXPECT_EQ(some.ranges[1].offset, static_cast<uint64_t>(pages[1].offset));
  EXPECT_EQ(some.ranges[2].offset, static_cast<uint64_t>(pages[3].offset));
  EXPECT_EQ(some.ranges[2].end(), static_cast<uint64_t>(pages[4].offset + pages[4].compressed_page_size));
  EXPECT_EQ(some.page_first_rows, (std::vector<std::pair<uint64_t, int64_t>>{
                                      {pages[1].offset, 100}, {pages[3].offset, 300}, {pages[4].offset, 400}}));
  const std::vector<ChunkBytes> bytes = fetch_chunks(w.file->input(), {some});
  ASSERT_EQ(bytes.size(), 1u);
  EXPECT_EQ(bytes[0].segments.size(), 3u);
  EXPECT_TRUE(bytes[0].partial);
}

TEST(ChunkFetch, AnIndexOutsideItsChunkIsAnError) {
  Written w = write_file();
  auto index = read_page_index(*w.file, 0, 0);
  ASSERT_TRUE(index && index->offset_index);
  format::OffsetIndex bad = *index->offset_index;
  bad.page_locations[0].offset = static_cast<int64_t>(w.bytes.size());
  try {
    chunk_request(w.file->metadata(), 0, 0, w.bytes.size(), &bad, {{0, 10}}, 1000);
    ADD_FAILURE() << "accepted a first page outside the chunk";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the column chunk"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parq::fetch
