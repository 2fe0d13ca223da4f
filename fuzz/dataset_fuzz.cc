// libFuzzer target for datasets. The first byte picks what the rest is:
//   0: "pattern\npath": glob matching, Hive folder parsing and file_path
//      resolution, which must return or throw parq::Error;
//   1: a summary file (_metadata): the dataset planned from it (row groups
//      grouped by file_path, partition folders typed, the schema united)
//      and read, every file being these bytes again; parq::Error only.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/dataset_parts.h"
#include "dataset/discovery.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/io/input.h"

namespace {

using namespace parq;

void paths(std::string_view text) {
  const size_t nl = text.find('\n');
  const std::string_view pattern = text.substr(0, nl);
  const std::string_view path = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  (void)dataset::glob_match(pattern, path);
  (void)dataset::has_glob(pattern);
  for (const auto& [key, value] : dataset::hive_folders(path))
    if (key.empty()) std::abort();  // a folder "=x" is not a partition
  try {
    std::string resolved = resolve_chunk_path("d/_metadata", std::string(path));
    if (resolved.rfind("d/", 0) != 0 || resolved.find("/../") != std::string::npos) std::abort();
  } catch (const Error&) {
  }
}

void summary(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  DatasetOptions options;
  options.reader.opener = [&](const std::string& location) { return io::memory_input(bytes, location); };
  try {
    auto ds = Dataset::open({"d/_metadata"}, options);
    DatasetReadOptions read;
    read.read.batch_rows = 256;
    read.read.memory_limit = int64_t{64} << 20;
    auto source = read_batches(ds, read);
    RecordBatch batch;
    for (int i = 0; i < 64 && source->next(batch); ++i) {
    }
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0)
    paths(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  else
    summary(data + 1, size - 1);
  return 0;
}
