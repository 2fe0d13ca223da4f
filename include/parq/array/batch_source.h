// BatchSource: something that yields RecordBatches in order (a file reader,
// a projection of one). The Arrow stream export and the tool's printers take
// any source.
#pragma once

#include "parq/array/array.h"

namespace parq {

class BatchSource {
 public:
  virtual ~BatchSource() = default;
  // A batch of zero rows whose arrays carry the full shape (kinds, names,
  // types, children): what a consumer needs before the first rows.
  virtual RecordBatch prototype() const = 0;
  // Fills `out` with the next rows; false when there are no more.
  virtual bool next(RecordBatch& out) = 0;
};

}  // namespace parq
