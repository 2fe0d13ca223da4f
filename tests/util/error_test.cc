// parq::Error: kinds and locations, as the layers set them, so that callers
// (the Python package, the tool's exit codes) branch on them rather than on
// message text.
#include "parq/error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/file/page_index.h"
#include "parq/filter/expression.h"
#include "parq/io/input.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq {
namespace {

using testing::corpus_dir;
using ::testing::HasSubstr;

Error caught(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no parq::Error thrown";
  return Error("none");
}

void read_all(const FileReader& file, const ReadOptions& options = {}) {
  auto batches = read_batches(file, options);
  RecordBatch b;
  while (batches->next(b)) {
  }
}

TEST(Error, WhatIsTheLocationThenTheDetail) {
  Error e(ErrorKind::kCorrupt, {.file = "f.parquet", .row_group = 2, .column = "a.b", .page = 7, .offset = 81920},
          "bad page");
  EXPECT_STREQ(e.what(), "f.parquet: column a.b, row group 2, page 7 (offset 81920): bad page");
  EXPECT_EQ(e.detail(), "bad page");
  EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
  EXPECT_EQ(e.location().row_group, 2);
  EXPECT_STREQ(Error(ErrorKind::kIo, {.file = "x", .offset = 12}, "gone").what(), "x: offset 12: gone");
  EXPECT_STREQ(Error(ErrorKind::kIo, {}, "plain").what(), "plain");
  EXPECT_STREQ(Error("a message").what(), "a message");
  EXPECT_EQ(Error("a message").kind(), ErrorKind::kCorrupt);
  EXPECT_EQ(Error("m", ErrorKind::kLimit).kind(), ErrorKind::kLimit);
  EXPECT_STREQ(to_string(ErrorKind::kInvalidArgument), "invalid_argument");
  EXPECT_STREQ(to_string(ErrorKind::kIo), "io");
}

TEST(Error, WithinFillsOnlyWhatIsUnknownAndKeepsTheKind) {
  Error inner(ErrorKind::kLimit, {.column = "c", .page = 3}, "too big");
  Error placed = inner.within({.file = "f", .row_group = 1, .column = "other", .page = 9});
  EXPECT_EQ(placed.kind(), ErrorKind::kLimit);
  EXPECT_EQ(placed.location().file, "f");
  EXPECT_EQ(placed.location().row_group, 1);
  EXPECT_EQ(placed.location().column, "c");
  EXPECT_EQ(placed.location().page, 3);
  EXPECT_EQ(placed.detail(), "too big");
  Error ctx = placed.with_context("dictionary page");
  EXPECT_EQ(ctx.detail(), "dictionary page: too big");
  EXPECT_EQ(ctx.location().file, "f");
  EXPECT_STREQ(ctx.what(), "f: column c, row group 1, page 3: dictionary page: too big");
  // Copies share what they say and never throw.
  static_assert(std::is_nothrow_copy_constructible_v<Error>);
  Error copy = ctx;
  EXPECT_STREQ(copy.what(), ctx.what());
}

TEST(ErrorKinds, AMissingFileOrAFolderIsAnIoError) {
  Error missing = caught([] { FileReader::open("/nonexistent/x.parquet"); });
  EXPECT_EQ(missing.kind(), ErrorKind::kIo);
  EXPECT_EQ(missing.location().file, "/nonexistent/x.parquet");
  EXPECT_THAT(missing.detail(), HasSubstr("No such file"));
  EXPECT_EQ(caught([] { FileReader::open("/tmp"); }).kind(), ErrorKind::kIo);
  EXPECT_EQ(caught([] { FileWriter::open("/nonexistent-folder/x.parquet", make_schema({Field::int32("a")})); }).kind(),
            ErrorKind::kIo);
}

TEST(ErrorKinds, ATruncatedOrForeignFileIsCorrupt) {
  const auto path = corpus_dir() / "data" / "alltypes_plain.parquet";
  std::vector<uint8_t> bytes = testing::read_file_bytes(path);
  bytes.resize(bytes.size() - 100);
  Error cut = caught([&] { FileReader::open(io::buffer_input(bytes)); });
  EXPECT_EQ(cut.kind(), ErrorKind::kCorrupt);
  std::vector<uint8_t> text(200, 'x');
  EXPECT_EQ(caught([&] { FileReader::open(io::buffer_input(text)); }).kind(), ErrorKind::kCorrupt);
}

TEST(ErrorKinds, ACorruptPageNamesItsFileColumnRowGroupPageAndOffset) {
  // Flip bytes inside the first data page of a column until its decoding
  // fails: the error places itself down to the page.
  const auto path = corpus_dir() / "data" / "alltypes_dictionary.parquet";
  const std::vector<uint8_t> original = testing::read_file_bytes(path);
  auto probe = FileReader::open(io::buffer_input(original));
  const format::ColumnMetaData& md = *probe->metadata().row_groups[0].columns[0].meta_data;
  bool found = false;
  for (int64_t at = md.data_page_offset; at < md.data_page_offset + md.total_compressed_size && !found; ++at) {
    std::vector<uint8_t> bytes = original;
    bytes[static_cast<size_t>(at)] ^= 0xff;
    auto file = FileReader::open(io::buffer_input(bytes, "flipped.parquet"));
    ReadOptions options;
    options.columns = {file->schema().column(0).dotted_path()};
    options.pages.verify_crc = false;
    try {
      read_all(*file, options);
    } catch (const Error& e) {
      if (e.location().page < 0) continue;  // a failure before any page
      found = true;
      EXPECT_EQ(e.kind(), ErrorKind::kCorrupt) << e.what();
      EXPECT_EQ(e.location().file, "flipped.parquet");
      EXPECT_EQ(e.location().column, file->schema().column(0).dotted_path());
      EXPECT_EQ(e.location().row_group, 0);
      EXPECT_GE(e.location().offset, md.data_page_offset) << e.what();
      EXPECT_THAT(e.what(), HasSubstr("flipped.parquet: column " + e.location().column + ", row group 0, page "));
    }
  }
  EXPECT_TRUE(found) << "no flipped byte made the page fail";
}

TEST(ErrorKinds, BadArgumentsAreInvalidArguments) {
  auto file = FileReader::open((corpus_dir() / "data" / "alltypes_plain.parquet").string());
  ReadOptions unknown;
  unknown.columns = {"no_such_column"};
  EXPECT_EQ(caught([&] { read_batches(*file, unknown); }).kind(), ErrorKind::kInvalidArgument);
  ReadOptions bad_group;
  bad_group.row_groups = {99};
  EXPECT_EQ(caught([&] { read_all(*file, bad_group); }).kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(caught([] { filter::parse_filter("a >"); }).kind(), ErrorKind::kInvalidArgument);
  ReadOptions bad_filter;
  bad_filter.filter = filter::parse_filter("no_such_column = 1");
  EXPECT_EQ(caught([&] { read_batches(*file, bad_filter); }).kind(), ErrorKind::kInvalidArgument);
  ReadOptions bad_literal;
  bad_literal.filter = filter::parse_filter("id = 'text'");
  Error literal = caught([&] { read_batches(*file, bad_literal); });
  EXPECT_EQ(literal.kind(), ErrorKind::kInvalidArgument);
  EXPECT_THAT(literal.what(), HasSubstr("id"));
}

TEST(ErrorKinds, AnEncryptedFileOrColumnIsUnsupported) {
  Error footer =
      caught([] { FileReader::open((corpus_dir() / "data" / "uniform_encryption.parquet.encrypted").string()); });
  EXPECT_EQ(footer.kind(), ErrorKind::kUnsupported) << footer.what();
  auto file = FileReader::open((corpus_dir() / "data" / "encrypt_columns_plaintext_footer.parquet.encrypted").string());
  int encrypted = 0;
  for (size_t c = 0; c < file->schema().num_columns(); ++c) {
    if (!file->metadata().row_groups[0].columns[c].crypto_metadata) continue;
    ++encrypted;
    ReadOptions options;
    options.columns = {file->schema().column(c).dotted_path()};
    Error e = caught([&] { read_all(*file, options); });
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
    EXPECT_EQ(e.location().column, file->schema().column(c).dotted_path()) << e.what();
  }
  EXPECT_GT(encrypted, 0);
}

TEST(ErrorKinds, AnEncryptedPageIndexIsUnsupportedAndNamesItsChunk) {
  auto file = FileReader::open((corpus_dir() / "data" / "encrypt_columns_plaintext_footer.parquet.encrypted").string());
  int refused = 0;
  for (size_t c = 0; c < file->schema().num_columns(); ++c) {
    const auto& chunk = file->metadata().row_groups[0].columns[c];
    if (!chunk.crypto_metadata || !chunk.column_index_offset) continue;
    ++refused;
    Error e = caught([&] { read_page_index(*file, 0, c); });
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
    EXPECT_EQ(e.location().file, file->name());
    EXPECT_EQ(e.location().row_group, 0);
    EXPECT_EQ(e.location().column, file->schema().column(c).dotted_path()) << e.what();
  }
  EXPECT_GT(refused, 0);
}

TEST(ErrorKinds, AMemoryLimitTooSmallIsALimit) {
  auto file = FileReader::open((corpus_dir() / "data" / "alltypes_plain.parquet").string());
  ReadOptions options;
  options.memory_limit = 10;
  Error e = caught([&] { read_all(*file, options); });
  EXPECT_EQ(e.kind(), ErrorKind::kLimit) << e.what();
  EXPECT_EQ(e.location().row_group, 0);
}

}  // namespace
}  // namespace parq
