// Schema, RecordBatch, Table and RecordBatchReader as Python classes: what
// each exports through the Arrow PyCapsule interface, and the conveniences
// that hand them to pyarrow, pandas and polars.
#include "data.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>
#include <variant>

#include "parq/arrow/c_export.h"
#include "parq/error.h"

namespace parq::python {
namespace {

// Pyarrow's spelling of an Arrow C format string, for repr().
std::string type_name(const ArrowSchema& s) {
  const std::string f = s.format;
  static const std::pair<const char*, const char*> kSimple[] = {
      {"n", "null"},         {"b", "bool"},          {"c", "int8"},         {"C", "uint8"},
      {"s", "int16"},        {"S", "uint16"},        {"i", "int32"},        {"I", "uint32"},
      {"l", "int64"},        {"L", "uint64"},        {"e", "halffloat"},    {"f", "float"},
      {"g", "double"},       {"z", "binary"},        {"Z", "large_binary"}, {"u", "string"},
      {"U", "large_string"}, {"tdD", "date32[day]"}, {"tdm", "date64[ms]"}, {"tts", "time32[s]"},
      {"ttm", "time32[ms]"}, {"ttu", "time64[us]"},  {"ttn", "time64[ns]"}, {"tin", "month_day_nano_interval"},
  };
  for (const auto& [code, name] : kSimple)
    if (f == code) return name;
  auto child = [&](int64_t i) {
    const ArrowSchema& c = *s.children[i];
    return std::string(c.name != nullptr ? c.name : "") + ": " + type_name(c);
  };
  if (f.rfind("d:", 0) == 0) {
    const bool wide = f.find(",256") != std::string::npos;
    std::string ps = f.substr(2, wide ? f.size() - 6 : std::string::npos);
    return std::string(wide ? "decimal256(" : "decimal128(") + ps + ")";
  }
  if (f.rfind("w:", 0) == 0) return "fixed_size_binary[" + f.substr(2) + "]";
  if (f.rfind("ts", 0) == 0 && f.size() >= 4) {
    const char unit = f[2];
    std::string u = unit == 's' ? "s" : unit == 'm' ? "ms" : unit == 'u' ? "us" : "ns";
    std::string zone = f.substr(4);
    return "timestamp[" + u + (zone.empty() ? "" : ", tz=" + zone) + "]";
  }
  if ((f == "+l" || f == "+L") && s.n_children == 1)
    return std::string(f == "+L" ? "large_list<" : "list<") + child(0) + ">";
  if (f == "+m" && s.n_children == 1 && s.children[0]->n_children == 2) {
    const ArrowSchema& e = *s.children[0];
    return "map<" + type_name(*e.children[0]) + ", " + type_name(*e.children[1]) + ">";
  }
  if (f == "+s") {
    std::string out = "struct<";
    for (int64_t i = 0; i < s.n_children; ++i) out += (i ? ", " : "") + child(i);
    return out + ">";
  }
  return f;
}

struct SchemaHolder {
  ArrowSchema s;
  SchemaHolder() { std::memset(&s, 0, sizeof s); }
  ~SchemaHolder() {
    if (s.release != nullptr) s.release(&s);
  }
};

std::vector<std::string> names_of(const RecordBatch& prototype) {
  std::vector<std::string> names;
  for (const Array& c : prototype.columns) names.push_back(c.name);
  return names;
}

std::string describe_columns(const RecordBatch& prototype) {
  SchemaHolder holder;
  export_schema(prototype, &holder.s);
  std::string out;
  for (int64_t i = 0; i < holder.s.n_children; ++i) {
    const ArrowSchema& c = *holder.s.children[i];
    out += std::string("\n") + c.name + ": " + type_name(c);
  }
  return out;
}

// Stream of a Table: views of its batches, so that the Table stays whole.
class TableSource final : public BatchSource {
 public:
  explicit TableSource(std::shared_ptr<const TableData> data) : data_(std::move(data)) {}
  RecordBatch prototype() const override { return *data_->prototype; }
  bool offsets_ordered() const override { return data_->offsets_ordered; }
  bool next(RecordBatch& out) override {
    if (next_ >= data_->batches.size()) return false;
    out = view_of(data_->batches[next_++]);
    return true;
  }

 private:
  std::shared_ptr<const TableData> data_;
  size_t next_ = 0;
};

// The column of a batch by position or top-level name.
const Array& column_of(const RecordBatch& batch, const std::variant<int64_t, std::string>& key) {
  if (const auto* i = std::get_if<int64_t>(&key)) {
    int64_t n = static_cast<int64_t>(batch.columns.size());
    int64_t k = *i < 0 ? *i + n : *i;
    if (k < 0 || k >= n) throw nb::index_error("column index out of range");
    return batch.columns[k];
  }
  const std::string& name = std::get<std::string>(key);
  for (const Array& c : batch.columns)
    if (c.name == name) return c;
  throw nb::key_error(("no column named '" + name + "'").c_str());
}

// The address of the Arrow buffer `i` of a column as exported (0: none):
// leaves 0 validity, 1 values (or offsets, then 2 values, for byte
// arrays); lists and maps 0 validity, 1 offsets; structs 0 validity.
uintptr_t buffer_address(const Array& a, int i) {
  const Buffer* b = nullptr;
  if (i == 0) {
    b = &a.validity;
  } else if (a.kind == ArrayKind::kLeaf) {
    if (a.type.physical == format::Type::BYTE_ARRAY) {
      b = i == 1 ? &a.offsets : i == 2 ? &a.values : nullptr;
    } else if (i == 1) {
      b = &a.values;
    }
  } else if ((a.kind == ArrayKind::kList || a.kind == ArrayKind::kMap) && i == 1) {
    b = &a.offsets;
  }
  if (b == nullptr) throw nb::index_error("no such buffer in this column");
  return b->empty() ? 0 : reinterpret_cast<uintptr_t>(b->data());
}

nb::object import_module(const char* name) { return nb::module_::import_(name); }

}  // namespace

Prototype prototype_of(const RecordBatch& batch) {
  struct Shape {
    static Array of(const Array& a) {
      Array out;
      out.kind = a.kind;
      out.name = a.name;
      out.type = a.type;
      for (const Array& c : a.children) out.children.push_back(of(c));
      return out;
    }
  };
  auto p = std::make_shared<RecordBatch>();
  for (const Array& c : batch.columns) p->columns.push_back(Shape::of(c));
  return p;
}

std::shared_ptr<const TableData> read_table_data(BatchSource& source, Prototype prototype, int threads) {
  auto data = std::make_shared<TableData>();
  data->prototype = std::move(prototype);
  data->export_threads = threads;
  data->offsets_ordered = source.offsets_ordered();
  nb::gil_scoped_release release;
  RecordBatch batch;
  while (source.next(batch)) {
    data->num_rows += batch.num_rows;
    data->batches.push_back(std::make_shared<const RecordBatch>(std::move(batch)));
    batch = RecordBatch();
  }
  return data;
}

PyReader::PyReader(std::unique_ptr<BatchSource> source) : source_(std::move(source)) {
  prototype_ = std::make_shared<const RecordBatch>(source_->prototype());
}

std::optional<SharedBatch> PyReader::next() {
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  if (source_ == nullptr) {
    if (exported_) throw Error("this reader was handed to an Arrow stream consumer", ErrorKind::kInvalidArgument);
    if (failed_) throw Error("this reader failed earlier", ErrorKind::kInvalidArgument);
    return std::nullopt;
  }
  RecordBatch batch;
  try {
    if (!source_->next(batch)) {
      source_.reset();  // closes the file once nothing else holds it
      return std::nullopt;
    }
  } catch (...) {
    // A source that threw may be mid-batch: it is not asked again.
    source_.reset();
    failed_ = true;
    throw;
  }
  return std::make_shared<const RecordBatch>(std::move(batch));
}

std::shared_ptr<const TableData> PyReader::read_all() {
  auto data = std::make_shared<TableData>();
  data->prototype = prototype_;
  nb::gil_scoped_release release;
  std::lock_guard lock(mutex_);
  if (source_ == nullptr && exported_)
    throw Error("this reader was handed to an Arrow stream consumer", ErrorKind::kInvalidArgument);
  if (source_ == nullptr && failed_) throw Error("this reader failed earlier", ErrorKind::kInvalidArgument);
  if (source_ != nullptr) {
    data->offsets_ordered = source_->offsets_ordered();
    RecordBatch batch;
    try {
      while (source_->next(batch)) {
        data->num_rows += batch.num_rows;
        data->batches.push_back(std::make_shared<const RecordBatch>(std::move(batch)));
        batch = RecordBatch();
      }
    } catch (...) {
      failed_ = true;
      source_.reset();
      throw;
    }
    source_.reset();
  }
  return data;
}

std::unique_ptr<BatchSource> PyReader::take() {
  std::lock_guard lock(mutex_);
  if (source_ == nullptr)
    throw Error(
        exported_ ? "this reader was already handed to an Arrow stream consumer" : "this reader is closed or exhausted",
        ErrorKind::kInvalidArgument);
  exported_ = true;
  return std::move(source_);
}

void PyReader::close() {
  std::unique_ptr<BatchSource> source;
  {
    std::lock_guard lock(mutex_);
    source = std::move(source_);
  }
  nb::gil_scoped_release release;
  source.reset();  // may wait for decoding threads
}

void register_data(nb::module_& m) {
  nb::class_<PySchema>(m, "Schema",
                       "The Arrow schema of the batches a read yields: names and Arrow types of the top-level "
                       "columns. Implements ``__arrow_c_schema__``, so ``pyarrow.schema(s)`` converts it.")
      .def_prop_ro(
          "names", [](const PySchema& s) { return names_of(*s.prototype); }, "The top-level column names.")
      .def(
          "__arrow_c_schema__", [](const PySchema& s) { return schema_capsule(*s.prototype); },
          "An ``arrow_schema`` PyCapsule (Arrow PyCapsule interface).")
      .def("__len__", [](const PySchema& s) { return s.prototype->columns.size(); })
      .def("__repr__", [](const PySchema& s) { return "parq.Schema" + describe_columns(*s.prototype); });

  nb::class_<PyBatch>(m, "RecordBatch",
                      "Rows decoded by parq, in Arrow's memory layout. Implements ``__arrow_c_array__`` and "
                      "``__arrow_c_schema__``: ``pyarrow.record_batch(b)`` takes it without copying fixed-width "
                      "buffers. Exporting never consumes the batch.")
      .def_prop_ro(
          "num_rows", [](const PyBatch& b) { return b.batch->num_rows; }, "The number of rows.")
      .def_prop_ro(
          "num_columns", [](const PyBatch& b) { return b.batch->columns.size(); }, "The number of top-level columns.")
      .def_prop_ro(
          "column_names", [](const PyBatch& b) { return names_of(*b.batch); }, "The top-level column names.")
      .def_prop_ro(
          "schema", [](const PyBatch& b) { return PySchema{prototype_of(*b.batch)}; }, "The batch's Arrow schema.")
      .def("__len__", [](const PyBatch& b) { return b.batch->num_rows; })
      .def(
          "__arrow_c_schema__", [](const PyBatch& b) { return schema_capsule(*b.batch); },
          "An ``arrow_schema`` PyCapsule of the batch's struct type.")
      .def(
          "__arrow_c_array__",
          [](const PyBatch& b, nb::object requested_schema) {
            // The requested schema is a hint the producer may ignore
            // (the PyCapsule interface); the batch exports as it is.
            (void)requested_schema;
            nb::object schema = schema_capsule(*b.batch);
            nb::object array = array_capsule(view_of(b.batch));
            return nb::make_tuple(schema, array);
          },
          nb::arg("requested_schema") = nb::none(),
          "A tuple of ``arrow_schema`` and ``arrow_array`` PyCapsules; the array's buffers are the batch's own. "
          "``requested_schema`` is ignored.")
      .def(
          "_buffer_address",
          [](const PyBatch& b, std::variant<int64_t, std::string> column, int buffer) {
            return buffer_address(column_of(*b.batch, column), buffer);
          },
          nb::arg("column"), nb::arg("buffer"),
          "Debugging aid: the address of a top-level column's Arrow buffer ``buffer`` (0: validity, 1: values or "
          "offsets, 2: the bytes of strings and binaries) as exported, 0 when the buffer is empty; for checking that "
          "a consumer shares memory with parq.")
      .def(
          "to_pyarrow", [](nb::handle self) { return import_module("pyarrow").attr("record_batch")(self); },
          "The batch as a ``pyarrow.RecordBatch`` (zero copy for fixed-width buffers); needs pyarrow.")
      .def("__repr__", [](const PyBatch& b) {
        return "parq.RecordBatch: " + std::to_string(b.batch->num_rows) + " rows" + describe_columns(*b.batch);
      });

  nb::class_<PyTable>(m, "Table",
                      "A read's rows held in memory as a list of record batches. Implements "
                      "``__arrow_c_stream__``, any number of times: ``pyarrow.table(t)``, ``polars.DataFrame(t)`` "
                      "and DuckDB's ``SELECT * FROM t`` each take it without copying fixed-width buffers.")
      .def_prop_ro(
          "num_rows", [](const PyTable& t) { return t.data->num_rows; }, "The number of rows.")
      .def_prop_ro(
          "num_columns", [](const PyTable& t) { return t.data->prototype->columns.size(); },
          "The number of top-level columns.")
      .def_prop_ro(
          "column_names", [](const PyTable& t) { return names_of(*t.data->prototype); }, "The top-level column names.")
      .def_prop_ro(
          "schema", [](const PyTable& t) { return PySchema{t.data->prototype}; }, "The table's Arrow schema.")
      .def_prop_ro(
          "num_batches", [](const PyTable& t) { return t.data->batches.size(); }, "The number of record batches.")
      .def("__len__", [](const PyTable& t) { return t.data->num_rows; })
      .def(
          "to_batches",
          [](const PyTable& t) {
            std::vector<PyBatch> out;
            for (const SharedBatch& b : t.data->batches) out.push_back(PyBatch{b});
            return out;
          },
          "The record batches, sharing the table's memory.")
      .def(
          "__arrow_c_schema__", [](const PyTable& t) { return schema_capsule(*t.data->prototype); },
          "An ``arrow_schema`` PyCapsule of the table's struct type.")
      .def(
          "__arrow_c_stream__",
          [](const PyTable& t, nb::object requested_schema) {
            (void)requested_schema;  // a hint the producer may ignore
            return stream_capsule(std::make_unique<TableSource>(t.data), t.data->export_threads);
          },
          nb::arg("requested_schema") = nb::none(),
          "An ``arrow_array_stream`` PyCapsule over the table's batches (their own buffers). May be called any "
          "number of times; ``requested_schema`` is ignored.")
      .def(
          "to_pyarrow", [](nb::handle self) { return import_module("pyarrow").attr("table")(self); },
          "The table as a ``pyarrow.Table`` (zero copy for fixed-width buffers); needs pyarrow.")
      .def(
          "to_pandas",
          [](nb::handle self, nb::kwargs kwargs) {
            return import_module("pyarrow").attr("table")(self).attr("to_pandas")(**kwargs);
          },
          "The table as a ``pandas.DataFrame``, through pyarrow (keyword arguments go to "
          "``pyarrow.Table.to_pandas``); needs pyarrow and pandas.")
      .def(
          "to_polars", [](nb::handle self) { return import_module("polars").attr("DataFrame")(self); },
          "The table as a ``polars.DataFrame``; needs polars.")
      .def("__repr__", [](const PyTable& t) {
        return "parq.Table: " + std::to_string(t.data->num_rows) + " rows in " +
               std::to_string(t.data->batches.size()) + " batches" + describe_columns(*t.data->prototype);
      });

  nb::class_<PyReader>(m, "RecordBatchReader",
                       "Batches of a read in progress, decoded as they are asked for. Iterate it for RecordBatch "
                       "objects, or hand it whole to a consumer through ``__arrow_c_stream__`` (once: the stream "
                       "takes the read over, as with pyarrow's RecordBatchReader). The read keeps its file open, "
                       "so the reader outlives the ParquetFile it came from.")
      .def_prop_ro(
          "schema", [](const PyReader& r) { return PySchema{r.prototype()}; }, "The Arrow schema of the batches.")
      .def("__iter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__next__",
           [](PyReader& r) {
             auto b = r.next();
             if (!b) throw nb::stop_iteration();
             return PyBatch{*b};
           })
      .def(
          "read_next_batch",
          [](PyReader& r) {
            auto b = r.next();
            if (!b) throw nb::stop_iteration();
            return PyBatch{*b};
          },
          "The next batch; raises StopIteration at the end.")
      .def(
          "read_all", [](PyReader& r) { return PyTable{r.read_all()}; },
          "Every batch left, as a Table; the reader is then exhausted.")
      .def(
          "__arrow_c_schema__", [](const PyReader& r) { return schema_capsule(*r.prototype()); },
          "An ``arrow_schema`` PyCapsule of the batches' struct type.")
      .def(
          "__arrow_c_stream__",
          [](PyReader& r, nb::object requested_schema) {
            (void)requested_schema;  // a hint the producer may ignore
            return stream_capsule(r.take());
          },
          nb::arg("requested_schema") = nb::none(),
          "An ``arrow_array_stream`` PyCapsule that takes the rest of the read over; the reader is consumed. "
          "``requested_schema`` is ignored.")
      .def("close", &PyReader::close, "Stops the read and releases its file (when nothing else holds it).")
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def(
          "__exit__", [](PyReader& r, nb::args) { r.close(); }, "Closes the reader.")
      .def("__repr__", [](const PyReader& r) { return "parq.RecordBatchReader" + describe_columns(*r.prototype()); });
}

}  // namespace parq::python
