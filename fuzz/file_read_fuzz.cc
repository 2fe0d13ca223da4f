// libFuzzer target for the whole read path: the input is a Parquet file;
// every page of every column is decoded and assembled into batches, and the
// first rows are rendered as canonical JSON. Seeded with the corpus files.
#include <string>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/text/row_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto file = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"));
    parq::ReadOptions options;
    options.batch_rows = 1000;
    // Bound the work a tiny input can ask for (a page claiming a huge size).
    options.pages.max_page_bytes = 64 << 20;
    auto source = parq::read_batches(*file, options);
    parq::RecordBatch batch;
    std::string text;
    while (source->next(batch)) {
      text.clear();
      parq::text::RowJsonWriter(batch).append_rows(text, 0, std::min<int64_t>(batch.num_rows, 10));
    }
  } catch (const parq::Error&) {
  }
  return 0;
}
