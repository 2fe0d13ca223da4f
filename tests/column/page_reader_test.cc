// PageReader over the corpus: every page of every readable chunk parses and
// decompresses (every codec the corpus has), CRCs are checked where present,
// and the corrupt-checksum files fail exactly where their README says.
#include "parq/column/page_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/schema_text.h"
#include "test_paths.h"

namespace parq {
namespace {

using testing::corpus_dir;
using ::testing::HasSubstr;

std::unique_ptr<FileReader> open(const std::string& name) {
  return FileReader::open((corpus_dir() / "data" / name).string());
}

// (column, page index) pairs whose CRC does not match.
std::vector<std::pair<std::string, size_t>> invalid_crcs(const std::string& name) {
  auto reader = open(name);
  PageReaderOptions options;
  options.verify_crc = false;
  options.report_crc = true;
  std::vector<std::pair<std::string, size_t>> bad;
  size_t with_crc = 0;
  for (size_t c = 0; c < reader->schema().num_columns(); ++c) {
    std::string path = reader->schema().column(c).dotted_path();
    PageReader pages(reader->input(), reader->metadata(), 0, c, path, options);
    PageInfo page;
    while (pages.next(page)) {
      with_crc += page.crc != CrcStatus::kAbsent;
      if (page.crc == CrcStatus::kInvalid) bad.emplace_back(path, page.index);
    }
  }
  EXPECT_GE(with_crc, 2u) << name;
  return bad;
}

// Neither verifying nor reporting: the CRC is not computed, and a corrupt
// one goes unnoticed.
TEST(PageReader, UncheckedChecksumsAreNotComputed) {
  auto reader = open("datapage_v1-corrupt-checksum.parquet");
  PageReaderOptions options;
  options.verify_crc = false;
  PageReader pages(reader->input(), reader->metadata(), 0, 0, "a", options);
  PageInfo page;
  size_t unchecked = 0;
  while (pages.next(page)) {
    EXPECT_NE(page.crc, CrcStatus::kInvalid);
    unchecked += page.crc == CrcStatus::kUnchecked;
  }
  EXPECT_GT(unchecked, 0u);
}

TEST(PageReader, CorruptChecksumsAreWhereTheCorpusSays) {
  using P = std::vector<std::pair<std::string, size_t>>;
  EXPECT_EQ(invalid_crcs("datapage_v1-corrupt-checksum.parquet"), (P{{"a", 0}, {"b", 1}}));
  EXPECT_EQ(invalid_crcs("datapage_v1-uncompressed-checksum.parquet"), P{});
  EXPECT_EQ(invalid_crcs("plain-dict-uncompressed-checksum.parquet"), P{});
  auto dict = invalid_crcs("rle-dict-uncompressed-corrupt-checksum.parquet");
  ASSERT_EQ(dict.size(), 2u);
  EXPECT_EQ(dict[0].second, 0u);  // both dictionary pages
  EXPECT_EQ(dict[1].second, 0u);
}

TEST(PageReader, CrcMismatchNamesColumnRowGroupAndPage) {
  auto reader = open("datapage_v1-corrupt-checksum.parquet");
  PageReader pages(reader->input(), reader->metadata(), 0, 1, "b");
  PageInfo page;
  ASSERT_TRUE(pages.next(page));
  try {
    pages.next(page);
    FAIL() << "no CRC error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("column b, row group 0, page 1"));
    EXPECT_THAT(e.what(), HasSubstr("page CRC mismatch"));
  }
}

TEST(PageReader, EveryCorpusPageDecompresses) {
  std::map<format::CompressionCodec, size_t> pages_by_codec;
  size_t chunks = 0;
  for (const auto& path : testing::parquet_files(corpus_dir() / "data")) {
    std::string name = path.filename().string();
    if (name.find(".encrypted") != std::string::npos) continue;
    if (name == "nation.dict-malformed.parquet") continue;    // checked below
    if (name == "large_string_map.brotli.parquet") continue;  // 1 GiB strings; checked below
    auto reader = FileReader::open(path.string());
    PageReaderOptions options;
    options.verify_crc = name.find("corrupt-checksum") == std::string::npos;
    const auto& md = reader->metadata();
    for (size_t g = 0; g < md.row_groups.size(); ++g) {
      for (size_t c = 0; c < reader->schema().num_columns(); ++c) {
        PageReader pages(reader->input(), md, g, c, reader->schema().column(c).dotted_path(), options);
        ++chunks;
        PageInfo page;
        int64_t values = 0;
        while (pages.next(page)) {
          auto bytes = pages.decompress(page);
          EXPECT_EQ(bytes.size(), static_cast<size_t>(page.header.uncompressed_page_size)) << name;
          ++pages_by_codec[pages.metadata().codec];
          if (page.header.data_page_header) values += page.header.data_page_header->num_values;
          if (page.header.data_page_header_v2) values += page.header.data_page_header_v2->num_values;
        }
        EXPECT_EQ(values, pages.metadata().num_values) << name << " column " << c;
      }
    }
  }
  EXPECT_GT(chunks, 500u);
  for (auto codec :
       {format::CompressionCodec::UNCOMPRESSED, format::CompressionCodec::SNAPPY, format::CompressionCodec::GZIP,
        format::CompressionCodec::ZSTD, format::CompressionCodec::LZ4, format::CompressionCodec::LZ4_RAW})
    EXPECT_GT(pages_by_codec[codec], 0u) << format::to_string(codec);
}

TEST(PageReader, LargePagesAreRefusedBeyondTheLimit) {
  // Each page of this file decompresses to more than 1 GiB; a smaller limit
  // makes the reader refuse before allocating.
  auto reader = open("large_string_map.brotli.parquet");
  PageReaderOptions options;
  options.max_page_bytes = 64 << 20;
  PageReader pages(reader->input(), reader->metadata(), 0, 0, "arr", options);
  PageInfo page;
  bool refused = false;
  while (pages.next(page)) {
    try {
      pages.decompress(page);
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("exceeds the limit"));
      refused = true;
    }
  }
  EXPECT_TRUE(refused);
}

TEST(PageReader, MalformedChunksFailCleanly) {
  auto reader = open("nation.dict-malformed.parquet");
  PageReader pages(reader->input(), reader->metadata(), 0, 1, "name");
  PageInfo page;
  EXPECT_THAT(
      [&] {
        try {
          while (pages.next(page)) pages.decompress(page);
        } catch (const Error& e) {
          return std::string(e.what());
        }
        return std::string("no error");
      }(),
      HasSubstr("run past the end of the column chunk"));
}

TEST(PageReader, EncryptedColumnsNeedAKey) {
  auto reader =
      FileReader::open((corpus_dir() / "data" / "encrypt_columns_plaintext_footer.parquet.encrypted").string());
  int encrypted = 0;
  for (size_t c = 0; c < reader->schema().num_columns(); ++c) {
    if (!reader->metadata().row_groups[0].columns[c].crypto_metadata) continue;
    ++encrypted;
    EXPECT_THROW(PageReader(reader->input(), reader->metadata(), 0, c, "x"), Error);
  }
  EXPECT_GT(encrypted, 0);
}

TEST(PageReader, ZeroValueChunksHaveNoPages) {
  auto reader = open("column_chunk_key_value_metadata.parquet");
  PageReader pages(reader->input(), reader->metadata(), 0, 0, "column1");
  PageInfo page;
  EXPECT_FALSE(pages.next(page));
}

TEST(ChunkRange, OutsideTheFileIsAnError) {
  format::FileMetaData md;
  md.row_groups.resize(1);
  md.row_groups[0].columns.resize(1);
  auto& cmd = md.row_groups[0].columns[0].meta_data.emplace();
  cmd.data_page_offset = 100;
  cmd.total_compressed_size = 50;
  EXPECT_EQ(chunk_range(md, 0, 0, 1000).offset, 100u);
  EXPECT_THROW(chunk_range(md, 0, 0, 120), Error);
  cmd.total_compressed_size = -1;
  EXPECT_THROW(chunk_range(md, 0, 0, 1000), Error);
  cmd.total_compressed_size = 50;
  cmd.dictionary_page_offset = 40;
  EXPECT_EQ(chunk_range(md, 0, 0, 1000).offset, 40u);
  md.created_by = "parquet-mr version 1.2.8 (build abc)";
  EXPECT_EQ(chunk_range(md, 0, 0, 1000).length, 50u + 100u);  // PARQUET-816 padding
  md.created_by = "parquet-mr version 1.2.9 (build abc)";
  EXPECT_EQ(chunk_range(md, 0, 0, 1000).length, 50u);
}

// Pages decompress into a buffer of the reader's that no one else holds
// (the one before last, the last having been let go); a page that
// something still holds (a view of its values) is left alone.
TEST(PageReader, PagesReuseABufferNoOneHolds) {
  const Schema schema = parse_schema_text("message m { required int64 v; }");
  RecordBatch batch;
  batch.num_rows = 4000;
  Array v;
  v.name = "v";
  v.type = schema.column(0).type;
  v.length = batch.num_rows;
  for (int64_t i = 0; i < batch.num_rows; ++i) v.values.append_value(i * i % 1000);
  batch.columns.push_back(std::move(v));
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  WriteOptions options;
  options.dictionary = false;
  options.page_rows = 1000;
  options.min_compression_saving = 0;
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  auto file = FileReader::open(io::memory_input(sink->buffer().span()));
  PageReader pages(file->input(), file->metadata(), 0, 0, "v");
  PageInfo page;
  std::vector<const uint8_t*> at;
  std::shared_ptr<const void> held;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(pages.next(page));
    at.push_back(pages.decompress(page).data());
    ASSERT_NE(pages.page_owner(), nullptr);
    if (i == 0) held = pages.page_owner();
  }
  EXPECT_NE(at[1], at[0]);  // page 0 is held
  EXPECT_EQ(at[2], at[1]);  // page 1 is not
  EXPECT_EQ(at[3], at[1]);
  EXPECT_EQ(std::as_const(*static_cast<const Buffer*>(held.get())).data(), at[0]);
}

}  // namespace
}  // namespace parq
