// --column C and --row-group N of the commands that show column chunks
// (index, bloom, dictionary), checked against each file they show.
#pragma once

#include <optional>
#include <string>

#include "args.h"
#include "parq/file/file_reader.h"

namespace parq::tool {

struct ChunkChoice {
  std::optional<size_t> column;     // a leaf index; none: every column
  std::optional<size_t> row_group;  // none: every row group
};

// Throws UsageError naming `path` when the file lacks the column or row
// group asked for.
ChunkChoice choose_chunks(const FileReader& file, const std::string& path, const Args& args);

}  // namespace parq::tool
