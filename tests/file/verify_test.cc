// verify_file: files the writer produces, in many layouts, verify clean;
// the same files with one thing broken (a page's bytes, a statistics bound,
// an offset index location, a dictionary's size, the chunk bytes' end)
// report that problem at its row group, column and page; the corpus's good
// files verify clean except those that really have a problem (asserted
// here, each with why), and its bad files report problems without failing.
#include "parq/file/verify.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "json_batch.h"
#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/schema_text.h"
#include "test_paths.h"

namespace parq {
namespace {

using ::testing::HasSubstr;

const char* kSchema =
    "message m { required int64 id; optional binary s (STRING); optional group l (LIST) {"
    " repeated group list { optional int32 element; } } optional double d; optional boolean b;"
    " optional group st { optional int32 x; required binary y (STRING); } }";

// 300 rows with nulls at every level, repeats for the dictionary, and
// strings long enough that bounds are truncated.
std::vector<std::string> sample_rows() {
  std::vector<std::string> rows;
  for (int i = 0; i < 300; ++i) {
    std::string row = "{\"id\":" + std::to_string(i * 7 - 1000);
    row += i % 5 == 0 ? ",\"s\":null" : ",\"s\":\"" + std::string(static_cast<size_t>(i % 90), 'a' + i % 3) + "\"";
    if (i % 11 == 0)
      row += ",\"l\":null";
    else if (i % 13 == 0)
      row += ",\"l\":[]";
    else
      row += ",\"l\":[" + std::to_string(i % 4) + ",null," + std::to_string(-i) + "]";
    row += i % 7 == 0 ? ",\"d\":null" : ",\"d\":" + std::to_string(i * 0.25 - 10);
    row += i % 3 == 0 ? ",\"b\":null" : std::string(",\"b\":") + (i % 2 ? "true" : "false");
    row += i % 9 == 0 ? ",\"st\":null"
                      : ",\"st\":{\"x\":" + std::to_string(i % 17) + ",\"y\":\"k" + std::to_string(i % 5) + "\"}";
    rows.push_back(row + "}");
  }
  return rows;
}

std::string write_file(const WriteOptions& options) {
  const Schema schema = parse_schema_text(kSchema);
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(testing::batch_from_json(schema, sample_rows()));
  writer->close();
  return std::string(sink->take().view());
}

// Several row groups of several pages each, stored as they are encoded, so
// that a test can find and change a page's bytes.
WriteOptions small_pages() {
  WriteOptions options;
  options.page_rows = 40;
  options.row_group_rows = 120;
  options.max_statistics_bytes = 16;
  options.codec = {format::CompressionCodec::UNCOMPRESSED, 0};
  return options;
}

std::unique_ptr<FileReader> open_bytes(const std::string& bytes, const ReaderOptions& options = {}) {
  return FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "f"),
                          options);
}

VerifyReport verify_bytes(const std::string& bytes, const ReaderOptions& options = {}) {
  return verify_file(*open_bytes(bytes, options));
}

std::string listing(const VerifyReport& report) {
  std::string out;
  for (const VerifyProblem& p : report.problems) out += p.to_string() + "\n";
  return out;
}

// The first problem whose text has `what`, or null.
const VerifyProblem* find_problem(const VerifyReport& report, const std::string& what) {
  for (const VerifyProblem& p : report.problems)
    if (p.what.find(what) != std::string::npos) return &p;
  return nullptr;
}

// The pages of chunk (row_group, column) as the page reader finds them.
std::vector<PageInfo> pages_of(const std::string& bytes, size_t row_group, size_t column) {
  auto file = open_bytes(bytes);
  PageReaderOptions options;
  options.verify_crc = false;
  PageReader reader(file->input(), file->metadata(), row_group, column, "c", options);
  std::vector<PageInfo> pages;
  PageInfo page;
  while (reader.next(page)) pages.push_back(page);
  return pages;
}

const PageInfo& data_page(const std::vector<PageInfo>& pages, size_t ordinal) {
  size_t seen = 0;
  for (const PageInfo& p : pages) {
    if (p.header.type != format::PageType::DATA_PAGE && p.header.type != format::PageType::DATA_PAGE_V2) continue;
    if (seen++ == ordinal) return p;
  }
  throw std::runtime_error("no data page " + std::to_string(ordinal));
}

// The file with its footer replaced by `metadata`, and `extra` bytes put
// before it, where the old footer started (FileReader::footer's
// metadata_offset).
std::string with_footer(const std::string& bytes, const format::FileMetaData& metadata, const std::string& extra = "") {
  uint32_t length = 0;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  std::string out = bytes.substr(0, bytes.size() - 8 - length) + extra;
  file::append_footer(metadata, out);
  return out;
}

TEST(Verify, CleanFilesInManyLayouts) {
  using format::CompressionCodec;
  for (CompressionCodec codec :
       {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP, CompressionCodec::BROTLI,
        CompressionCodec::LZ4, CompressionCodec::ZSTD, CompressionCodec::LZ4_RAW}) {
    for (int version : {1, 2}) {
      for (bool dictionary : {true, false}) {
        WriteOptions options = small_pages();
        options.codec = {codec, compression::kDefaultLevel};
        options.page_version = version;
        options.dictionary = dictionary;
        options.page_index = version == 1 || dictionary;
        options.page_crc = !dictionary;
        options.float_total_order = codec == CompressionCodec::ZSTD;
        options.columns["s"].bloom_filter = BloomFilterOptions{};
        options.columns["id"].bloom_filter = BloomFilterOptions{};
        const VerifyReport report = verify_bytes(write_file(options));
        SCOPED_TRACE(std::string(format::to_string(codec)) + " v" + std::to_string(version) +
                     (dictionary ? " dictionary" : ""));
        EXPECT_TRUE(report.clean()) << listing(report);
        // 3 row groups of 7 leaves, every page read.
        EXPECT_EQ(report.chunks, 21);
        EXPECT_GE(report.pages, 21 * 2);
      }
    }
  }
}

TEST(Verify, OneRowGroupOnePageAndColumnsChosen) {
  WriteOptions options;
  options.statistics = false;
  const std::string bytes = write_file(options);
  EXPECT_TRUE(verify_bytes(bytes).clean());
  auto file = open_bytes(bytes);
  VerifyOptions only;
  only.columns = {0, 3};
  const VerifyReport report = verify_file(*file, only);
  EXPECT_TRUE(report.clean()) << listing(report);
  EXPECT_EQ(report.chunks, 2);
}

TEST(Verify, PagePayloadChangedIsACrcProblem) {
  const std::string clean = write_file(small_pages());
  const PageInfo page = data_page(pages_of(clean, 1, 0), 1);
  std::string bytes = clean;
  // The last byte of the page: an id value's most significant byte.
  bytes[page.header_offset + page.header_size + page.payload.size() - 1] ^= 0x40;
  const VerifyReport report = verify_bytes(bytes);
  const VerifyProblem* p = find_problem(report, "page CRC mismatch");
  ASSERT_NE(p, nullptr) << listing(report);
  EXPECT_EQ(p->where.row_group, 1);
  EXPECT_EQ(p->where.column, "id");
  EXPECT_EQ(p->where.page, static_cast<int64_t>(page.index));
  EXPECT_EQ(p->where.offset, static_cast<int64_t>(page.header_offset));
  EXPECT_EQ(report.problem_count, static_cast<int64_t>(report.problems.size()));
}

TEST(Verify, StatisticsMaxBelowTheValues) {
  const std::string clean = write_file(small_pages());
  auto file = open_bytes(clean);
  format::FileMetaData md = file->metadata();
  // Column d (DOUBLE) of row group 2: a max below every value.
  format::Statistics& st = *md.row_groups[2].columns[3].meta_data->statistics;
  const double low = -1e9;
  st.max_value = std::string(reinterpret_cast<const char*>(&low), 8);
  const VerifyReport report = verify_bytes(with_footer(clean, md));
  ASSERT_EQ(report.problem_count, 1) << listing(report);
  const VerifyProblem& p = report.problems[0];
  EXPECT_EQ(p.where.row_group, 2);
  EXPECT_EQ(p.where.column, "d");
  EXPECT_EQ(p.where.page, -1);
  EXPECT_THAT(p.what, HasSubstr("chunk statistics: max is -1e9"));
  EXPECT_THAT(p.what, HasSubstr("below the greatest value"));
}

TEST(Verify, StatisticsNullCountWrong) {
  const std::string clean = write_file(small_pages());
  auto file = open_bytes(clean);
  format::FileMetaData md = file->metadata();
  *md.row_groups[0].columns[1].meta_data->statistics->null_count += 1;
  const VerifyReport report = verify_bytes(with_footer(clean, md));
  ASSERT_EQ(report.problem_count, 1) << listing(report);
  EXPECT_EQ(report.problems[0].where.column, "s");
  EXPECT_THAT(report.problems[0].what, HasSubstr("null_count is"));
}

// A chunk's index of `kind` (ColumnIndex or OffsetIndex) as stored.
template <typename Index>
Index stored_index(const FileReader& file, int64_t offset, int32_t length) {
  const auto stored = io::ByteRange::read(file.input(), static_cast<uint64_t>(offset), static_cast<size_t>(length));
  Index index;
  format::decode_thrift(stored.data(), stored.size(), index, 0);
  return index;
}

// The file with the offset index of chunk (row_group, column) changed by
// `change`, stored before the footer.
template <typename Change>
std::string with_offset_index(const std::string& clean, size_t row_group, size_t column, Change change) {
  auto file = open_bytes(clean);
  format::FileMetaData md = file->metadata();
  format::ColumnChunk& chunk = md.row_groups[row_group].columns[column];
  auto index = stored_index<format::OffsetIndex>(*file, *chunk.offset_index_offset, *chunk.offset_index_length);
  change(index);
  std::string encoded;
  format::encode_thrift(index, encoded);
  chunk.offset_index_offset = static_cast<int64_t>(file->footer().metadata_offset);
  chunk.offset_index_length = static_cast<int32_t>(encoded.size());
  return with_footer(clean, md, encoded);
}

TEST(Verify, OffsetIndexLocationShifted) {
  const std::string clean = write_file(small_pages());
  const int64_t true_offset = static_cast<int64_t>(data_page(pages_of(clean, 1, 3), 1).header_offset);
  // The second page said to start 1 byte late (and to be 1 byte shorter):
  // still after page 0 and before page 2, so the index decodes.
  const VerifyReport late = verify_bytes(with_offset_index(clean, 1, 3, [](format::OffsetIndex& index) {
    index.page_locations.at(1).offset += 1;
    index.page_locations.at(1).compressed_page_size -= 1;
  }));
  const VerifyProblem* p = find_problem(late, "offset index: page offset");
  ASSERT_NE(p, nullptr) << listing(late);
  EXPECT_EQ(p->where.row_group, 1);
  EXPECT_EQ(p->where.column, "d");
  EXPECT_EQ(p->where.offset, true_offset);
  EXPECT_THAT(p->what, HasSubstr("page offset " + std::to_string(true_offset + 1)));
  EXPECT_NE(find_problem(late, "offset index: compressed_page_size"), nullptr) << listing(late);
  // A byte early, it overlaps page 0: the index fails its validation, and
  // that is the problem reported.
  const VerifyReport early = verify_bytes(
      with_offset_index(clean, 1, 3, [](format::OffsetIndex& index) { index.page_locations.at(1).offset -= 1; }));
  ASSERT_EQ(early.problem_count, 1) << listing(early);
  EXPECT_EQ(early.problems[0].where.column, "d");
  EXPECT_THAT(early.problems[0].what, HasSubstr("page index: offset index: page 1"));
  // The first row of page 2 moved.
  const VerifyReport rows = verify_bytes(with_offset_index(
      clean, 1, 3, [](format::OffsetIndex& index) { index.page_locations.at(2).first_row_index += 1; }));
  const VerifyProblem* r = find_problem(rows, "offset index: first_row_index");
  ASSERT_NE(r, nullptr) << listing(rows);
  EXPECT_EQ(r->where.page, static_cast<int64_t>(data_page(pages_of(clean, 1, 3), 2).index));
}

TEST(Verify, DictionaryIndexOutOfRange) {
  WriteOptions options = small_pages();
  options.page_crc = false;
  const std::string clean = write_file(options);
  // Column st.y ("k0".."k4", a dictionary of 5) in row group 0: its
  // dictionary page said to hold 1 entry, the same header size.
  const std::vector<PageInfo> pages = pages_of(clean, 0, 6);
  ASSERT_EQ(pages[0].header.type, format::PageType::DICTIONARY_PAGE);
  format::PageHeader header = pages[0].header;
  ASSERT_EQ(header.dictionary_page_header->num_values, 5);
  header.dictionary_page_header->num_values = 1;
  std::string encoded;
  format::encode_thrift(header, encoded);
  ASSERT_EQ(encoded.size(), pages[0].header_size);
  std::string bytes = clean;
  bytes.replace(pages[0].header_offset, encoded.size(), encoded);
  const VerifyReport report = verify_bytes(bytes);
  const VerifyProblem* p = find_problem(report, "out of range for a dictionary of 1 entries");
  ASSERT_NE(p, nullptr) << listing(report);
  EXPECT_EQ(p->where.row_group, 0);
  EXPECT_EQ(p->where.column, "st.y");
  EXPECT_EQ(p->where.page, 1);
}

TEST(Verify, ChunkBytesCutShort) {
  WriteOptions options = small_pages();
  options.page_index = false;
  const std::string clean = write_file(options);
  auto file = open_bytes(clean);
  const uint64_t data_end = file->footer().metadata_offset;
  // The data loses its last 10 bytes (the end of the last chunk); the
  // footer, unchanged, still says they are there.
  const std::string bytes = clean.substr(0, data_end - 10) + clean.substr(data_end);
  const VerifyReport report = verify_bytes(bytes);
  ASSERT_FALSE(report.clean());
  const VerifyProblem* p = find_problem(report, "is outside the file's data");
  ASSERT_NE(p, nullptr) << listing(report);
  EXPECT_EQ(p->where.row_group, 2);
  EXPECT_EQ(p->where.column, "st.y");
}

TEST(Verify, FileRowCountWrong) {
  const std::string clean = write_file(small_pages());
  format::FileMetaData md = open_bytes(clean)->metadata();
  md.num_rows = 299;
  const VerifyReport report = verify_bytes(with_footer(clean, md));
  ASSERT_EQ(report.problem_count, 1) << listing(report);
  EXPECT_THAT(report.problems[0].what, HasSubstr("FileMetaData.num_rows is 299, the row groups hold 300"));
  EXPECT_EQ(report.problems[0].where.row_group, -1);
}

TEST(Verify, RowGroupRowsAndValuesWrong) {
  const std::string clean = write_file(small_pages());
  format::FileMetaData md = open_bytes(clean)->metadata();
  md.row_groups[0].num_rows += 1;
  md.num_rows += 1;
  md.row_groups[1].columns[2].meta_data->num_values += 5;
  const VerifyReport report = verify_bytes(with_footer(clean, md));
  const VerifyProblem* rows = find_problem(report, "the row group has 121 rows, the chunk's pages 120");
  ASSERT_NE(rows, nullptr) << listing(report);
  EXPECT_EQ(rows->where.row_group, 0);
  const VerifyProblem* values = find_problem(report, "ColumnMetaData.num_values is");
  ASSERT_NE(values, nullptr) << listing(report);
  EXPECT_EQ(values->where.row_group, 1);
  EXPECT_EQ(values->where.column, "l.list.element");
}

TEST(Verify, ColumnIndexMinAboveAPagesValues) {
  const std::string clean = write_file(small_pages());
  auto file = open_bytes(clean);
  format::FileMetaData md = file->metadata();
  format::ColumnChunk& chunk = md.row_groups[0].columns[0];
  auto index = stored_index<format::ColumnIndex>(*file, *chunk.column_index_offset, *chunk.column_index_length);
  ASSERT_GE(index.min_values.size(), 3u);
  // Page 2's min raised above its least id (one row above it).
  int64_t min = 0;
  std::memcpy(&min, index.min_values[2].data(), 8);
  min += 7;
  std::memcpy(index.min_values[2].data(), &min, 8);
  std::string encoded;
  format::encode_thrift(index, encoded);
  chunk.column_index_offset = static_cast<int64_t>(file->footer().metadata_offset);
  chunk.column_index_length = static_cast<int32_t>(encoded.size());
  const VerifyReport report = verify_bytes(with_footer(clean, md, encoded));
  ASSERT_EQ(report.problem_count, 1) << listing(report);
  EXPECT_EQ(report.problems[0].where.column, "id");
  // Data page 2, after the dictionary page.
  EXPECT_EQ(report.problems[0].where.page, static_cast<int64_t>(data_page(pages_of(clean, 0, 0), 2).index));
  EXPECT_THAT(report.problems[0].what, HasSubstr("column index: min is " + std::to_string(min)));
}

TEST(Verify, BloomFilterOutsideTheFile) {
  WriteOptions options = small_pages();
  options.columns["id"].bloom_filter = BloomFilterOptions{};
  const std::string clean = write_file(options);
  format::FileMetaData md = open_bytes(clean)->metadata();
  md.row_groups[1].columns[0].meta_data->bloom_filter_offset = static_cast<int64_t>(clean.size()) * 2;
  const VerifyReport report = verify_bytes(with_footer(clean, md));
  const VerifyProblem* p = find_problem(report, "bloom_filter_offset");
  ASSERT_NE(p, nullptr) << listing(report);
  EXPECT_EQ(p->where.row_group, 1);
  EXPECT_EQ(p->where.column, "id");
}

TEST(Verify, EncryptedColumnsNeedTheirKeys) {
  WriteOptions options = small_pages();
  crypto::EncryptionOptions encryption;
  encryption.footer_key = "0123456789012345";
  encryption.encrypted_footer = false;
  encryption.column_keys["d"] = {"1234567890123450", "kd"};
  options.encryption = encryption;
  const std::string bytes = write_file(options);
  // Without keys: the plaintext columns verify, each chunk of d is a problem.
  const VerifyReport without = verify_bytes(bytes);
  EXPECT_EQ(without.problem_count, 3) << listing(without);
  for (const VerifyProblem& p : without.problems) {
    EXPECT_EQ(p.where.column, "d");
    EXPECT_THAT(p.what, HasSubstr("key"));
  }
  ReaderOptions keys;
  keys.footer.decryption.footer_key = encryption.footer_key;
  keys.footer.decryption.column_keys = {{"d", "1234567890123450"}};
  const VerifyReport with = verify_bytes(bytes, keys);
  EXPECT_TRUE(with.clean()) << listing(with);
  EXPECT_EQ(with.chunks, 21);
}

TEST(Verify, CorpusEncryptedFilesWithTheirKeys) {
  for (const char* name :
       {"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted",
        "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    ReaderOptions keys;
    keys.footer.decryption.footer_key = "0123456789012345";
    keys.footer.decryption.column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
    const VerifyReport report = verify_file(*FileReader::open((testing::corpus_dir() / "data" / name).string(), keys));
    EXPECT_TRUE(report.clean()) << listing(report);
    EXPECT_GT(report.pages, 0);
  }
}

// Corpus files that really have a problem, and what it is.
const std::map<std::string, std::vector<std::string>> kCorpusProblems = {
    // Written to have them: the CRCs do not match the pages.
    {"datapage_v1-corrupt-checksum.parquet", {"page CRC mismatch", "negative null count"}},
    {"rle-dict-uncompressed-corrupt-checksum.parquet", {"page CRC mismatch"}},
    // The parquet-java test that wrote these put -1 (unknown) in the column
    // index's null_counts, which the format does not allow.
    {"datapage_v1-uncompressed-checksum.parquet", {"negative null count"}},
    // Written to be malformed: the dictionary page's size is wrong.
    {"nation.dict-malformed.parquet", {"run past the end of the column chunk"}},
    // The writer left FileMetaData.num_rows at 0.
    {"repeated_no_annotation.parquet", {"FileMetaData.num_rows is 0, the row groups hold 6"}},
};

// Verifies each corpus file of `folder` and hands its report to `check`;
// a file that does not open must fail with `open_error`. Returns how many
// files there were.
template <typename Check>
int verify_corpus(const char* folder, ErrorKind open_error, Check check) {
  int files = 0;
  for (const auto& path : testing::parquet_files(testing::corpus_dir() / folder)) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    ++files;
    std::unique_ptr<FileReader> file;
    try {
      file = FileReader::open(path.string());
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), open_error) << e.what();
      continue;
    }
    check(name, verify_file(*file));
  }
  return files;
}

TEST(Verify, CorpusGoodFiles) {
  // Those that do not open need keys (an encrypted footer).
  const int files = verify_corpus("data", ErrorKind::kUnsupported, [](const std::string& name, const VerifyReport& r) {
    auto expected = kCorpusProblems.find(name);
    if (expected == kCorpusProblems.end()) {
      // Encrypted columns without keys are the only problem allowed.
      for (const VerifyProblem& p : r.problems) EXPECT_THAT(p.what, HasSubstr("key")) << p.to_string();
      return;
    }
    EXPECT_FALSE(r.clean());
    for (const std::string& what : expected->second)
      EXPECT_NE(find_problem(r, what), nullptr) << what << "\n" << listing(r);
  });
  EXPECT_GT(files, 50);
}

TEST(Verify, CorpusBadFilesReportProblems) {
  // GH-43605's bit width of 0 is a valid RLE run of index 0: nothing a
  // reader meets is wrong with it.
  const int files = verify_corpus("bad_data", ErrorKind::kCorrupt, [](const std::string& name, const VerifyReport& r) {
    EXPECT_EQ(r.clean(), name == "ARROW-GH-43605.parquet") << listing(r);
  });
  EXPECT_GE(files, 8);
}

}  // namespace
}  // namespace parq
