// What the extension's files share: batches held by several Python objects
// at once, the Arrow PyCapsules, and the registration of each part of the
// module (reading.cc, writing.cc, errors.cc).
//
// Ownership: a batch decoded by the library is held as a SharedBatch, which
// a Table, the RecordBatch objects taken from it and every array exported to
// a consumer share. An export hands out views of the batch's buffers (the
// same addresses, no copy), and the consumer's release drops one reference;
// so one Table can be given to pyarrow, polars and DuckDB in turn. Nothing
// behind a release callback touches Python objects, so a consumer may
// release on any thread without the GIL.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include "parq/array/array.h"
#include "parq/array/batch_source.h"
#include "parq/arrow/c_data.h"

namespace parq::python {

namespace nb = nanobind;

using SharedBatch = std::shared_ptr<const RecordBatch>;

// A copy of `batch`'s structure whose buffers are views of its buffers, kept
// alive by `batch`: exporting the copy leaves the original intact.
RecordBatch view_of(const SharedBatch& batch);

// Capsules of the Arrow PyCapsule interface. Each owns a heap-allocated C
// structure and releases it when the capsule dies unless a consumer moved
// it out (set its release to null).
nb::object schema_capsule(const RecordBatch& prototype);
nb::object array_capsule(RecordBatch&& batch);
nb::object stream_capsule(std::unique_ptr<BatchSource> source, int threads = 1);

// The structure inside a capsule of the given name; throws TypeError for
// anything else, ValueError for a structure a consumer already released.
ArrowSchema* schema_in(nb::handle capsule);
ArrowArray* array_in(nb::handle capsule);
ArrowArrayStream* stream_in(nb::handle capsule);

void register_errors(nb::module_& m);
void register_datasets(nb::module_& m);
void register_data(nb::module_& m);
void register_reading(nb::module_& m);
void register_writing(nb::module_& m);
void register_file_tools(nb::module_& m);

}  // namespace parq::python
