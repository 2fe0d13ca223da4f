// Joining files by re-encoding their rows: `parq merge` and parq.merge.
// Unlike concat_files (row_group_copy.h), which moves column chunks as they
// are, this reads every input's rows as batches and writes them again, so
// the output gets new row groups of the asked size, the writer's encodings
// and codecs, and inputs by any writer may be joined.
//
//   WriteOptions options;
//   options.row_group_rows = 1 << 20;
//   MergeResult r = merge_files({"a.parquet", "b.parquet"}, "ab.parquet", options);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"

namespace parq {

struct MergeResult {
  int64_t rows = 0;
  size_t row_groups = 0;
};

// Writes the rows of `inputs`, in order, to `output` with `options` (its
// threads also read the inputs). The schemas must match: every input is
// checked before anything is written, and parq::Error (kInvalidArgument)
// names the first that differs and how. The output takes the first input's
// key-value metadata unless `options` has its own, and appears (or is
// replaced; it may be an input) only once complete.
MergeResult merge_files(const std::vector<std::string>& inputs, const std::string& output, WriteOptions options,
                        const ReaderOptions& read = {});

}  // namespace parq
