// Copying row groups between files as they are: the column chunks' bytes
// are not decoded, only moved, with their offsets, statistics, page indexes
// and bloom filters. `parq concat` and `parq split` (and parq.concat and
// parq.split) are built on it.
//
//   auto first = FileReader::open("a.parquet");
//   auto writer = FileWriter::open("out.parquet", first->schema(), copy_write_options(*first));
//   writer->set_column_orders(first->metadata().column_orders);
//   for (size_t g = 0; g < first->metadata().row_groups.size(); ++g) copy_row_group(*first, g, *writer);
//   writer->close();
//
// The bytes move through a bounded buffer (or straight from a memory-mapped
// input), so memory follows a column chunk's indexes and bloom filter, never
// the chunk or the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/plan/read_plan.h"  // RowRange

namespace parq {

struct RowGroupCopyOptions {
  // false leaves out the chunks' statistics and column indexes: for chunks
  // whose writer is not the one the output's created_by names, which
  // readers would otherwise judge by the wrong writer's known faults.
  bool statistics = true;
  // Bytes read at a time from an input that is not memory-mapped.
  size_t buffer_bytes = size_t{1} << 20;
};

// Throws parq::Error naming the file when its row groups cannot be copied:
// it is encrypted or a chunk lives in another file (kUnsupported), a chunk
// lacks its metadata or reaches past the end of the file (kCorrupt).
void check_copyable(const FileReader& file);

// How `file`'s schema differs from `first`'s ("its schema differs at 'a.b':
// type INT64, not INT32"); empty when it does not.
std::string schema_mismatch(const FileReader& first, const FileReader& file);

// What keeps `file`'s row groups from sitting in one file with `first`'s,
// as a sentence naming the first difference (schema, column orders,
// sorting columns); empty when nothing does.
std::string copy_mismatch(const FileReader& first, const FileReader& file);

// Writer options for a file whose row groups come from `first` (copied, or
// re-encoded beside copied ones): its created_by, key-value metadata, page
// version and float orders.
WriteOptions copy_write_options(const FileReader& first);

// Appends row group `row_group` of `file` to `writer` byte for byte (see
// FileWriter::append_row_group). The page index and bloom filter are read
// and checked (an error names the file, row group and column), not the
// pages. `file` must pass check_copyable and match the writer's schema.
void copy_row_group(const FileReader& file, size_t row_group, FileWriter& writer,
                    const RowGroupCopyOptions& options = {});

// Rows `rows` (file row indices) of `file` into `writer`: the row groups
// wholly inside are copied as they are, the rows of the others re-encoded
// (read as batches, written with the writer's options). Throws parq::Error
// when the run is not within the row groups' rows (kInvalidArgument) or a
// re-encoded part comes out short (kCorrupt: its chunks hold fewer rows
// than its row group claims).
void copy_rows(const FileReader& file, RowRange rows, FileWriter& writer, const RowGroupCopyOptions& options = {});

// How to cut a file into pieces, as file row ranges in order: `rows` rows
// each (the last fewer); about `bytes` stored bytes each (whole row groups
// while they fit, a larger row group cut into equal runs of rows); or
// `row_groups` whole row groups each. A file without rows has no pieces.
std::vector<RowRange> pieces_by_rows(const format::FileMetaData& file, int64_t rows);
std::vector<RowRange> pieces_by_bytes(const format::FileMetaData& file, int64_t bytes);
std::vector<RowRange> pieces_by_row_groups(const format::FileMetaData& file, size_t row_groups);

struct ConcatOptions {
  // Read, not mapped: a mapped input's pages count in the process's
  // memory as they are touched, and the first input stays open throughout.
  ReaderOptions read = {.access = io::FileAccess::kPread};
  size_t buffer_bytes = size_t{1} << 20;
};

struct ConcatResult {
  int64_t rows = 0;
  size_t row_groups = 0;
  // Inputs whose chunk statistics and column indexes were left out (their
  // writer differs from the first input's; see concat_files).
  std::vector<std::string> without_statistics;
};

// Writes the row groups of `inputs`, in order, to `output` as they are.
// Every input is checked first (check_copyable, copy_mismatch against the
// first; parq::Error names the first input that fails and how), so a
// mismatch costs no copying. The output takes the first input's key-value
// metadata and created_by, and appears only once complete.
ConcatResult concat_files(const std::vector<std::string>& inputs, const std::string& output,
                          const ConcatOptions& options = {});

// How split_file cuts: exactly one of the three, at least 1 (see the
// pieces_by_ functions).
struct SplitOptions {
  int64_t rows = 0;
  int64_t bytes = 0;
  size_t row_groups = 0;
  ReaderOptions read;
};

struct SplitPiece {
  std::string path;
  int64_t rows = 0;
  size_t row_groups = 0;
};

struct SplitResult {
  std::vector<SplitPiece> pieces;
  // Pieces of an earlier split into more pieces, removed from the folder.
  size_t removed = 0;
};

// The name of piece `piece` (from 0) of a split: part-00000.parquet, ...
std::string split_piece_name(size_t piece);

// Writes `input`'s rows, in order, to pieces split_piece_name(0), (1), ...
// in `outdir` (created), each written atomically with copy_rows: row
// groups wholly inside a piece copied as they are, the rest re-encoded.
// Pieces keep the input's schema, key-value metadata, created_by and
// column orders. Once every piece is written, pieces of an earlier split
// beyond this one's last are removed, so that the folder reads as the
// input. A file without rows writes nothing. Throws parq::Error: options
// that are not one count of at least 1 (kInvalidArgument), an input whose
// row groups cannot be copied (check_copyable).
SplitResult split_file(const std::string& input, const std::filesystem::path& outdir, const SplitOptions& options);

}  // namespace parq
