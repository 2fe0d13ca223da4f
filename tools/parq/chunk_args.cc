// The chunk options; see chunk_args.h.
#include "chunk_args.h"

#include "list_options.h"

namespace parq::tool {

ChunkChoice choose_chunks(const FileReader& file, const std::string& path, const Args& args) {
  ChunkChoice choice;
  if (auto c = args.value("column")) {
    const int i = file.schema().find_column(*c);
    if (i < 0) throw UsageError("--column: " + path + " has no column '" + *c + "'");
    choice.column = static_cast<size_t>(i);
  }
  if (auto v = args.value("row-group")) {
    choice.row_group = static_cast<size_t>(parse_count("row-group", *v));
    const size_t groups = file.metadata().row_groups.size();
    if (*choice.row_group >= groups)
      throw UsageError("--row-group " + std::to_string(*choice.row_group) + ": " + path + " has " +
                       std::to_string(groups) + " row groups");
  }
  return choice;
}

}  // namespace parq::tool
