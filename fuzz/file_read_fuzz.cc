// libFuzzer target for the whole read path: the input is a Parquet file;
// every page of every column is decoded and assembled into batches, and the
// first rows are rendered as canonical JSON (with VARIANT columns rebuilt
// and printed as their values for every other input). Then a filtered read: a null
// test on one top-level leaf keeps some rows, so the other columns go
// through the selective decoders (LeafReader::read_selected), the staged
// verdicts and page-header pruning; on two threads with a small batch byte
// limit now and then, so the pipeline's restarts run too. Seeded with the
// corpus files.
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
    options.unshred_variants = size % 2 == 0;
    const parq::text::RowTextOptions text_options{.variants_as_json = options.unshred_variants};
    auto source = parq::read_batches(*file, options);
    parq::RecordBatch batch;
    std::string text;
    while (source->next(batch)) {
      text.clear();
      parq::text::RowJsonWriter(batch, text_options).append_rows(text, 0, std::min<int64_t>(batch.num_rows, 10));
    }
  } catch (const parq::Error&) {
  }
  try {
    auto file = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"));
    const parq::Schema& schema = file->schema();
    if (schema.num_columns() == 0) return 0;
    const size_t pick = size % schema.num_columns();
    const std::string path = schema.column(pick).dotted_path();
    parq::ReadOptions options;
    options.batch_rows = 1 + static_cast<int64_t>(size % 700);
    options.pages.max_page_bytes = 64 << 20;
    options.threads = size % 3 == 0 ? 2 : 1;
    if (size % 5 == 0) options.max_batch_bytes = 64;
    using parq::filter::Expression;
    options.filter = size % 2 ? Expression::is_null(path) : Expression::negate(Expression::is_null(path));
    if (size % 7 == 0)
      options.filter = Expression::all_of({options.filter, Expression::is_not_null(schema.column(0).dotted_path())});
    auto source = parq::read_batches(*file, options);
    parq::RecordBatch batch;
    while (source->next(batch)) {
    }
  } catch (const parq::Error&) {
  }
  return 0;
}
