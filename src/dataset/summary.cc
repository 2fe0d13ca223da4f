// Summary files (_metadata, _common_metadata): the footers of a folder's
// files in one, so that a reader plans the whole dataset from one read.
#include <filesystem>

#include "discovery.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/file/footer.h"
#include "parq/io/output.h"

namespace parq {
namespace {

void write_footer_file(const std::string& path, const format::FileMetaData& metadata) {
  std::string bytes(file::kMagic, file::kMagicSize);
  file::append_footer(metadata, bytes);
  auto out = io::create_file(path);
  out->write(bytes.data(), bytes.size());
  out->commit();
}

}  // namespace

size_t write_summary_files(const std::string& folder, const DatasetOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw Error(ErrorKind::kInvalidArgument, {.file = folder}, "not a folder");
  DatasetOptions o = options;
  o.hive_partitioning = false;  // the summary keeps the files' own schema
  auto ds = Dataset::open({folder}, o);
  format::FileMetaData summary = ds->footer(0).metadata;
  summary.row_groups.clear();
  summary.num_rows = 0;
  const std::string base = folder.back() == '/' ? folder : folder + "/";
  for (size_t i = 0; i < ds->files().size(); ++i) {
    const format::FileMetaData& md = ds->footer(i).metadata;
    if (md.schema != summary.schema)
      throw Error(ErrorKind::kInvalidArgument, {.file = ds->files()[i].location},
                  "its schema differs from that of " + ds->files()[0].location + ": a summary has one schema");
    const std::string& location = ds->files()[i].location;
    const std::string relative = location.compare(0, base.size(), base) == 0 ? location.substr(base.size()) : location;
    for (format::RowGroup rg : md.row_groups) {
      for (auto& chunk : rg.columns) {
        if (chunk.file_path)
          throw Error(ErrorKind::kInvalidArgument, {.file = location},
                      "its chunks name other files already (a summary of summaries)");
        chunk.file_path = relative;
      }
      summary.num_rows += rg.num_rows;
      summary.row_groups.push_back(std::move(rg));
    }
  }
  write_footer_file(base + "_metadata", summary);
  format::FileMetaData common = summary;
  common.row_groups.clear();
  common.num_rows = 0;
  write_footer_file(base + "_common_metadata", common);
  return ds->files().size();
}

}  // namespace parq
