// Where the writing commands (convert, rewrite) put their batches: one file,
// or with --partition-by a folder of Hive-partitioned files.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "parq/array/batch_source.h"
#include "parq/dataset/dataset_writer.h"
#include "parq/file/file_writer.h"
#include "parq/keys/key_tools.h"

#define PARQ_PARTITION_OPTIONS_HELP                                                        \
  "Dataset options (OUT is then a folder):\n"                                              \
  "  --partition-by A,B       write rows into A=value/B=value/ folders, without A and B\n" \
  "  --max-rows-per-file N    start a new file after N rows\n"                             \
  "  --max-bytes-per-file N   start a new file after about N bytes\n"                      \
  "  --summary                also write OUT/_metadata and OUT/_common_metadata\n"

namespace parq::tool {

std::vector<OptionSpec> with_partition_options(std::vector<OptionSpec> own);

// Whether the arguments ask for a folder of files (--partition-by, a file
// limit, --summary).
bool writes_dataset(const Args& args);

class BatchSink {
 public:
  // A FileWriter at `out`, or a DatasetWriter into the folder `out` when the
  // arguments ask for partitions or file limits.
  BatchSink(const std::string& out, const Schema& schema, const WriteOptions& options, const Args& args);
  void write(const RecordBatch& batch);
  void write_all(BatchSource& source);
  void close();

 private:
  std::string out_;
  std::optional<keys::FileEncryption> encryption_;
  std::unique_ptr<FileWriter> file_;
  std::unique_ptr<DatasetWriter> dataset_;
};

}  // namespace parq::tool
