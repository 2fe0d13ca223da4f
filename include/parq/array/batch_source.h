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
  // Whether every offset buffer of its batches is known never to decrease,
  // as those a reader builds from lengths are: an export then checks only
  // where they end, not every offset (a pass over all of them).
  virtual bool offsets_ordered() const { return false; }
};

}  // namespace parq
