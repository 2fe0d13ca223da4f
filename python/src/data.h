// The objects reading returns: Schema (an Arrow schema), RecordBatch, Table
// (batches held in memory, exportable any number of times) and
// RecordBatchReader (a one-shot stream over a read in progress).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "common.h"
#include "parq/file/file_writer.h"
#include "parq/filter/expression.h"
#include "parq/io/remote.h"

namespace parq::python {

// The shape of batches: a zero-row batch whose arrays carry names and types.
using Prototype = std::shared_ptr<const RecordBatch>;

struct PySchema {
  Prototype prototype;
};

struct PyBatch {
  SharedBatch batch;
};

struct TableData {
  Prototype prototype;
  std::vector<SharedBatch> batches;
  int64_t num_rows = 0;
  // Threads an Arrow stream of the table exports its batches on: those of
  // the read that made it.
  int export_threads = 1;
  bool offsets_ordered = false;  // as its source said (BatchSource::offsets_ordered)
};

struct PyTable {
  std::shared_ptr<const TableData> data;
};

class PyReader {
 public:
  explicit PyReader(std::unique_ptr<BatchSource> source);

  // The next batch, read without the GIL; nullopt at the end.
  std::optional<SharedBatch> next();
  // Every batch left, read without the GIL.
  std::shared_ptr<const TableData> read_all();
  // Hands the source to an Arrow stream; the reader is consumed.
  std::unique_ptr<BatchSource> take();
  void close();

  const Prototype& prototype() const { return prototype_; }

 private:
  // Python threads may call next() at once, each without the GIL.
  std::mutex mutex_;
  std::unique_ptr<BatchSource> source_;
  Prototype prototype_;
  bool exported_ = false;
  bool failed_ = false;
};

// A filter as parq/_filters.py hands it over (text, or DNF tuples of
// normalized literals); null for None (reading.cc).
filter::ExpressionPtr filter_of(const nb::handle& spec);

// Throws InvalidArgument for threads or batch_rows below 1, or a negative
// memory_limit (reading.cc).
void check_read_numbers(int threads, int64_t batch_rows, int64_t memory_limit);

// RemoteOptions from a read's storage_options dict (None: the defaults,
// the environment and the AWS files); an unknown key or a value of the
// wrong kind is InvalidArgument naming it (reading.cc).
io::RemoteOptions remote_options_of(const nb::handle& storage_options);

// WriteOptions from the dict parq/_writer.py builds (writing.cc).
WriteOptions write_options(const nb::dict& o);
// An arrow_array_stream's schema, asked without taking the stream
// (writing.cc).
Schema stream_schema(ArrowArrayStream* stream);

// A zero-row copy of `batch`'s shape.
Prototype prototype_of(const RecordBatch& batch);

// Every batch of `source`, read without the GIL.
// Every batch of `source`, read without the GIL; the table's streams export
// on `threads` threads.
std::shared_ptr<const TableData> read_table_data(BatchSource& source, Prototype prototype, int threads);

}  // namespace parq::python
