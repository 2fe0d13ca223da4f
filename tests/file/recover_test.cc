// Checkpointed writing and recovery: a checkpointed file reads as the same
// file written without checkpoints; a file cut at any byte gives back every
// row group a checkpoint lists and every one whose pages are all there, and
// the rows it gives back are the file's first rows, exactly.
#include "parq/file/recover.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/checkpoint.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/file/footer.h"
#include "parq/filter/expression.h"
#include "parq/io/input.h"
#include "rows_text.h"
#include "test_paths.h"

namespace parq::file {
namespace {

using parq::testing::corpus_dir;
using parq::testing::rows_of;
using parq::testing::TempDir;
using ::testing::HasSubstr;

// Every batch of a corpus file, written `copies` times.
void write_copies(const std::string& corpus_file, int copies, const std::string& out, WriteOptions options,
                  int64_t batch_rows = 65536) {
  auto source_file = FileReader::open((corpus_dir() / "data" / corpus_file).string());
  std::vector<RecordBatch> batches;
  ReadOptions read;
  read.batch_rows = batch_rows;
  auto source = read_batches(*source_file, read);
  for (RecordBatch b; source->next(b);) batches.push_back(std::move(b));
  auto writer = FileWriter::open(out, source_file->schema(), std::move(options));
  for (int i = 0; i < copies; ++i)
    for (const RecordBatch& b : batches) writer->write(b);
  writer->close();
}

std::string rows_in(const std::string& path) { return rows_of(*FileReader::open(path)); }

void cut(const std::string& from, uint64_t size, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  std::ofstream(to, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(size));
}

// Where each row group's last byte of column chunk data ends.
std::vector<uint64_t> row_group_ends(const format::FileMetaData& m) {
  std::vector<uint64_t> ends;
  for (const format::RowGroup& rg : m.row_groups) {
    uint64_t end = 0;
    for (const format::ColumnChunk& c : rg.columns) {
      const format::ColumnMetaData& md = *c.meta_data;
      const int64_t start = md.dictionary_page_offset.value_or(md.data_page_offset);
      end = std::max(end, static_cast<uint64_t>(start + md.total_compressed_size));
    }
    ends.push_back(end);
  }
  return ends;
}

// The first `n` lines of JSON Lines text.
std::string first_lines(const std::string& text, int64_t n) {
  size_t at = 0;
  for (int64_t i = 0; i < n; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at);
}

struct Layout {
  const char* corpus_file;
  int copies;
  bool checkpoints;
  int page_version;
};

class RecoverAtEveryCut : public ::testing::TestWithParam<Layout> {};

// Cut at many places (each row group's end and the bytes around it, and
// random ones), the recovered file holds exactly the row groups that were
// whole, and their rows are the original's first rows.
TEST_P(RecoverAtEveryCut, GivesBackEveryWholeRowGroup) {
  const Layout layout = GetParam();
  TempDir dir("recover");
  WriteOptions options;
  options.row_group_rows = 700;
  options.page_rows = 150;
  options.page_version = layout.page_version;
  options.columns["id"].dictionary = false;  // a chunk without a dictionary page, where it has such a column
  if (std::string(layout.corpus_file) != "alltypes_tiny_pages.parquet") options.columns.clear();
  if (layout.checkpoints) options.checkpoint = CheckpointOptions{.row_groups = 2};
  const std::string original = dir / "original.parquet";
  write_copies(layout.corpus_file, layout.copies, original, options);
  auto reader = FileReader::open(original);
  const format::FileMetaData metadata = reader->metadata();
  ASSERT_GT(metadata.row_groups.size(), 4u);
  const std::string all_rows = rows_in(original);
  const std::vector<uint64_t> ends = row_group_ends(metadata);
  const uint64_t size = std::filesystem::file_size(original);
  std::vector<uint64_t> checkpoint_ends;
  {
    auto input = io::open_file(original);
    uint64_t end = size;
    while (auto c = find_last_checkpoint(*input, end)) {
      checkpoint_ends.push_back(c->end);
      end = c->offset;
    }
  }
  EXPECT_EQ(checkpoint_ends.empty(), !layout.checkpoints);

  std::vector<uint64_t> cuts = {kMagicSize, size - 1, size - 8};
  for (uint64_t e : ends)
    for (uint64_t c : {e - 1, e, e + 1, e + 20}) cuts.push_back(std::min(c, size - 1));
  std::mt19937_64 random(7);
  for (int i = 0; i < 20; ++i) cuts.push_back(kMagicSize + random() % (size - kMagicSize));

  // The schema is needed where no checkpoint was written yet, and unused
  // past the first.
  RecoverOptions recover_options;
  recover_options.schema_from = metadata;
  int with_rows = 0;
  for (uint64_t at : cuts) {
    SCOPED_TRACE("cut at " + std::to_string(at) + " of " + std::to_string(size));
    const std::string broken = dir / "broken.parquet", recovered = dir / "recovered.parquet";
    cut(original, at, broken);
    auto input = io::open_file(broken);
    const RecoveryReport report = recover_file(*input, recovered, recover_options);
    size_t whole_groups = 0;
    int64_t whole_rows = 0;
    while (whole_groups < ends.size() && ends[whole_groups] <= at)
      whole_rows += metadata.row_groups[whole_groups++].num_rows;
    EXPECT_FALSE(report.whole);
    EXPECT_EQ(report.found_checkpoint,
              std::any_of(checkpoint_ends.begin(), checkpoint_ends.end(), [&](uint64_t e) { return e <= at; }));
    EXPECT_EQ(report.checkpoint_row_groups + report.scanned_row_groups, static_cast<int64_t>(whole_groups));
    EXPECT_EQ(report.rows, whole_rows);
    EXPECT_EQ(report.bytes_kept + report.bytes_lost, at);
    auto back = FileReader::open(recovered);
    EXPECT_EQ(back->metadata().num_rows, whole_rows);
    EXPECT_EQ(rows_of(*back), first_lines(all_rows, whole_rows));
    with_rows += whole_rows > 0;
  }
  EXPECT_GT(with_rows, 10);
}

INSTANTIATE_TEST_SUITE_P(Layouts, RecoverAtEveryCut,
                         ::testing::Values(Layout{"alltypes_tiny_pages.parquet", 1, true, 1},
                                           Layout{"alltypes_tiny_pages.parquet", 1, false, 1},
                                           Layout{"alltypes_tiny_pages.parquet", 1, false, 2},
                                           Layout{"list_columns.parquet", 1000, true, 1},
                                           Layout{"list_columns.parquet", 1000, false, 1},
                                           Layout{"list_columns.parquet", 1000, false, 2}));

TEST(Checkpoint, AFinishedFileReadsAsTheSameFileWithoutCheckpoints) {
  TempDir dir("checkpoint");
  WriteOptions plain;
  plain.row_group_rows = 1000;
  plain.columns["int_col"].bloom_filter = BloomFilterOptions{};
  WriteOptions checkpointed = plain;
  checkpointed.checkpoint = CheckpointOptions{.row_groups = 3};
  write_copies("alltypes_tiny_pages.parquet", 1, dir / "plain.parquet", plain);
  write_copies("alltypes_tiny_pages.parquet", 1, dir / "checkpointed.parquet", checkpointed);
  EXPECT_EQ(rows_in(dir / "checkpointed.parquet"), rows_in(dir / "plain.parquet"));
  auto input = io::open_file(dir / "checkpointed.parquet");
  const Footer footer = read_footer(*input);
  ASSERT_EQ(footer.metadata.row_groups.size(), 8u);
  // Checkpoints after row groups 3 and 6; the last two end with the footer.
  std::optional<Checkpoint> last = find_last_checkpoint(*input, input->size());
  ASSERT_TRUE(last);
  EXPECT_EQ(last->metadata.row_groups.size(), 6u);
  std::optional<Checkpoint> earlier = find_last_checkpoint(*input, last->offset);
  ASSERT_TRUE(earlier);
  EXPECT_EQ(earlier->metadata.row_groups.size(), 3u);
  EXPECT_FALSE(find_last_checkpoint(*input, earlier->offset));
  // A checkpoint's page indexes and bloom filters are those of the file.
  for (size_t g = 0; g < 6; ++g)
    for (size_t c = 0; c < footer.metadata.row_groups[g].columns.size(); ++c)
      EXPECT_EQ(last->metadata.row_groups[g].columns[c], footer.metadata.row_groups[g].columns[c]);
  // A filter that uses the page index and bloom filters reads the same rows.
  ReadOptions filtered;
  filtered.filter = filter::Expression::compare("int_col", filter::CompareOp::kEqual, filter::Literal::number("3"));
  EXPECT_EQ(rows_of(*FileReader::open(dir / "checkpointed.parquet"), filtered),
            rows_of(*FileReader::open(dir / "plain.parquet"), filtered));
}

TEST(Checkpoint, AByteLimitEndsRowGroupsEarly) {
  TempDir dir("checkpoint");
  WriteOptions options;
  options.checkpoint = CheckpointOptions{.bytes = 40000};
  options.page_rows = 500;  // bytes are counted as pages fill
  write_copies("alltypes_tiny_pages.parquet", 2, dir / "f.parquet", options, 500);
  auto input = io::open_file(dir / "f.parquet");
  const Footer footer = read_footer(*input);
  EXPECT_GT(footer.metadata.row_groups.size(), 3u);
  std::optional<Checkpoint> last = find_last_checkpoint(*input, input->size());
  ASSERT_TRUE(last);
  // No more than the limit (and a row group's slice) went unprotected.
  EXPECT_LE(footer.metadata_offset - last->end, 3 * 40000u);
}

// Opening a checkpointed writer with `options` on a file already there is
// an error saying `why`, and the file keeps what it held.
void expect_refused_before_the_file_is_touched(const WriteOptions& options, const std::string& why) {
  TempDir dir("checkpoint");
  const std::string path = dir / "f.parquet";
  std::ofstream(path) << "precious";
  auto source_file = FileReader::open((corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string());
  try {
    FileWriter::open(path, source_file->schema(), options);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(why));
  }
  std::ifstream in(path);
  std::string kept;
  in >> kept;
  EXPECT_EQ(kept, "precious");
}

TEST(Checkpoint, IsRefusedWithEncryptionBeforeTheFileIsTouched) {
  WriteOptions options;
  options.checkpoint = CheckpointOptions{};
  options.encryption.emplace();
  options.encryption->footer_key = std::string(16, 'k');
  expect_refused_before_the_file_is_touched(options, "encrypted");
}

TEST(Checkpoint, NegativeLimitsAreRefusedBeforeTheFileIsTouched) {
  for (CheckpointOptions bad :
       {CheckpointOptions{.row_groups = -1}, CheckpointOptions{.bytes = -5}, CheckpointOptions{.seconds = -1.0}}) {
    WriteOptions options;
    options.checkpoint = bad;
    expect_refused_before_the_file_is_touched(options, "checkpoint limits must not be negative");
  }
}

TEST(Recover, NamesWhatItNeedsOrWhyItCannot) {
  TempDir dir("recover");
  write_copies("alltypes_tiny_pages.parquet", 1, dir / "f.parquet", {});
  cut(dir / "f.parquet", 100000, dir / "cut.parquet");
  auto input = io::open_file(dir / "cut.parquet");
  try {
    recover_file(*input, dir / "out.parquet");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("give the schema"));
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.parquet"));
  std::ofstream(dir / "text.parquet") << "not a parquet file at all";
  auto text = io::open_file(dir / "text.parquet");
  EXPECT_THROW(
      {
        try {
          recover_file(*text, dir / "out.parquet");
        } catch (const Error& e) {
          EXPECT_THAT(e.what(), HasSubstr("PAR1"));
          throw;
        }
      },
      Error);
  // A whole file comes back as it is.
  auto whole = io::open_file(dir / "f.parquet");
  const RecoveryReport report = recover_file(*whole, dir / "copy.parquet");
  EXPECT_TRUE(report.whole);
  EXPECT_EQ(parq::testing::read_file_bytes(dir / "copy.parquet"), parq::testing::read_file_bytes(dir / "f.parquet"));
}

// Bytes after a checkpoint that are no pages of the schema: the scan stops
// and says where, and the checkpoint's row groups come back.
TEST(Recover, StopsScanningAtBytesThatAreNoPages) {
  TempDir dir("recover");
  WriteOptions options;
  options.row_group_rows = 1000;
  options.checkpoint = CheckpointOptions{};
  write_copies("alltypes_tiny_pages.parquet", 1, dir / "f.parquet", options);
  auto input = io::open_file(dir / "f.parquet");
  std::optional<Checkpoint> last = find_last_checkpoint(*input, input->size());
  ASSERT_TRUE(last);
  std::vector<uint8_t> bytes = parq::testing::read_file_bytes(dir / "f.parquet");
  bytes.resize(last->end);
  std::mt19937 random(3);
  for (int i = 0; i < 5000; ++i) bytes.push_back(static_cast<uint8_t>(random()));
  std::ofstream(dir / "garbage.parquet", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto garbage = io::open_file(dir / "garbage.parquet");
  const RecoveryReport report = recover_file(*garbage, dir / "out.parquet");
  EXPECT_EQ(report.checkpoint_row_groups, static_cast<int64_t>(last->metadata.row_groups.size()));
  EXPECT_EQ(report.scanned_row_groups, 0);
  EXPECT_THAT(report.scan_stopped, HasSubstr("offset " + std::to_string(last->end)));
  EXPECT_EQ(FileReader::open(dir / "out.parquet")->metadata().num_rows, last->metadata.num_rows);
}

// A page claiming more than the scan's limit is taken for no page, before
// anything is allocated for it.
TEST(Recover, APageOverTheLimitEndsTheScan) {
  TempDir dir("recover");
  WriteOptions small_groups;
  small_groups.row_group_rows = 1000;
  write_copies("alltypes_tiny_pages.parquet", 1, dir / "f.parquet", small_groups);
  cut(dir / "f.parquet", 100000, dir / "cut.parquet");
  auto input = io::open_file(dir / "cut.parquet");
  RecoverOptions options;
  options.schema_from = FileReader::open(dir / "f.parquet")->metadata();
  options.max_page_bytes = 16;
  const RecoveryReport report = recover_file(*input, dir / "out.parquet", options);
  EXPECT_EQ(report.scanned_row_groups, 0);
  EXPECT_THAT(report.scan_stopped, HasSubstr("larger than the largest one scanned (16 bytes)"));
  options.max_page_bytes = uint64_t{1} << 30;
  options.max_page_values = 10;
  const RecoveryReport few_values = recover_file(*input, dir / "out.parquet", options);
  EXPECT_EQ(few_values.scanned_row_groups, 0);
  EXPECT_THAT(few_values.scan_stopped, HasSubstr("more values than the most scanned in a page (10)"));
  options.max_page_values = INT32_MAX;
  EXPECT_GT(recover_file(*input, dir / "out.parquet", options).scanned_row_groups, 0);
}

}  // namespace
}  // namespace parq::file
