// Opening a file: envelope, footer, schema, and the cross-checks between the
// footer's row groups and the schema that every later layer relies on.
#include "parq/file/file_reader.h"

#include "parq/error.h"
#include "parq/io/location.h"

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

InputOpener input_opener(const ReaderOptions& options) {
  if (options.opener) return options.opener;
  return [o = io::LocationOptions{options.access, options.remote}](const std::string& location) {
    return io::open_location(location, o);
  };
}

std::unique_ptr<FileReader> FileReader::open(const std::string& location, const ReaderOptions& options) {
  return open(input_opener(options)(location), options);
}

std::unique_ptr<FileReader> FileReader::open(std::unique_ptr<io::RandomAccessInput> input,
                                             const ReaderOptions& options) {
  file::Footer footer = file::read_footer(*input, options.footer);
  return open(std::move(input), std::move(footer), options);
}

std::unique_ptr<FileReader> FileReader::open(std::unique_ptr<io::RandomAccessInput> input, file::Footer footer,
                                             const ReaderOptions& options) {
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
  InputOpener opener = input_opener(options);
  return std::unique_ptr<FileReader>(
      new FileReader(std::move(input), std::move(footer), std::move(schema), std::move(opener)));
}

std::string resolve_chunk_path(const std::string& base, const std::string& file_path) {
  if (file_path.empty()) throw Error(ErrorKind::kCorrupt, {.file = base}, "a column chunk's file_path is empty");
  if (file_path.front() == '/' || file_path.find("://") != std::string::npos)
    throw Error(ErrorKind::kCorrupt, {.file = base},
                "file_path '" + file_path + "' is not relative (a chunk's file must be beside its metadata)");
  // The folder of `base`: up to its last '/' (a URL's too), or none.
  const size_t slash = base.rfind('/');
  std::string folder = slash == std::string::npos ? std::string() : base.substr(0, slash + 1);
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= file_path.size()) {
    size_t end = file_path.find('/', start);
    if (end == std::string::npos) end = file_path.size();
    std::string part = file_path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty())
        throw Error(ErrorKind::kCorrupt, {.file = base},
                    "file_path '" + file_path + "' leaves the folder of the file that names it");
      parts.pop_back();
      continue;
    }
    parts.push_back(std::move(part));
  }
  if (parts.empty()) throw Error(ErrorKind::kCorrupt, {.file = base}, "file_path '" + file_path + "' names no file");
  std::string out = folder;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

namespace {

const std::optional<std::string>& chunk_file_path(const FileReader& file, size_t row_group, size_t column) {
  const auto& groups = file.metadata().row_groups;
  if (row_group >= groups.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = file.name()},
                "row group " + std::to_string(row_group) + " out of range (the file has " +
                    std::to_string(groups.size()) + ")");
  if (column >= groups[row_group].columns.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = file.name(), .row_group = static_cast<int64_t>(row_group)},
                "column " + std::to_string(column) + " out of range (the row group has " +
                    std::to_string(groups[row_group].columns.size()) + ")");
  return groups[row_group].columns[column].file_path;
}

}  // namespace

io::RandomAccessInput& FileReader::chunk_input(size_t row_group, size_t column) const {
  const auto& path = chunk_file_path(*this, row_group, column);
  if (!path) return *input_;
  const ErrorLocation at{
      .file = name(), .row_group = static_cast<int64_t>(row_group), .column = schema_.column(column).dotted_path()};
  std::string location;
  try {
    location = resolve_chunk_path(name(), *path);
  } catch (const Error& e) {
    throw Error(e.kind(), at, e.detail());
  }
  std::lock_guard lock(others_mutex_);
  auto it = others_.find(location);
  if (it != others_.end()) return *it->second;
  try {
    return *others_.emplace(location, opener_(location)).first->second;
  } catch (const Error& e) {
    throw e.with_context("the chunk's file_path '" + *path + "'").within(at);
  }
}

uint64_t FileReader::bytes_read() const {
  uint64_t total = input_->bytes_read();
  std::lock_guard lock(others_mutex_);
  for (const auto& [location, input] : others_) total += input->bytes_read();
  return total;
}

size_t FileReader::files_opened() const {
  std::lock_guard lock(others_mutex_);
  return others_.size();
}

}  // namespace parq
