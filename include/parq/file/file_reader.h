// FileReader: an open Parquet file: its input, decoded footer and schema.
//
// Opening reads only the footer. Later layers (column readers, page index,
// bloom filters) read the byte ranges they need through input().
#pragma once

#include <memory>
#include <string>

#include "parq/file/footer.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"
#include "parq/schema/schema.h"

namespace parq {

struct ReaderOptions {
  io::FileAccess access = io::FileAccess::kMemoryMap;
  file::FooterOptions footer;
};

class FileReader {
 public:
  static std::unique_ptr<FileReader> open(const std::string& path, const ReaderOptions& options = {});
  static std::unique_ptr<FileReader> open(std::unique_ptr<io::RandomAccessInput> input,
                                          const ReaderOptions& options = {});

  const format::FileMetaData& metadata() const { return footer_.metadata; }
  const file::Footer& footer() const { return footer_; }
  const Schema& schema() const { return schema_; }
  io::RandomAccessInput& input() const { return *input_; }
  const std::string& name() const { return input_->name(); }

 private:
  FileReader(std::unique_ptr<io::RandomAccessInput> input, file::Footer footer, Schema schema)
      : input_(std::move(input)), footer_(std::move(footer)), schema_(std::move(schema)) {}

  std::unique_ptr<io::RandomAccessInput> input_;
  file::Footer footer_;
  Schema schema_;
};

}  // namespace parq
