// Row groups copied as they are (file/row_group_copy.h): concatenated files
// read as their inputs' rows in order, their chunks are the inputs' bytes,
// and their page indexes and bloom filters prune as the inputs' did;
// mismatched, encrypted, truncated and corrupt inputs are refused by name
// and leave no output; split pieces hold the rows they should, and merged
// files their inputs' rows re-encoded; copied row groups are checkpointed
// like written ones.
#include "parq/file/row_group_copy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/checkpoint.h"
#include "parq/file/merge.h"
#include "parq/file/page_index.h"
#include "parq/file/recover.h"
#include "parq/filter/expression.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"
#include "rows_text.h"
#include "test_paths.h"

namespace parq {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string corpus(const std::string& name) { return (testing::corpus_dir() / "data" / name).string(); }

// `in`'s rows written to `out` with `options` (its key-value metadata kept).
void write_copy(const std::string& in, const std::string& out, WriteOptions options) {
  auto file = FileReader::open(in);
  auto writer = FileWriter::open(out, file->schema(), std::move(options));
  auto source = read_batches(*file);
  writer->write_all(*source);
  writer->close();
}

std::string rows_of(const std::string& path, const ReadOptions& options = {}) {
  return testing::rows_of(*FileReader::open(path), options);
}

std::vector<uint8_t> chunk_bytes(const FileReader& file, size_t row_group, size_t column) {
  const ChunkRange range = chunk_range(file.metadata(), row_group, column, file.input().size());
  std::vector<uint8_t> bytes(range.length);
  file.input().read_at(range.offset, bytes.size(), bytes.data());
  return bytes;
}

// Every chunk of `out`, from row group `first_group` on, has the bytes of
// `in`'s chunk at the same place, and the same page index (page offsets
// rebased with the chunk).
void expect_copied(const FileReader& in, const FileReader& out, size_t first_group) {
  for (size_t g = 0; g < in.metadata().row_groups.size(); ++g) {
    for (size_t c = 0; c < in.schema().num_columns(); ++c) {
      SCOPED_TRACE(in.name() + " row group " + std::to_string(g) + " column " + std::to_string(c));
      EXPECT_EQ(chunk_bytes(in, g, c), chunk_bytes(out, first_group + g, c));
      // An input's index that fails its checks is not copied.
      std::optional<PageIndex> a;
      try {
        a = read_page_index(in, g, c);
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
      }
      const auto b = read_page_index(out, first_group + g, c);
      ASSERT_EQ(a.has_value(), b.has_value());
      if (!a) continue;
      EXPECT_EQ(a->column_index, b->column_index);
      ASSERT_EQ(a->offset_index.has_value(), b->offset_index.has_value());
      if (!a->offset_index) continue;
      const int64_t a_start = static_cast<int64_t>(chunk_range(in.metadata(), g, c, in.input().size()).offset);
      const int64_t b_start =
          static_cast<int64_t>(chunk_range(out.metadata(), first_group + g, c, out.input().size()).offset);
      const auto& pa = a->offset_index->page_locations;
      const auto& pb = b->offset_index->page_locations;
      ASSERT_EQ(pa.size(), pb.size());
      for (size_t p = 0; p < pa.size(); ++p) {
        EXPECT_EQ(pa[p].offset - a_start, pb[p].offset - b_start);
        EXPECT_EQ(pa[p].compressed_page_size, pb[p].compressed_page_size);
        EXPECT_EQ(pa[p].first_row_index, pb[p].first_row_index);
      }
    }
  }
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Files in `dir` (the temporary files a failed writer would leave included).
size_t files_in(const fs::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

class RowGroupCopy : public ::testing::Test {
 protected:
  // alltypes_tiny_pages in two layouts of several row groups, both with
  // page indexes and bloom filters: v1 pages with dictionaries, and v2
  // pages without, zstd.
  void SetUp() override {
    WriteOptions v1;
    v1.row_group_rows = 3000;
    v1.page_rows = 200;
    v1.columns["bigint_col"].bloom_filter = BloomFilterOptions{};
    v1.columns["string_col"].bloom_filter = BloomFilterOptions{};
    write_copy(corpus("alltypes_tiny_pages.parquet"), dict_v1_, v1);
    WriteOptions v2 = v1;
    v2.page_version = 2;
    v2.dictionary = false;
    v2.row_group_rows = 2500;
    v2.codec = {format::CompressionCodec::ZSTD, 3};
    write_copy(corpus("alltypes_tiny_pages.parquet"), plain_v2_, v2);
  }

  testing::TempDir dir_{"row-group-copy"};
  std::string dict_v1_ = dir_ / "dict_v1.parquet";
  std::string plain_v2_ = dir_ / "plain_v2.parquet";
};

TEST_F(RowGroupCopy, ConcatenatedLayoutsReadAsTheirRowsInOrder) {
  const std::string out = dir_ / "out.parquet";
  const ConcatResult result = concat_files({dict_v1_, plain_v2_, dict_v1_}, out);
  EXPECT_TRUE(result.without_statistics.empty());
  auto a = FileReader::open(dict_v1_);
  auto b = FileReader::open(plain_v2_);
  auto o = FileReader::open(out);
  const size_t ga = a->metadata().row_groups.size(), gb = b->metadata().row_groups.size();
  ASSERT_GT(ga, 1u);
  ASSERT_GT(gb, 1u);
  EXPECT_EQ(o->metadata().row_groups.size(), 2 * ga + gb);
  EXPECT_EQ(result.row_groups, 2 * ga + gb);
  EXPECT_EQ(o->metadata().num_rows, 2 * a->metadata().num_rows + b->metadata().num_rows);
  EXPECT_EQ(rows_of(out), rows_of(dict_v1_) + rows_of(plain_v2_) + rows_of(dict_v1_));
  expect_copied(*a, *o, 0);
  expect_copied(*b, *o, ga);
  expect_copied(*a, *o, ga + gb);
  // Chunk statistics and footer properties come along.
  EXPECT_EQ(o->metadata().row_groups[ga].columns[0].meta_data->statistics,
            b->metadata().row_groups[0].columns[0].meta_data->statistics);
  EXPECT_EQ(o->metadata().created_by, a->metadata().created_by);
  EXPECT_EQ(o->metadata().column_orders, a->metadata().column_orders);
  for (size_t g = 0; g < o->metadata().row_groups.size(); ++g) EXPECT_EQ(o->metadata().row_groups[g].ordinal, g);
}

TEST_F(RowGroupCopy, PageIndexesAndBloomFiltersPruneAsTheInputs) {
  const std::string out = dir_ / "out.parquet";
  concat_files({dict_v1_, plain_v2_}, out);
  auto read = [](const std::string& path, filter::ExpressionPtr filter, ReadStats& stats) {
    ReadOptions options;
    options.filter = std::move(filter);
    options.pruning.dictionaries = false;  // so that the bloom filters are asked
    options.stats = &stats;
    return rows_of(path, options);
  };
  {
    const auto few = filter::parse_filter("id < 100");
    ReadStats sa, sb, so;
    EXPECT_EQ(read(out, few, so), read(dict_v1_, few, sa) + read(plain_v2_, few, sb));
    EXPECT_GT(sa.pages_pruned_by_index, 0);
    EXPECT_EQ(so.pages_pruned_by_index, sa.pages_pruned_by_index + sb.pages_pruned_by_index);
    EXPECT_EQ(so.rows_pruned_by_pages, sa.rows_pruned_by_pages + sb.rows_pruned_by_pages);
  }
  {
    // Between the column's bounds, but none of its values.
    const auto absent = filter::parse_filter("bigint_col = 55");
    ReadStats sa, sb, so;
    EXPECT_EQ(read(out, absent, so), "");
    read(dict_v1_, absent, sa);
    read(plain_v2_, absent, sb);
    EXPECT_GT(sa.row_groups_pruned_by_bloom_filter, 0);
    EXPECT_EQ(so.row_groups_pruned_by_bloom_filter,
              sa.row_groups_pruned_by_bloom_filter + sb.row_groups_pruned_by_bloom_filter);
  }
  auto o = FileReader::open(out);
  const size_t column = 9;  // string_col
  ASSERT_EQ(o->schema().column(column).dotted_path(), "string_col");
  for (size_t g = 0; g < o->metadata().row_groups.size(); ++g) {
    auto filter = read_bloom_filter(*o, g, column);
    ASSERT_TRUE(filter.has_value()) << g;
    EXPECT_TRUE(filter->might_contain(BloomFilter::hash(std::string_view("7")))) << g;
  }
}

TEST_F(RowGroupCopy, CorpusFilesConcatenateWithThemselves) {
  // Nested columns, old writers' layouts (a dictionary offset of 0, v2
  // pages, INT96, checksums, a writer-provided bloom filter).
  for (const char* name :
       {"nested_structs.rust.parquet", "list_columns.parquet", "nullable.impala.parquet",
        "dict-page-offset-zero.parquet", "datapage_v2_empty_datapage.snappy.parquet", "int96_from_spark.parquet",
        "data_index_bloom_encoding_stats.parquet", "datapage_v1-uncompressed-checksum.parquet", "null_list.parquet",
        "old_list_structure.parquet", "repeated_no_annotation.parquet", "byte_stream_split_extended.gzip.parquet"}) {
    SCOPED_TRACE(name);
    const std::string in = corpus(name);
    if (!fs::exists(in)) {
      ADD_FAILURE() << "missing corpus file " << in;
      continue;
    }
    const std::string out = dir_ / "self.parquet";
    concat_files({in, in}, out);
    const std::string rows = rows_of(in);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows_of(out), rows + rows);
    auto a = FileReader::open(in);
    auto o = FileReader::open(out);
    expect_copied(*a, *o, 0);
    expect_copied(*a, *o, a->metadata().row_groups.size());
  }
}

TEST_F(RowGroupCopy, InputsOfAnotherWriterLoseTheirStatistics) {
  const std::string out = dir_ / "out.parquet";
  const std::string original = dir_ / "other_writer.parquet";
  WriteOptions options;
  options.created_by = "another-writer version 1.0";
  write_copy(dict_v1_, original, options);
  const ConcatResult result = concat_files({dict_v1_, original}, out);
  ASSERT_EQ(result.without_statistics, std::vector<std::string>{original});
  auto o = FileReader::open(out);
  const size_t ga = FileReader::open(dict_v1_)->metadata().row_groups.size();
  EXPECT_TRUE(o->metadata().row_groups[0].columns[0].meta_data->statistics.has_value());
  EXPECT_FALSE(o->metadata().row_groups[ga].columns[0].meta_data->statistics.has_value());
  const auto index = read_page_index(*o, ga, 0);
  ASSERT_TRUE(index.has_value());
  EXPECT_FALSE(index->column_index.has_value());
  EXPECT_TRUE(index->offset_index.has_value());
  EXPECT_EQ(rows_of(out), rows_of(dict_v1_) + rows_of(original));
}

TEST_F(RowGroupCopy, SchemaMismatchNamesTheFileAndHow) {
  const std::string out = dir_ / "out.parquet";
  WriteOptions options;
  const std::string other = dir_ / "other.parquet";
  write_copy(corpus("alltypes_plain.parquet"), other, options);
  const std::string message = error_of([&] { concat_files({dict_v1_, plain_v2_, other}, out); });
  EXPECT_THAT(message, HasSubstr(other + " cannot be concatenated with " + dict_v1_));
  EXPECT_THAT(message, HasSubstr("its schema differs at the root: children 11, not 13"));
  EXPECT_FALSE(fs::exists(out));

  // A nested column whose type alone differs (files without rows will do).
  auto empty_file = [&](const std::string& name, Field leaf) {
    const std::string path = dir_ / name;
    FileWriter::open(path, make_schema({Field::group("s", {Field::int32("a"), std::move(leaf)})}))->close();
    return path;
  };
  const std::string wide = empty_file("wide.parquet", Field::int64("b"));
  const std::string narrow = empty_file("narrow.parquet", Field::int32("b"));
  EXPECT_THAT(error_of([&] {
                concat_files({wide, wide, narrow}, out);
              }),
              HasSubstr(narrow + " cannot be concatenated with " + wide +
                        ": its schema differs at 's.b': type INT32, not INT64"));
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(RowGroupCopy, EncryptedInputsAreRefused) {
  const std::string out = dir_ / "out.parquet";
  for (const char* name :
       {"encrypt_columns_plaintext_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted"}) {
    const std::string in = corpus(name);
    const std::string message = error_of([&] { concat_files({in, in}, out); });
    EXPECT_THAT(message, HasSubstr(name));
    EXPECT_THAT(message, ::testing::AnyOf(HasSubstr("encrypted"), HasSubstr("key")));
    EXPECT_FALSE(fs::exists(out)) << name;
  }
}

TEST_F(RowGroupCopy, TruncatedAndCorruptInputsLeaveNoOutput) {
  const std::vector<uint8_t> whole = testing::read_file_bytes(dict_v1_);
  auto a = FileReader::open(dict_v1_);
  const fs::path out_dir = dir_.path() / "out";
  fs::create_directories(out_dir);
  const std::string out = (out_dir / "out.parquet").string();

  const std::string truncated = dir_ / "truncated.parquet";
  std::ofstream(truncated, std::ios::binary).write(reinterpret_cast<const char*>(whole.data()), whole.size() / 2);
  EXPECT_THAT(error_of([&] { concat_files({dict_v1_, truncated}, out); }), HasSubstr(truncated));
  EXPECT_EQ(files_in(out_dir), 0u);

  // The footer intact, the data before it cut short: the last chunks now
  // reach past the end of the file.
  const std::string corrupt = dir_ / "corrupt.parquet";
  const size_t footer = a->footer().metadata_length + 8;
  const size_t kept = whole.size() / 2;
  {
    std::ofstream f(corrupt, std::ios::binary);
    f.write(reinterpret_cast<const char*>(whole.data()), static_cast<std::streamsize>(kept));
    f.write(reinterpret_cast<const char*>(whole.data() + whole.size() - footer), static_cast<std::streamsize>(footer));
  }
  const std::string message = error_of([&] { concat_files({dict_v1_, corrupt}, out); });
  EXPECT_THAT(message, HasSubstr(corrupt));
  EXPECT_EQ(files_in(out_dir), 0u);
}

TEST_F(RowGroupCopy, PiecesCoverTheRows) {
  auto a = FileReader::open(dict_v1_);
  const auto& m = a->metadata();
  const int64_t rows = m.num_rows;
  auto expect_cover = [&](const std::vector<RowRange>& pieces) {
    ASSERT_FALSE(pieces.empty());
    EXPECT_EQ(pieces.front().begin, 0);
    EXPECT_EQ(pieces.back().end, rows);
    for (size_t i = 1; i < pieces.size(); ++i) EXPECT_EQ(pieces[i].begin, pieces[i - 1].end);
    for (const RowRange& p : pieces) EXPECT_GT(p.size(), 0);
  };
  const auto by_rows = pieces_by_rows(m, 1000);
  expect_cover(by_rows);
  EXPECT_EQ(by_rows.size(), static_cast<size_t>((rows + 999) / 1000));
  for (size_t i = 0; i + 1 < by_rows.size(); ++i) EXPECT_EQ(by_rows[i].size(), 1000);

  const auto by_groups = pieces_by_row_groups(m, 2);
  expect_cover(by_groups);
  EXPECT_EQ(by_groups.size(), (m.row_groups.size() + 1) / 2);
  EXPECT_EQ(by_groups[0].size(), m.row_groups[0].num_rows + m.row_groups[1].num_rows);

  // A piece of one row group's bytes holds whole row groups; a smaller one
  // cuts them.
  int64_t group_bytes = 0;
  for (const auto& c : m.row_groups[0].columns) group_bytes += c.meta_data->total_compressed_size;
  const auto whole_groups = pieces_by_bytes(m, group_bytes);
  expect_cover(whole_groups);
  EXPECT_EQ(whole_groups[0].size(), m.row_groups[0].num_rows);
  const auto cut = pieces_by_bytes(m, group_bytes / 3);
  expect_cover(cut);
  EXPECT_GE(cut.size(), 3 * m.row_groups.size() - 1);
  EXPECT_THROW(pieces_by_rows(m, 0), Error);
}

TEST_F(RowGroupCopy, SplitPiecesReadAsTheFileAndReplaceALongerSplit) {
  const fs::path out = dir_ / "pieces";
  SplitOptions by_rows;
  by_rows.rows = 1000;
  const SplitResult many = split_file(dict_v1_, out, by_rows);
  const int64_t rows = FileReader::open(dict_v1_)->metadata().num_rows;
  ASSERT_EQ(many.pieces.size(), static_cast<size_t>((rows + 999) / 1000));
  EXPECT_EQ(many.removed, 0u);
  SplitOptions by_groups;
  by_groups.row_groups = 2;
  const SplitResult few = split_file(dict_v1_, out, by_groups);
  ASSERT_LT(few.pieces.size(), many.pieces.size());
  EXPECT_EQ(few.removed, many.pieces.size() - few.pieces.size());
  EXPECT_EQ(files_in(out), few.pieces.size());
  std::string joined;
  for (size_t p = 0; p < few.pieces.size(); ++p) {
    EXPECT_EQ(few.pieces[p].path, (out / split_piece_name(p)).string());
    EXPECT_EQ(FileReader::open(few.pieces[p].path)->metadata().num_rows, few.pieces[p].rows);
    joined += rows_of(few.pieces[p].path);
  }
  EXPECT_EQ(joined, rows_of(dict_v1_));
  for (const SplitOptions& bad : {SplitOptions{}, SplitOptions{.rows = 1, .bytes = 1}, SplitOptions{.rows = -1}})
    EXPECT_NE(error_of([&] { split_file(dict_v1_, dir_ / "none", bad); }).find("give one of"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "none"));
}

TEST_F(RowGroupCopy, MergeReencodesInputsOfEitherLayout) {
  const std::string out = dir_ / "merged.parquet";
  WriteOptions options;
  options.row_group_rows = 4000;
  const MergeResult r = merge_files({dict_v1_, plain_v2_}, out, options);
  auto a = FileReader::open(dict_v1_);
  EXPECT_EQ(r.rows, 2 * a->metadata().num_rows);
  EXPECT_EQ(r.row_groups, static_cast<size_t>((r.rows + 3999) / 4000));
  EXPECT_EQ(rows_of(out), rows_of(dict_v1_) + rows_of(plain_v2_));
  const std::string other = dir_ / "other.parquet";
  write_copy(corpus("int32_decimal.parquet"), other, {});
  EXPECT_NE(error_of([&] {
              merge_files({dict_v1_, other}, dir_ / "no.parquet", {});
            }).find("cannot be merged with"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "no.parquet"));
  EXPECT_NE(error_of([&] { merge_files({}, out, {}); }).find("no input"), std::string::npos);
}

TEST_F(RowGroupCopy, CopiedRowsMixCopiesAndReencodedRows) {
  auto a = FileReader::open(dict_v1_);
  const int64_t first_group = a->metadata().row_groups[0].num_rows;
  // Half of row group 0 (re-encoded), all of row group 1 (copied), a bit of 2.
  const RowRange rows{first_group / 2, 2 * first_group + 10};
  const std::string out = dir_ / "piece.parquet";
  auto writer = FileWriter::open(out, a->schema(), copy_write_options(*a));
  writer->set_column_orders(a->metadata().column_orders);
  copy_rows(*a, rows, *writer);
  writer->close();
  ReadOptions selection;
  selection.row_selection = {rows};
  selection.has_row_selection = true;
  EXPECT_EQ(rows_of(out), rows_of(dict_v1_, selection));
  auto o = FileReader::open(out);
  ASSERT_EQ(o->metadata().row_groups.size(), 3u);
  for (size_t c = 0; c < a->schema().num_columns(); ++c) EXPECT_EQ(chunk_bytes(*a, 1, c), chunk_bytes(*o, 1, c)) << c;
}

TEST_F(RowGroupCopy, CopiedRowsWithThreadsAreTheSameBytes) {
  // With threads, re-encoded row groups are written out by a worker; a
  // copied row group that follows must wait for them to land first.
  auto a = FileReader::open(dict_v1_);
  const int64_t first_group = a->metadata().row_groups[0].num_rows;
  const RowRange rows{first_group / 2, 2 * first_group + 1000};
  auto bytes_with = [&](int threads) {
    WriteOptions options = copy_write_options(*a);
    options.threads = threads;
    options.row_group_rows = 400;  // the re-encoded parts in several row groups
    const std::string out = dir_ / ("threads" + std::to_string(threads) + ".parquet");
    auto writer = FileWriter::open(out, a->schema(), options);
    writer->set_column_orders(a->metadata().column_orders);
    copy_rows(*a, rows, *writer);
    writer->close();
    std::ifstream in(out, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string one = bytes_with(1);
  EXPECT_GT(FileReader::open(dir_ / "threads1.parquet")->metadata().row_groups.size(), 4u);
  EXPECT_TRUE(one == bytes_with(2)) << "two threads wrote other bytes";
}

TEST_F(RowGroupCopy, CopiedRowsMustLieWithinTheRowGroups) {
  // row_group_copy_fuzz found a run of rows past the row groups (a footer
  // claiming more rows than they hold) copied as nothing, silently.
  auto a = FileReader::open(dict_v1_);
  int64_t total = 0;
  for (const auto& g : a->metadata().row_groups) total += g.num_rows;
  auto writer = FileWriter::open(std::make_unique<io::BufferOutput>(), a->schema(), copy_write_options(*a));
  for (const RowRange rows : {RowRange{total / 2, total + 1}, RowRange{-1, 3}, RowRange{5, 4}}) {
    try {
      copy_rows(*a, rows, *writer);
      ADD_FAILURE() << rows.begin << " " << rows.end;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
      EXPECT_THAT(e.what(), HasSubstr("are not within its row groups' " + std::to_string(total) + " rows"));
    }
  }
  EXPECT_EQ(writer->num_rows(), 0);
}

TEST_F(RowGroupCopy, CopiedRowGroupsAreCheckpointed) {
  auto a = FileReader::open(dict_v1_);
  const size_t groups = a->metadata().row_groups.size();
  ASSERT_GT(groups, 2u);
  const std::string out = dir_ / "checkpointed.parquet";
  WriteOptions options = copy_write_options(*a);
  options.checkpoint = CheckpointOptions{.row_groups = 1};
  auto writer = FileWriter::open(out, a->schema(), options);
  for (size_t g = 0; g < groups; ++g) copy_row_group(*a, g, *writer);
  writer->close();
  EXPECT_EQ(rows_of(out), rows_of(dict_v1_));

  // Cut just past the checkpoint before the last: the row groups it lists
  // come back, with their copied bytes.
  auto input = io::open_file(out);
  const std::optional<file::Checkpoint> last = file::find_last_checkpoint(*input, input->size());
  ASSERT_TRUE(last.has_value());
  const std::optional<file::Checkpoint> earlier = file::find_last_checkpoint(*input, last->offset);
  ASSERT_TRUE(earlier.has_value());
  const size_t listed = earlier->metadata.row_groups.size();
  ASSERT_GT(listed, 0u);
  ASSERT_LT(listed, groups);
  std::vector<uint8_t> bytes = testing::read_file_bytes(out);
  bytes.resize(earlier->end);
  file::RecoverOptions recover;
  recover.scan_pages = false;
  const std::string recovered = dir_ / "recovered.parquet";
  const file::RecoveryReport report = file::recover_file(*io::memory_input(bytes, "cut.parquet"), recovered, recover);
  EXPECT_TRUE(report.found_checkpoint);
  EXPECT_EQ(report.checkpoint_row_groups, static_cast<int64_t>(listed));
  ReadOptions first_groups;
  for (size_t g = 0; g < listed; ++g) first_groups.row_groups.push_back(g);
  EXPECT_EQ(rows_of(recovered), rows_of(dict_v1_, first_groups));
}

TEST_F(RowGroupCopy, AShortCopyFailsTheWriterAndLeavesNoFile) {
  auto a = FileReader::open(dict_v1_);
  const fs::path out_dir = dir_.path() / "short";
  fs::create_directories(out_dir);
  auto writer = FileWriter::open((out_dir / "out.parquet").string(), a->schema(), copy_write_options(*a));
  std::vector<CopiedColumnChunk> chunks(a->schema().num_columns());
  for (size_t c = 0; c < chunks.size(); ++c) {
    chunks[c].chunk = a->metadata().row_groups[0].columns[c];
    chunks[c].size = 10;
  }
  const std::string message = error_of([&] {
    writer->append_row_group(a->metadata().row_groups[0], std::move(chunks),
                             [](size_t, io::OutputStream& out) { out.write("12345", 5); });
  });
  EXPECT_THAT(message, HasSubstr("5 bytes copied of a 10-byte column chunk of id"));
  EXPECT_THROW(writer->close(), Error);
  writer.reset();
  EXPECT_EQ(files_in(out_dir), 0u);
}

}  // namespace
}  // namespace parq
