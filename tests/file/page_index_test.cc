// The page index read back: files written with small pages give one entry
// per data page with the right rows, bounds and locations; decoding from a
// row group's fetched range equals reading through the file; the corpus file
// with tiny pages agrees with its pages; indexes that contradict the
// metadata (or do not decode) are errors naming the column and row group.
#include "parq/file/page_index.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <optional>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kRows = 35;

// id: 0..34 (required); name: "n00".."n34" with every 7th row null.
Buffer write_file(const WriteOptions& options) {
  Schema schema = make_schema({Field::int64("id").required(), Field::string("name")});
  RecordBatch batch;
  batch.num_rows = kRows;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  Array name;
  name.name = "name";
  name.type = schema.column(1).type;
  name.offsets.append_value<int32_t>(0);
  name.validity.resize(8);
  std::memset(name.validity.data(), 0, name.validity.size());
  for (int64_t i = 0; i < kRows; ++i) {
    id.values.append_value(i);
    if (i % 7 != 3) {
      char text[8];
      std::snprintf(text, sizeof text, "n%02d", static_cast<int>(i));
      name.values.append(text);
      name.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    } else {
      ++name.null_count;
    }
    name.offsets.append_value(static_cast<int32_t>(name.values.size()));
  }
  id.length = name.length = kRows;
  batch.columns = {std::move(id), std::move(name)};
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return sink->take();
}

WriteOptions small_pages() {
  WriteOptions options;
  options.page_rows = 10;
  options.codec = {format::CompressionCodec::UNCOMPRESSED, 0};
  return options;
}

int64_t as_int64(const std::string& plain) {
  int64_t v = 0;
  EXPECT_EQ(plain.size(), 8u);
  std::memcpy(&v, plain.data(), std::min<size_t>(plain.size(), 8));
  return v;
}

TEST(PageIndex, OneEntryPerPageWithRowsAndBounds) {
  Buffer bytes = write_file(small_pages());
  auto file = FileReader::open(io::memory_input(bytes.span()));
  auto id = read_page_index(*file, 0, 0);
  ASSERT_TRUE(id.has_value());
  ASSERT_TRUE(id->column_index && id->offset_index);
  ASSERT_EQ(id->num_pages(), 4u);
  EXPECT_EQ(id->row_group_rows, kRows);
  EXPECT_EQ(id->page_rows(0), (RowRange{0, 10}));
  EXPECT_EQ(id->page_rows(2), (RowRange{20, 30}));
  EXPECT_EQ(id->page_rows(3), (RowRange{30, 35}));
  EXPECT_EQ(id->column_index->boundary_order, format::BoundaryOrder::ASCENDING);
  for (size_t p = 0; p < 4; ++p) {
    EXPECT_EQ(as_int64(id->column_index->min_values[p]), static_cast<int64_t>(p) * 10);
    EXPECT_EQ(as_int64(id->column_index->max_values[p]), std::min<int64_t>(static_cast<int64_t>(p) * 10 + 9, 34));
    EXPECT_FALSE(id->column_index->null_pages[p]);
  }
  EXPECT_THROW(id->page_rows(4), Error);

  auto name = read_page_index(*file, 0, 1);
  ASSERT_TRUE(name.has_value());
  ASSERT_EQ(name->num_pages(), 4u);
  ASSERT_TRUE(name->column_index->null_counts.has_value());
  // Nulls at rows 3, 10, 17, 24, 31: one in each page but the second has two.
  EXPECT_EQ(*name->column_index->null_counts, (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(name->column_index->min_values[0], "n00");
  EXPECT_EQ(name->column_index->max_values[3], "n34");
}

TEST(PageIndex, LocationsAreTheDataPagesThePageReaderFinds) {
  Buffer bytes = write_file(small_pages());
  auto file = FileReader::open(io::memory_input(bytes.span()));
  for (size_t c = 0; c < 2; ++c) {
    auto index = read_page_index(*file, 0, c);
    ASSERT_TRUE(index.has_value());
    PageReader pages(file->input(), file->metadata(), 0, c, "c");
    std::vector<format::PageLocation> seen;
    PageInfo page;
    int64_t row = 0;
    while (pages.next(page)) {
      if (page.header.type != format::PageType::DATA_PAGE) continue;
      seen.push_back({static_cast<int64_t>(page.header_offset),
                      static_cast<int32_t>(page.header_size + page.payload.size()), row});
      row += page.header.data_page_header->num_values;  // flat columns: one value a row
    }
    EXPECT_EQ(index->offset_index->page_locations, seen) << "column " << c;
  }
}

TEST(PageIndex, DecodesFromTheRowGroupRangeAsThroughTheFile) {
  Buffer bytes = write_file(small_pages());
  auto file = FileReader::open(io::memory_input(bytes.span()));
  const auto& md = file->metadata();
  std::optional<FileRange> range = row_group_page_index_range(md, 0, bytes.size());
  ASSERT_TRUE(range.has_value());
  for (size_t c = 0; c < 2; ++c) {
    PageIndexRanges r = page_index_ranges(md, 0, c, bytes.size());
    ASSERT_TRUE(r.column_index && r.offset_index);
    for (const auto& part : {*r.column_index, *r.offset_index}) {
      EXPECT_GE(part.offset, range->offset);
      EXPECT_LE(part.end(), range->end());
    }
  }
  // Only what the indexes take: nothing of the pages or the footer.
  EXPECT_GT(range->offset, static_cast<uint64_t>(md.row_groups[0].columns[1].meta_data->data_page_offset));
  const auto fetched = bytes.span().subspan(range->offset, range->length);
  for (size_t c = 0; c < 2; ++c) {
    auto decoded = decode_page_index(fetched, range->offset, md, 0, c, bytes.size(), "fetched");
    auto read = read_page_index(*file, 0, c);
    ASSERT_TRUE(decoded && read);
    EXPECT_EQ(decoded->column_index, read->column_index);
    EXPECT_EQ(decoded->offset_index, read->offset_index);
  }
  // Bytes that miss an index are an error, not a read outside them.
  try {
    decode_page_index(fetched.subspan(1), range->offset + 1, md, 0, 0, bytes.size(), "fetched");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("fetched: column id, row group 0"));
    EXPECT_THAT(e.what(), HasSubstr("not inside the bytes given"));
  }
}

TEST(PageIndex, AbsentIndexIsNullopt) {
  WriteOptions options = small_pages();
  options.page_index = false;
  Buffer bytes = write_file(options);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  EXPECT_FALSE(read_page_index(*file, 0, 0).has_value());
  EXPECT_FALSE(row_group_page_index_range(file->metadata(), 0, bytes.size()).has_value());
  PageIndexRanges r = page_index_ranges(file->metadata(), 0, 1, bytes.size());
  EXPECT_FALSE(r.column_index || r.offset_index);
  EXPECT_THROW(read_page_index(*file, 1, 0), Error);  // no row group 1
  EXPECT_THROW(read_page_index(*file, 0, 2), Error);  // no column 2
}

TEST(PageIndex, CorpusTinyPagesMatchTheirChunks) {
  auto file = FileReader::open((testing::corpus_dir() / "data/alltypes_tiny_pages.parquet").string());
  const auto& md = file->metadata();
  size_t chunks = 0;
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    for (size_t c = 0; c < file->schema().num_columns(); ++c) {
      auto index = read_page_index(*file, g, c);
      ASSERT_TRUE(index.has_value()) << "row group " << g << " column " << c;
      ASSERT_GT(index->num_pages(), 0u);
      int64_t rows = 0;
      for (size_t p = 0; p < index->num_pages(); ++p) rows += index->page_rows(p).size();
      EXPECT_EQ(rows, md.row_groups[g].num_rows);
      ++chunks;
    }
  }
  EXPECT_EQ(chunks, file->schema().num_columns() * md.row_groups.size());
  // The id column's data pages, counted by walking them.
  const int id = file->schema().find_column("id");
  ASSERT_GE(id, 0);
  PageReader pages(file->input(), md, 0, static_cast<size_t>(id), "id");
  PageInfo page;
  size_t data_pages = 0;
  while (pages.next(page)) data_pages += page.header.type == format::PageType::DATA_PAGE;
  EXPECT_EQ(read_page_index(*file, 0, static_cast<size_t>(id))->num_pages(), data_pages);
  EXPECT_GT(data_pages, 100u);
}

// ---- corrupt indexes ----

// The file's bytes with `index` appended and chunk (0, column) pointed at
// it, for decoding against `md`.
struct Tampered {
  std::vector<uint8_t> bytes;
  format::FileMetaData md;
};

template <class T>
Tampered with_index(const Buffer& file_bytes, size_t column, const T& index) {
  auto file = FileReader::open(io::memory_input(file_bytes.span()));
  Tampered t{{file_bytes.data(), file_bytes.data() + file_bytes.size()}, file->metadata()};
  std::string encoded;
  format::encode_thrift(index, encoded);
  format::ColumnChunk& chunk = t.md.row_groups[0].columns[column];
  if constexpr (std::is_same_v<T, format::OffsetIndex>) {
    chunk.offset_index_offset = static_cast<int64_t>(t.bytes.size());
    chunk.offset_index_length = static_cast<int32_t>(encoded.size());
  } else {
    chunk.column_index_offset = static_cast<int64_t>(t.bytes.size());
    chunk.column_index_length = static_cast<int32_t>(encoded.size());
  }
  t.bytes.insert(t.bytes.end(), encoded.begin(), encoded.end());
  return t;
}

std::string decode_error(const Tampered& t, size_t column) {
  try {
    decode_page_index(t.bytes, 0, t.md, 0, column, t.bytes.size(), "bad.parquet");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

class CorruptPageIndex : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = write_file(small_pages());
    auto file = FileReader::open(io::memory_input(bytes_.span()));
    id_ = *read_page_index(*file, 0, 0);
    name_ = *read_page_index(*file, 0, 1);
  }
  Buffer bytes_;
  PageIndex id_, name_;
};

TEST_F(CorruptPageIndex, OffsetIndexRowsMustStartAtZeroIncreaseAndStayInTheRowGroup) {
  format::OffsetIndex oi = *id_.offset_index;
  oi.page_locations[0].first_row_index = 1;
  EXPECT_THAT(decode_error(with_index(bytes_, 0, oi), 0), HasSubstr("page 0 starts at row 1, not 0"));
  oi = *id_.offset_index;
  oi.page_locations[2].first_row_index = oi.page_locations[1].first_row_index;
  EXPECT_THAT(decode_error(with_index(bytes_, 0, oi), 0), HasSubstr("page 2 starts at row 10, not after page 1"));
  oi = *id_.offset_index;
  oi.page_locations[3].first_row_index = kRows;
  std::string e = decode_error(with_index(bytes_, 0, oi), 0);
  EXPECT_THAT(e, HasSubstr("bad.parquet: column id, row group 0: offset index: page 3 starts at row 35"));
  oi = *id_.offset_index;
  oi.page_locations.clear();
  EXPECT_THAT(decode_error(with_index(bytes_, 0, oi), 0), HasSubstr("no pages for the row group's 35 rows"));
}

TEST_F(CorruptPageIndex, OffsetIndexPagesMustLieInTheChunkInOrder) {
  format::OffsetIndex oi = *name_.offset_index;
  oi.page_locations[1].offset = 0;
  EXPECT_THAT(decode_error(with_index(bytes_, 1, oi), 1),
              HasSubstr("column name, row group 0: offset index: page 1 [0, +"));
  oi = *name_.offset_index;
  oi.page_locations[3].compressed_page_size += 100000;
  EXPECT_THAT(decode_error(with_index(bytes_, 1, oi), 1), HasSubstr("is outside the column chunk"));
  oi = *name_.offset_index;
  oi.page_locations[2].offset = oi.page_locations[1].offset + 1;
  EXPECT_THAT(decode_error(with_index(bytes_, 1, oi), 1), HasSubstr("page 2 at offset"));
  oi = *name_.offset_index;
  oi.page_locations[0].compressed_page_size = 0;
  EXPECT_THAT(decode_error(with_index(bytes_, 1, oi), 1), HasSubstr("page 0 has size 0"));
}

TEST_F(CorruptPageIndex, ColumnIndexListsMustHaveOneEntryPerPage) {
  format::ColumnIndex ci = *id_.column_index;
  ci.max_values.pop_back();
  EXPECT_THAT(decode_error(with_index(bytes_, 0, ci), 0),
              HasSubstr("column id, row group 0: column index: max_values has 3 entries for 4 pages"));
  ci = *name_.column_index;
  ci.null_counts->push_back(0);
  EXPECT_THAT(decode_error(with_index(bytes_, 1, ci), 1), HasSubstr("null_counts has 5 entries"));
  ci = *name_.column_index;
  (*ci.null_counts)[2] = -1;
  EXPECT_THAT(decode_error(with_index(bytes_, 1, ci), 1), HasSubstr("page 2 has a negative null count"));
  ci = *id_.column_index;
  ci.min_values[1] = "abc";
  EXPECT_THAT(decode_error(with_index(bytes_, 0, ci), 0), HasSubstr("page 1 has a min of 3 bytes for a INT64"));
  // Five pages in both lists, four in the offset index.
  ci = *id_.column_index;
  ci.null_pages.push_back(false);
  ci.min_values.push_back(ci.min_values[0]);
  ci.max_values.push_back(ci.max_values[0]);
  if (ci.null_counts) ci.null_counts->push_back(0);
  EXPECT_THAT(decode_error(with_index(bytes_, 0, ci), 0),
              HasSubstr("the column index has 5 pages, the offset index 4"));
}

TEST_F(CorruptPageIndex, RangesOutsideTheFileAreErrors) {
  auto file = FileReader::open(io::memory_input(bytes_.span()));
  format::FileMetaData md = file->metadata();
  md.row_groups[0].columns[1].offset_index_offset = static_cast<int64_t>(bytes_.size()) - 2;
  try {
    decode_page_index(bytes_.span(), 0, md, 0, 1, bytes_.size(), "f.parquet");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("f.parquet: column name, row group 0: offset index ["));
    EXPECT_THAT(e.what(), HasSubstr("reaches past the end of the file"));
  }
  md = file->metadata();
  md.row_groups[0].columns[0].column_index_length = -5;
  EXPECT_THROW(page_index_ranges(md, 0, 0, bytes_.size()), Error);
  EXPECT_THROW(row_group_page_index_range(md, 0, bytes_.size()), Error);
  md = file->metadata();
  md.row_groups[0].columns[0].column_index_length.reset();
  EXPECT_THAT(decode_error(Tampered{{bytes_.data(), bytes_.data() + bytes_.size()}, md}, 0),
              HasSubstr("column index has an offset or a length but not both"));
}

TEST_F(CorruptPageIndex, AlteredBytesNeverCrashAndNameTheColumn) {
  format::OffsetIndex oi = *name_.offset_index;
  Tampered base = with_index(bytes_, 1, oi);
  const size_t start = static_cast<size_t>(*base.md.row_groups[0].columns[1].offset_index_offset);
  size_t errors = 0;
  for (size_t i = start; i < base.bytes.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      Tampered t = base;
      t.bytes[i] ^= flip;
      try {
        auto index = decode_page_index(t.bytes, 0, t.md, 0, 1, t.bytes.size(), "bad.parquet");
        ASSERT_TRUE(index.has_value());
        // Whatever decodes passed validation: its rows partition the row group.
        int64_t rows = 0;
        for (size_t p = 0; p < index->num_pages(); ++p) rows += index->page_rows(p).size();
        EXPECT_EQ(rows, kRows);
      } catch (const Error& e) {
        ++errors;
        EXPECT_THAT(e.what(), HasSubstr("bad.parquet: column name, row group 0:"));
      }
    }
  }
  EXPECT_GT(errors, 10u);
  // Cut short: the index does not decode.
  Tampered t = base;
  *t.md.row_groups[0].columns[1].offset_index_length -= 3;
  EXPECT_THAT(decode_error(t, 1), HasSubstr("offset index does not decode"));
}

}  // namespace
}  // namespace parq
