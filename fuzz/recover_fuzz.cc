// libFuzzer target for recovery (file/recover.h): the checkpoint search
// and the page scan over bytes cut and damaged anywhere. The first byte
// picks the schema the scan uses without a checkpoint (none, or a fixed one
// with flat, optional and repeated columns); a recovered file is then read
// whole, as a user of `parq recover` would.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/recover.h"
#include "parq/io/input.h"
#include "parq/schema/field.h"

namespace {

parq::format::FileMetaData fixed_schema() {
  parq::format::FileMetaData m;
  m.schema = parq::make_schema({parq::Field::int64("id").required(), parq::Field::string("name"),
                                parq::Field::list("tags", parq::Field::int32("element"))})
                 .elements();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const parq::format::FileMetaData schema = fixed_schema();
  static const std::string out = "/tmp/parq-recover-fuzz-" + std::to_string(::getpid()) + ".parquet";
  // Removed after every input: a campaign stopped between inputs leaves no
  // recovered file behind in /tmp.
  struct RemoveOutput {
    ~RemoveOutput() { ::unlink(out.c_str()); }
  } remove_output;
  parq::file::RecoverOptions options;
  options.max_page_bytes = 16 << 20;  // within the fuzzer's memory limit
  options.max_page_values = 1 << 22;
  if (data[0] & 1) options.schema_from = schema;
  auto input = parq::io::memory_input({data + 1, size - 1}, "<fuzz>");
  try {
    parq::file::recover_file(*input, out, options);
  } catch (const parq::Error&) {
    return 0;
  }
  try {
    auto file = parq::FileReader::open(out);
    auto batches = parq::read_batches(*file);
    parq::RecordBatch batch;
    while (batches->next(batch)) {
    }
  } catch (const parq::Error&) {
  }
  return 0;
}
