// A file's rows in the canonical JSON Lines form, for tests that compare
// what two reads (or a write and a read) give.
#pragma once

#include <string>

#include "parq/file/batch_reader.h"
#include "parq/text/row_text.h"

namespace parq::testing {

inline std::string rows_of(const FileReader& file, const ReadOptions& options = {}) {
  auto source = read_batches(file, options);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::RowJsonWriter(batch).append_rows(out, 0, batch.num_rows);
  return out;
}

}  // namespace parq::testing
