// The writing side of the module: _Writer, a FileWriter fed from Arrow
// PyCapsules (a schema, then arrays or streams), with the tool's writer
// options as a dict that parq/_writer.py builds from keyword arguments.
//
// A write that fails leaves no file: the FileWriter commits only in close(),
// and a writer destroyed without it abandons its temporary file. After a
// failed write the FileWriter can only be destroyed, so _Writer destroys it
// at once and refuses what follows.
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "data.h"
#include "encryption.h"
#include "parq/arrow/c_import.h"
#include "parq/compression/codec.h"
#include "parq/error.h"
#include "parq/file/file_writer.h"

namespace parq::python {
namespace {

[[noreturn]] void invalid(const std::string& what) { throw Error(what, ErrorKind::kInvalidArgument); }

format::Encoding encoding_of(const std::string& name) { return parse_encoding(name); }

compression::CodecChoice codec_of(const std::string& text, nb::handle level) {
  compression::CodecChoice c;
  try {
    c = compression::parse_codec(text);
  } catch (const Error& e) {
    throw Error(e.detail(), ErrorKind::kInvalidArgument);
  }
  if (!level.is_none()) c.level = nb::cast<int>(level);
  // make_codec checks the level against the codec's range now rather than
  // at the first page.
  try {
    compression::make_codec(c.id, c.level);
  } catch (const Error& e) {
    throw Error(e.detail(), ErrorKind::kInvalidArgument);
  }
  return c;
}

int64_t positive(const nb::dict& o, const char* key, int64_t minimum = 1) {
  int64_t v = nb::cast<int64_t>(o[key]);
  if (v < minimum) invalid(std::string(key) + " must be at least " + std::to_string(minimum));
  return v;
}

double fraction(const nb::dict& o, const char* key, bool open_interval) {
  double v = nb::cast<double>(o[key]);
  bool ok = open_interval ? v > 0 && v < 1 : v >= 0 && v <= 1;
  if (!ok) invalid(std::string(key) + (open_interval ? " must be between 0 and 1" : " must be from 0 to 1"));
  return v;
}

// The options as parq/_writer.py normalizes them: every key optional.

template <class T>
struct Released {
  T value;
  Released() { std::memset(&value, 0, sizeof value); }
  ~Released() {
    if (value.release != nullptr) value.release(&value);
  }
};

void check_same(const Schema& writer, const Schema& data) {
  if (writer.to_string() == data.to_string()) return;
  invalid("the data's schema differs from the writer's:\n" + data.to_string() + "\nthe writer has:\n" +
          writer.to_string());
}

class PyWriter {
 public:
  PyWriter(const std::string& path, nb::handle schema, const nb::dict& options)
      : path_(path), schema_(import_schema(schema_in(schema))), options_(write_options(options)) {
    encryption_ = encryption_of(options.contains("encryption") ? options["encryption"] : nb::none());
    if (encryption_) options_.encryption = encryption_->options;
    nb::gil_scoped_release release;
    writer_ = FileWriter::open(path_, schema_, options_);
  }

  void write_array(nb::handle schema_capsule, nb::handle array_capsule) {
    FileWriter& w = writer();
    ArrowSchema* schema = schema_in(schema_capsule);
    ArrowArray* array = array_in(array_capsule);
    guarded([&] {
      check_same(schema_, import_schema(schema));
      nb::gil_scoped_release release;
      w.write(import_batch(array, schema));
    });
  }

  void write_stream(nb::handle stream_capsule) {
    FileWriter& w = writer();
    ArrowArrayStream* stream = stream_in(stream_capsule);
    guarded([&] {
      check_same(schema_, stream_schema(stream));
      // import_stream moves the stream out of the capsule's structure.
      std::unique_ptr<BatchSource> source = import_stream(stream);
      // Declared after the source, so the producer's stream is released
      // with the GIL held again, as its release callback may need.
      nb::gil_scoped_release release;
      w.write_all(*source);
    });
  }

  void close() {
    FileWriter& w = writer();
    guarded([&] {
      nb::gil_scoped_release release;
      w.close();
      // Key material beside the file only once the file is complete.
      if (encryption_) encryption_->commit(path_);
    });
    num_rows_ = w.num_rows();
    closed_ = true;
    writer_.reset();
  }

  // Abandons the file: the temporary goes, the path stays as it was.
  void abort() {
    std::unique_ptr<FileWriter> w = std::move(writer_);
    nb::gil_scoped_release release;
    w.reset();
  }

  int64_t num_rows() const { return writer_ != nullptr ? writer_->num_rows() : num_rows_; }
  bool closed() const { return writer_ == nullptr; }
  std::string schema_text() const { return schema_.to_string(); }

 private:
  FileWriter& writer() {
    if (writer_ == nullptr)
      invalid(closed_ ? "the writer is closed" : "the writer failed earlier or was aborted; no file was written");
    return *writer_;
  }

  template <class F>
  void guarded(F&& body) {
    try {
      body();
    } catch (...) {
      abort();
      throw;
    }
  }

  std::string path_;
  Schema schema_;
  WriteOptions options_;
  std::optional<keys::FileEncryption> encryption_;
  std::unique_ptr<FileWriter> writer_;
  int64_t num_rows_ = 0;
  bool closed_ = false;
};

}  // namespace

// The stream's schema, asked without taking the stream.
Schema stream_schema(ArrowArrayStream* stream) {
  Released<ArrowSchema> schema;
  if (int rc = stream->get_schema(stream, &schema.value); rc != 0) {
    const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
    throw Error(std::string("Arrow import: stream get_schema failed (error ") + std::to_string(rc) + ")" +
                    (message != nullptr ? std::string(": ") + message : std::string()),
                ErrorKind::kInvalidArgument);
  }
  return import_schema(&schema.value);
}

WriteOptions write_options(const nb::dict& o) {
  WriteOptions w;
  auto has = [&](const char* key) { return o.contains(key) && !o[key].is_none(); };
  nb::object level = has("compression_level") ? nb::object(o["compression_level"]) : nb::none();
  if (has("codec")) {
    w.codec = codec_of(nb::cast<std::string>(o["codec"]), level);
  } else if (!level.is_none()) {
    w.codec = codec_of(format::to_string(w.codec.id), level);
  }
  if (has("column_codecs")) {
    for (auto& [col, codec] : nb::cast<std::map<std::string, std::string>>(o["column_codecs"]))
      w.columns[col].codec = codec_of(codec, level);
  }
  if (has("page_version")) {
    int v = nb::cast<int>(o["page_version"]);
    if (v != 1 && v != 2) invalid("page_version must be 1 or 2");
    w.page_version = v;
  }
  if (has("dictionary")) w.dictionary = nb::cast<bool>(o["dictionary"]);
  if (has("weigh_dictionary")) w.weigh_dictionary = nb::cast<bool>(o["weigh_dictionary"]);
  if (has("column_dictionary")) {
    for (auto& [col, on] : nb::cast<std::map<std::string, bool>>(o["column_dictionary"]))
      w.columns[col].dictionary = on;
  }
  if (has("dictionary_bytes")) w.dictionary_limits.max_bytes = static_cast<size_t>(positive(o, "dictionary_bytes", 0));
  if (has("dictionary_entries"))
    w.dictionary_limits.max_entries = static_cast<size_t>(positive(o, "dictionary_entries", 0));
  if (has("row_group_rows")) w.row_group_rows = positive(o, "row_group_rows");
  if (has("row_group_bytes")) w.row_group_bytes = positive(o, "row_group_bytes");
  if (has("page_bytes")) w.page_bytes = positive(o, "page_bytes");
  if (has("page_rows")) w.page_rows = positive(o, "page_rows", 0);
  if (has("statistics")) w.statistics = nb::cast<bool>(o["statistics"]);
  if (has("page_index")) w.page_index = nb::cast<bool>(o["page_index"]);
  if (has("crc")) w.page_crc = nb::cast<bool>(o["crc"]);
  if (has("min_saving")) w.min_compression_saving = fraction(o, "min_saving", false);
  if (has("max_statistics_bytes")) w.max_statistics_bytes = static_cast<size_t>(positive(o, "max_statistics_bytes", 0));
  if (has("threads")) w.threads = static_cast<int>(positive(o, "threads"));
  // --encoding uses the encoding throughout; --fallback keeps the
  // dictionary first and turns to it once the dictionary is full.
  if (has("encoding")) {
    for (auto& [col, enc] : nb::cast<std::map<std::string, std::string>>(o["encoding"])) {
      w.columns[col].encoding = encoding_of(enc);
      w.columns[col].dictionary = false;
    }
  }
  if (has("fallback")) {
    for (auto& [col, enc] : nb::cast<std::map<std::string, std::string>>(o["fallback"])) {
      w.columns[col].encoding = encoding_of(enc);
      w.columns[col].dictionary = true;
    }
  }
  double fpp = has("bloom_fpp") ? fraction(o, "bloom_fpp", true) : 0.01;
  if (has("bloom_filter")) {
    for (const std::string& col : nb::cast<std::vector<std::string>>(o["bloom_filter"]))
      w.columns[col].bloom_filter = BloomFilterOptions{0, fpp};
  }
  if (has("column_statistics")) {
    for (auto& [col, on] : nb::cast<std::map<std::string, bool>>(o["column_statistics"]))
      w.columns[col].statistics = on;
  }
  // Pairs of bytes (values may be None): keys and values need not be UTF-8.
  if (has("key_value_metadata")) {
    for (nb::handle pair : nb::cast<nb::list>(o["key_value_metadata"])) {
      auto [k, v] = nb::cast<std::pair<nb::bytes, nb::object>>(pair);
      format::KeyValue kv{std::string(k.c_str(), k.size()), std::nullopt};
      if (!v.is_none()) {
        auto value = nb::cast<nb::bytes>(v);
        kv.value = std::string(value.c_str(), value.size());
      }
      w.key_value_metadata.push_back(std::move(kv));
    }
  }
  if (has("created_by")) w.created_by = nb::cast<std::string>(o["created_by"]);
  if (has("checkpoint")) {
    try {
      w.checkpoint = parse_checkpoint(nb::cast<std::string>(o["checkpoint"]));
    } catch (const Error& e) {
      invalid(std::string("checkpoint takes ") + e.what());
    }
  }
  return w;
}

void register_writing(nb::module_& m) {
  m.def(
      "_write_stream",
      [](const std::string& path, nb::handle stream_capsule, const nb::dict& options) {
        ArrowArrayStream* stream = stream_in(stream_capsule);
        Schema schema = stream_schema(stream);
        WriteOptions o = write_options(options);
        std::optional<keys::FileEncryption> encryption =
            encryption_of(options.contains("encryption") ? options["encryption"] : nb::none());
        if (encryption) o.encryption = encryption->options;
        std::unique_ptr<BatchSource> source = import_stream(stream);
        nb::gil_scoped_release release;
        // Destroyed without close() when anything throws: no file appears.
        std::unique_ptr<FileWriter> writer = FileWriter::open(path, schema, std::move(o));
        writer->write_all(*source);
        writer->close();
        if (encryption) encryption->commit(path);
        return writer->num_rows();
      },
      nb::arg("path"), nb::arg("stream"), nb::arg("options"),
      "Writes every batch of an arrow_array_stream capsule as a file; returns the row count.");

  nb::class_<PyWriter>(m, "_Writer", "A FileWriter fed with Arrow PyCapsules (see parq.ParquetWriter).")
      .def(nb::init<const std::string&, nb::handle, const nb::dict&>(), nb::arg("path"), nb::arg("schema"),
           nb::arg("options"), "Opens the writer: `schema` is an arrow_schema capsule of a struct type.")
      .def("write_array", &PyWriter::write_array, nb::arg("schema"), nb::arg("array"),
           "Appends the rows of an arrow_array capsule described by an arrow_schema capsule.")
      .def("write_stream", &PyWriter::write_stream, nb::arg("stream"),
           "Appends every batch of an arrow_array_stream capsule.")
      .def("close", &PyWriter::close, "Writes the footer; the file appears under its name.")
      .def("abort", &PyWriter::abort, "Abandons the file: nothing appears at the path.")
      .def_prop_ro("num_rows", &PyWriter::num_rows, "Rows written so far.")
      .def_prop_ro("closed", &PyWriter::closed, "Whether the writer is closed, failed or aborted.")
      .def_prop_ro("schema_text", &PyWriter::schema_text, "The Parquet schema being written.");
}

}  // namespace parq::python
