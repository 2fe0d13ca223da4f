// FileReader: an open Parquet file: its input, decoded footer and schema.
//
// Opening reads only the footer. Later layers (column readers, page index,
// bloom filters) read the byte ranges they need through input().
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "parq/file/footer.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"
#include "parq/io/remote.h"
#include "parq/schema/schema.h"

namespace parq {

// Opens the input at a location (a path, or a URL where the opener knows
// URLs): how a reader reaches the files that column chunks' `file_path`
// name.
using InputOpener = std::function<std::unique_ptr<io::RandomAccessInput>(const std::string& location)>;

struct ReaderOptions {
  io::FileAccess access = io::FileAccess::kMemoryMap;  // local files
  io::RemoteOptions remote;                            // URLs
  file::FooterOptions footer;
  // Opens the files of chunks stored elsewhere (a summary file's
  // `file_path`) and a dataset's files; empty: io::open_location with
  // `access` and `remote`.
  InputOpener opener;
};

class FileReader {
 public:
  // A path or a URL (io::open_location).
  static std::unique_ptr<FileReader> open(const std::string& location, const ReaderOptions& options = {});
  static std::unique_ptr<FileReader> open(std::unique_ptr<io::RandomAccessInput> input,
                                          const ReaderOptions& options = {});
  // A file whose footer the caller has read already (a dataset keeps its
  // files' footers, a summary file holds them): nothing is read here, and
  // the footer is checked against itself as open() checks it.
  static std::unique_ptr<FileReader> open(std::unique_ptr<io::RandomAccessInput> input, file::Footer footer,
                                          const ReaderOptions& options = {});

  const format::FileMetaData& metadata() const { return footer_.metadata; }
  const file::Footer& footer() const { return footer_; }
  const Schema& schema() const { return schema_; }
  // The input of the footer (and of every chunk without a file_path).
  io::RandomAccessInput& input() const { return *input_; }
  const std::string& name() const { return input_->name(); }

  // The input that holds a column chunk: this file's, or the file its
  // `file_path` names (relative to this file's folder, as the format says),
  // opened on first use and kept. Throws parq::Error naming the chunk for
  // an absolute path, one that leaves this file's folder, or one that
  // cannot be opened.
  io::RandomAccessInput& chunk_input(size_t row_group, size_t column) const;
  // Bytes read through every input this reader opened.
  uint64_t bytes_read() const;
  // Files opened for chunks stored elsewhere, so far.
  size_t files_opened() const;

 private:
  FileReader(std::unique_ptr<io::RandomAccessInput> input, file::Footer footer, Schema schema, InputOpener opener)
      : input_(std::move(input)), footer_(std::move(footer)), schema_(std::move(schema)), opener_(std::move(opener)) {}

  std::unique_ptr<io::RandomAccessInput> input_;
  file::Footer footer_;
  Schema schema_;
  InputOpener opener_;
  mutable std::mutex others_mutex_;
  mutable std::map<std::string, std::unique_ptr<io::RandomAccessInput>> others_;
};

// `file_path` (a chunk's relative location) resolved against the folder of
// `base` (a path or URL): "d/part-0.parquet" beside "d/_metadata". Throws
// parq::Error (kCorrupt) for an absolute path, an empty one, or one whose
// ".." leave that folder.
std::string resolve_chunk_path(const std::string& base, const std::string& file_path);

// The opener `options` ask for: theirs, or io::open_location with their
// access and remote options.
InputOpener input_opener(const ReaderOptions& options);

}  // namespace parq
