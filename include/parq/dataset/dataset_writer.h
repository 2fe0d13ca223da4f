// Writing a dataset: rows into a folder of files, partitioned Hive-style
// by the values of some columns (`year=2024/region=EU/part-....parquet`),
// each file at most a given number of rows or bytes, every file committed
// atomically on its own (a failed or abandoned write leaves only whole
// files behind, never one that looks whole and is not).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parq/array/batch_source.h"
#include "parq/file/file_writer.h"
#include "parq/schema/schema.h"

namespace parq {

struct DatasetWriteOptions {
  // Top-level, non-nested columns whose values name the folders, outermost
  // first. They are left out of the files (their folders hold them), as
  // Hive, Spark, DuckDB and Arrow do. Integers, DATE, STRING and BOOLEAN
  // columns qualify; a null writes __HIVE_DEFAULT_PARTITION__.
  std::vector<std::string> partition_by;
  // A file ends when it holds this many rows, or about this many bytes (its
  // row groups written plus what it buffers); 0: no limit.
  int64_t max_rows_per_file = 0;
  int64_t max_bytes_per_file = 0;
  // Partitions with a file open at once: past it, the one written least
  // recently is closed (a later row of it starts a new file), which bounds
  // the memory of the row groups they buffer.
  int max_open_files = 64;
  // File names are `<prefix>-<n>.parquet`; empty: "part-" and 8 random hex
  // digits, so that writes into one folder never clash.
  std::string file_prefix;
  // Also write _metadata and _common_metadata when closing (the files must
  // then share one schema, which they do unless partition values differ in
  // nothing but their folders).
  bool write_summary = false;
  // Every file is written with these; with `encryption`, each file has its
  // own AAD, partition values (folder names) stay in the clear, and neither
  // a summary nor a key for a partition column is accepted.
  WriteOptions write;
};

class DatasetWriter {
 public:
  // `schema`: the batches' schema (partition columns included). Throws
  // parq::Error for a partition column that is not a top-level leaf of a
  // type that can name a folder.
  static std::unique_ptr<DatasetWriter> open(const std::string& folder, const Schema& schema,
                                             DatasetWriteOptions options = {});
  ~DatasetWriter();  // without close(), open files are abandoned (none appears)
  DatasetWriter(const DatasetWriter&) = delete;
  DatasetWriter& operator=(const DatasetWriter&) = delete;

  void write(const RecordBatch& batch);
  void write_all(BatchSource& source);
  // Closes (commits) every open file, then writes the summary if asked.
  void close();

  // The files committed so far, in the order they were closed.
  const std::vector<std::string>& files() const;
  int64_t num_rows() const;

  class Impl;

 private:
  explicit DatasetWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace parq
