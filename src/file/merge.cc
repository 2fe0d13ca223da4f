// Files joined by re-encoding their rows; see file/merge.h.
#include "parq/file/merge.h"

#include <memory>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/row_group_copy.h"

namespace parq {

MergeResult merge_files(const std::vector<std::string>& inputs, const std::string& output, WriteOptions options,
                        const ReaderOptions& read) {
  if (inputs.empty()) throw Error("merge: no input files", ErrorKind::kInvalidArgument);
  auto first = FileReader::open(inputs.front(), read);
  // Checked before anything is written, so a late mismatch costs nothing.
  for (size_t i = 1; i < inputs.size(); ++i)
    if (std::string why = schema_mismatch(*first, *FileReader::open(inputs[i], read)); !why.empty())
      throw Error(inputs[i] + " cannot be merged with " + inputs.front() + ": " + why, ErrorKind::kInvalidArgument);
  if (options.key_value_metadata.empty() && first->metadata().key_value_metadata)
    options.key_value_metadata = *first->metadata().key_value_metadata;
  ReadOptions batches;
  batches.threads = options.threads;
  auto writer = FileWriter::open(output, first->schema(), options);
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::unique_ptr<FileReader> opened = i == 0 ? nullptr : FileReader::open(inputs[i], read);
    const FileReader& file = i == 0 ? *first : *opened;
    // Opened again: it may have changed since it was checked.
    if (std::string why = schema_mismatch(*first, file); !why.empty())
      throw Error(inputs[i] + " changed while being merged: " + why, ErrorKind::kInvalidArgument);
    auto source = read_batches(file, batches);
    writer->write_all(*source);
  }
  writer->close();
  return {writer->num_rows(), writer->metadata().row_groups.size()};
}

}  // namespace parq
