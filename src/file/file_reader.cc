// Opening a file: envelope, footer, schema, and the cross-checks between the
// footer's row groups and the schema that every later layer relies on.
#include "parq/file/file_reader.h"

#include "parq/error.h"

namespace parq {
namespace {

// Every row group must describe one chunk per leaf column, and each chunk's
// metadata (when in the clear) must agree with the schema about its type.
void check_row_groups(const std::string& name, const format::FileMetaData& md, const Schema& schema) {
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const format::RowGroup& rg = md.row_groups[g];
    if (rg.num_rows < 0)
      throw Error(ErrorKind::kCorrupt, {.file = name, .row_group = static_cast<int64_t>(g)},
                  "a negative row count (" + std::to_string(rg.num_rows) + ")");
    if (rg.columns.size() != schema.num_columns())
      throw Error(ErrorKind::kCorrupt, {.file = name, .row_group = static_cast<int64_t>(g)},
                  std::to_string(rg.columns.size()) + " column chunks, the schema has " +
                      std::to_string(schema.num_columns()) + " leaf columns");
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const auto& cc = rg.columns[c];
      if (!cc.meta_data) continue;  // encrypted column metadata
      if (cc.meta_data->type != schema.column(c).type.physical)
        throw Error(ErrorKind::kCorrupt,
                    {.file = name, .row_group = static_cast<int64_t>(g), .column = schema.column(c).dotted_path()},
                    std::string("chunk type ") + format::to_string(cc.meta_data->type) + " differs from schema type " +
                        format::to_string(schema.column(c).type.physical));
    }
  }
}

}  // namespace

std::unique_ptr<FileReader> FileReader::open(const std::string& path, const ReaderOptions& options) {
  return open(io::open_file(path, options.access), options);
}

std::unique_ptr<FileReader> FileReader::open(std::unique_ptr<io::RandomAccessInput> input,
                                             const ReaderOptions& options) {
  file::Footer footer = file::read_footer(*input, options.footer);
  Schema schema = [&] {
    try {
      return Schema::from_elements(footer.metadata.schema);
    } catch (const Error& e) {
      throw e.with_context("invalid schema").within({.file = input->name()});
    }
  }();
  if (footer.metadata.num_rows < 0)
    throw Error(ErrorKind::kCorrupt, {.file = input->name()},
                "negative row count in the footer (" + std::to_string(footer.metadata.num_rows) + ")");
  check_row_groups(input->name(), footer.metadata, schema);
  return std::unique_ptr<FileReader>(new FileReader(std::move(input), std::move(footer), std::move(schema)));
}

}  // namespace parq
