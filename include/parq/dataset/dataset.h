// Datasets: many Parquet files read as one table.
//
// A dataset is made from locations: files, folders (every file below them
// whose path has no component starting with '_' or '.', as Hive and Spark
// leave _SUCCESS and .crc files beside the data), globs ('*' and '?' within
// one path component, '**' across any number of them) and URLs, or a
// `_metadata` summary file that holds every file's footer, so that a read is
// planned from one footer and `file_path` says where each row group lives.
//
// Folders named `key=value` (Hive's layout) below the dataset's root give
// every row of the files under them a partition column `key`, typed INT64
// when each of its values is an integer, DATE when each is YYYY-MM-DD, and
// STRING otherwise, unless declared. `__HIVE_DEFAULT_PARTITION__` and an
// empty value read as null; values are %-unescaped.
//
// The schema is the union of the files' top-level columns, matched by name
// (or by field id), in order of first appearance, partition columns last. A
// column a file lacks reads as nulls there. Columns of one name must have
// one type, except that INT32 widens to INT64 and FLOAT to DOUBLE; anything
// else is an error naming both files.
//
// Opening reads every file's footer (on `threads` threads) and keeps them,
// not the files: a read opens a file only when the filter leaves it rows
// (partition values first, then its row groups' statistics). A filter given
// when opening leaves out, before their footers are read, the files whose
// partition values rule it out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parq/array/batch_source.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/filter/literal.h"
#include "parq/schema/schema.h"

namespace parq {

enum class SchemaMatch : uint8_t {
  kByName,     // top-level columns of one name are one column
  kByFieldId,  // top-level columns of one field id are one column (named as where first seen)
};

struct DatasetOptions {
  // Folders named key=value become partition columns.
  bool hive_partitioning = true;
  // Declared types of partition columns, by name; a value that does not
  // parse as its type is an error naming the folder. Others are inferred.
  std::vector<std::pair<std::string, ValueType>> partition_types;
  SchemaMatch schema_match = SchemaMatch::kByName;
  // Footers are read on this many threads.
  int threads = 1;
  // A filter known when opening (the tool's --where, a Python read's
  // filter): files whose partition values rule it out are left out before
  // their footers are read, so that they are never opened. Reads may still
  // use other filters.
  filter::ExpressionPtr filter;
  ReaderOptions reader;
};

// One file of a dataset.
struct DatasetFile {
  std::string location;  // path or URL
  uint64_t size = 0;
  // Per partition column (Dataset::partition_columns()): the value's text,
  // unescaped, or nullopt for null.
  std::vector<std::optional<std::string>> partition_values;
};

class Dataset {
 public:
  // Throws parq::Error for a location that does not exist or holds no file,
  // for files whose partition keys differ, for columns whose types cannot
  // be one, and for any footer that cannot be read (naming its file).
  static std::shared_ptr<const Dataset> open(const std::vector<std::string>& locations,
                                             const DatasetOptions& options = {});

  // The unified schema: the files' columns, then the partition columns.
  const Schema& schema() const { return schema_; }
  const std::vector<DatasetFile>& files() const { return files_; }
  // Names of the partition columns, in the order their folders nest.
  const std::vector<std::string>& partition_columns() const { return partition_columns_; }
  // File `i`'s footer (from the file, or from the summary file).
  const file::Footer& footer(size_t i) const { return footers_.at(i); }
  // The summary file the dataset was planned from, or empty.
  const std::string& summary_file() const { return summary_file_; }
  int64_t num_rows() const;
  // Files the opening filter left out (never opened).
  int64_t files_pruned_at_open() const { return files_pruned_at_open_; }
  const DatasetOptions& options() const { return options_; }

  // For the reader (dataset_reader.cc): per top-level field of the united
  // schema (partition columns excluded), file `i`'s name for it (another
  // under field-id matching), or nullopt where the file lacks it.
  const std::vector<std::optional<std::string>>& file_field_names(size_t i) const { return file_field_names_.at(i); }
  // The partition columns alone, as a schema, and file `i`'s values of
  // them in their columns' storage (nullopt: null).
  const Schema& partition_schema() const { return partition_schema_; }
  const std::vector<std::optional<filter::PhysicalValue>>& partition_physical_values(size_t i) const {
    return partition_physical_values_.at(i);
  }

  // Whether files shred one VARIANT column differently (or one shreds it
  // and another does not): the dataset then has every VARIANT column in
  // its whole form (metadata and value) and reads each file's values
  // rebuilt (ReadOptions::unshred_variants).
  bool whole_variants() const { return whole_variants_; }

  // Opens file `i` for reading (its input opened on first use).
  std::unique_ptr<FileReader> open_file(size_t i) const;

 private:
  Dataset() = default;

  DatasetOptions options_;
  Schema schema_;
  std::vector<DatasetFile> files_;
  std::vector<file::Footer> footers_;
  std::vector<std::vector<std::optional<std::string>>> file_field_names_;
  std::vector<std::string> partition_columns_;
  Schema partition_schema_;
  std::vector<std::vector<std::optional<filter::PhysicalValue>>> partition_physical_values_;
  std::string summary_file_;
  int64_t files_pruned_at_open_ = 0;
  bool whole_variants_ = false;

  friend struct DatasetBuilder;
};

struct DatasetReadOptions {
  // As for one file: batch_rows, columns (of the unified schema, partition
  // columns included), filter (over any of them), offset, limit, threads,
  // memory_limit, pages, pruning, row_index_column (each row's index in its
  // own file) and stats (summed over the files read). row_groups and
  // row_selection name rows of one file, so they are an error here.
  ReadOptions read;
  // When not empty, adds a STRING column of this name, last, with each
  // row's file location.
  std::string file_name_column;
};

// Batches of the dataset's rows, file after file in the dataset's order.
// With several threads, files are read ahead in parallel (each on one
// thread when there are more files than threads), a few batches each.
std::unique_ptr<BatchSource> read_batches(std::shared_ptr<const Dataset> dataset,
                                          const DatasetReadOptions& options = {});

// The rows that pass `options.filter`: with one, a read of no column
// (only the filter's are decoded); without, the footers' counts. The
// read's threads and page options apply.
int64_t count_rows(std::shared_ptr<const Dataset> dataset, const ReadOptions& options = {});

// Which of the dataset's files a read with `filter` must open: those whose
// partition values do not rule the filter out. (The statistics in their
// footers may still rule out every row group; such files are not opened.)
// Tests of other columns count as possibly true; the read itself binds the
// whole filter and names what does not bind.
std::vector<size_t> files_to_read(const Dataset& dataset, const filter::ExpressionPtr& filter);

// Whether `location` names a dataset rather than one file: a folder, a glob,
// or a `_metadata` file.
bool is_dataset_location(const std::string& location);

// The files `locations` name, each in turn, without reading any: a file or
// URL as given (a `_metadata` file too), every file of a folder or object
// store prefix (leaving out names starting with '_' or '.'), the matches
// of a glob, each sorted. For tools that show files one at a time. Throws
// parq::Error (kInvalidArgument) for a folder or glob with no file.
std::vector<std::string> list_files(const std::vector<std::string>& locations, const io::RemoteOptions& remote = {});

}  // namespace parq

namespace parq {

// Writes `_metadata` (every file's row groups, each column chunk's
// file_path relative to `folder`) and `_common_metadata` (the schema and
// key-value metadata alone) into `folder`, for the dataset's files below it;
// each atomically. The files must share one schema (a summary has one);
// otherwise an error names the first that differs. Returns the number of
// files summarized.
size_t write_summary_files(const std::string& folder, const DatasetOptions& options = {});

}  // namespace parq
