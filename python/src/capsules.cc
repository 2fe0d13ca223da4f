// The Arrow PyCapsule interface: capsules named "arrow_schema",
// "arrow_array" and "arrow_array_stream" around heap-allocated C
// structures, and the views that let several consumers export one batch.
#include <cstring>
#include <string>
#include <utility>

#include "common.h"
#include "parq/arrow/c_export.h"

namespace parq::python {
namespace {

constexpr const char* kSchemaName = "arrow_schema";
constexpr const char* kArrayName = "arrow_array";
constexpr const char* kStreamName = "arrow_array_stream";

// A capsule's destructor runs whenever Python drops it, also after a
// consumer took the structure (then release is null and only the shell is
// freed). It may run with an exception set, which it must leave alone.
template <class T>
void destroy(PyObject* capsule, const char* name) {
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule, name));
  if (p == nullptr) {
    PyErr_Clear();
    return;
  }
  if (p->release != nullptr) p->release(p);
  delete p;
}

void destroy_schema(PyObject* c) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  destroy<ArrowSchema>(c, kSchemaName);
  PyErr_Restore(type, value, trace);
}
void destroy_array(PyObject* c) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  destroy<ArrowArray>(c, kArrayName);
  PyErr_Restore(type, value, trace);
}
void destroy_stream(PyObject* c) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  destroy<ArrowArrayStream>(c, kStreamName);
  PyErr_Restore(type, value, trace);
}

template <class T>
nb::object wrap(std::unique_ptr<T> p, const char* name, PyCapsule_Destructor destructor) {
  PyObject* capsule = PyCapsule_New(p.get(), name, destructor);
  if (capsule == nullptr) {
    if (p->release != nullptr) p->release(p.get());
    throw nb::python_error();
  }
  p.release();
  return nb::steal(capsule);
}

template <class T>
T* unwrap(nb::handle capsule, const char* name) {
  if (!PyCapsule_CheckExact(capsule.ptr()) || !PyCapsule_IsValid(capsule.ptr(), name))
    throw nb::type_error((std::string("expected a PyCapsule named '") + name + "'").c_str());
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (p == nullptr) throw nb::python_error();
  if (p->release == nullptr)
    throw nb::value_error((std::string("the ") + name + " capsule was already consumed").c_str());
  return p;
}

}  // namespace

RecordBatch view_of(const SharedBatch& batch) {
  std::shared_ptr<const void> owner = batch;
  RecordBatch out;
  out.num_rows = batch->num_rows;
  out.columns.reserve(batch->columns.size());
  for (const Array& c : batch->columns) out.columns.push_back(view_of(c, owner));
  return out;
}

nb::object schema_capsule(const RecordBatch& prototype) {
  auto schema = std::make_unique<ArrowSchema>();
  std::memset(schema.get(), 0, sizeof(ArrowSchema));
  export_schema(prototype, schema.get());
  return wrap(std::move(schema), kSchemaName, destroy_schema);
}

nb::object array_capsule(RecordBatch&& batch) {
  auto array = std::make_unique<ArrowArray>();
  std::memset(array.get(), 0, sizeof(ArrowArray));
  export_batch(std::move(batch), array.get());
  return wrap(std::move(array), kArrayName, destroy_array);
}

nb::object stream_capsule(std::unique_ptr<BatchSource> source, int threads) {
  auto stream = std::make_unique<ArrowArrayStream>();
  std::memset(stream.get(), 0, sizeof(ArrowArrayStream));
  export_stream(std::move(source), stream.get(), threads);
  return wrap(std::move(stream), kStreamName, destroy_stream);
}

ArrowSchema* schema_in(nb::handle capsule) { return unwrap<ArrowSchema>(capsule, kSchemaName); }
ArrowArray* array_in(nb::handle capsule) { return unwrap<ArrowArray>(capsule, kArrayName); }
ArrowArrayStream* stream_in(nb::handle capsule) { return unwrap<ArrowArrayStream>(capsule, kStreamName); }

}  // namespace parq::python
