// The dataset side of the module: _Dataset (many files, folders, globs,
// URLs or a _metadata file read as one table, see parq/dataset/dataset.h)
// and _write_dataset (a partitioned folder of files). parq/_dataset.py
// wraps them.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "data.h"
#include "encryption.h"
#include "parq/arrow/c_import.h"
#include "parq/dataset/dataset.h"
#include "parq/dataset/dataset_writer.h"
#include "parq/error.h"
#include "parq/schema/schema_text.h"

namespace parq::python {
namespace {

class PyDataset {
 public:
  static PyDataset open(const std::vector<std::string>& locations, bool hive, bool by_field_id, int threads,
                        nb::handle filter, nb::handle storage_options,
                        const std::vector<std::pair<std::string, std::string>>& partition_types,
                        nb::handle decryption) {
    if (threads < 1) throw Error("threads must be at least 1", ErrorKind::kInvalidArgument);
    DatasetOptions options;
    options.hive_partitioning = hive;
    options.reader.remote = remote_options_of(storage_options);
    options.reader.footer.decryption = decryption_of(decryption);
    for (const auto& [key, type] : partition_types) options.partition_types.emplace_back(key, parse_leaf_type(type));
    if (by_field_id) options.schema_match = SchemaMatch::kByFieldId;
    options.threads = threads;
    options.filter = filter_of(filter);
    nb::gil_scoped_release release;
    return PyDataset{Dataset::open(locations, options)};
  }

  const Dataset& dataset() const { return *dataset_; }

  std::unique_ptr<BatchSource> source(std::optional<std::vector<std::string>> columns, nb::handle filter, int threads,
                                      int64_t batch_rows, int64_t memory_limit, bool verify_crc,
                                      const std::string& file_name_column, const std::string& row_index_column) const {
    check_read_numbers(threads, batch_rows, memory_limit);
    DatasetReadOptions o;
    if (columns) o.read.columns = std::move(*columns);
    o.read.filter = filter_of(filter);
    o.read.threads = threads;
    o.read.batch_rows = batch_rows;
    o.read.memory_limit = memory_limit;
    o.read.pages.verify_crc = verify_crc;
    o.read.row_index_column = row_index_column;
    o.file_name_column = file_name_column;
    nb::gil_scoped_release release;
    return read_batches(dataset_, o);
  }

  int64_t count_rows(nb::handle filter, int threads) const {
    check_read_numbers(threads, 1, 0);
    ReadOptions o;
    o.filter = filter_of(filter);
    o.threads = threads;
    nb::gil_scoped_release release;
    return parq::count_rows(dataset_, o);
  }

  std::shared_ptr<const Dataset> dataset_;
};

}  // namespace

void register_datasets(nb::module_& m) {
  nb::class_<PyDataset>(m, "_Dataset", "Many Parquet files read as one table (see parq.Dataset).")
      .def_static("open", &PyDataset::open, nb::arg("locations"), nb::arg("hive"), nb::arg("by_field_id"),
                  nb::arg("threads"), nb::arg("filter").none() = nb::none(),
                  nb::arg("storage_options").none() = nb::none(),
                  nb::arg("partition_types") = std::vector<std::pair<std::string, std::string>>{},
                  nb::arg("decryption").none() = nb::none(),
                  "Finds the files and reads the footers of those whose partition values the filter leaves in.")
      .def_prop_ro(
          "num_rows", [](const PyDataset& d) { return d.dataset().num_rows(); }, "Rows in all the files.")
      .def_prop_ro(
          "files",
          [](const PyDataset& d) {
            std::vector<std::string> out;
            for (const DatasetFile& f : d.dataset().files()) out.push_back(f.location);
            return out;
          },
          "The files' locations, in reading order.")
      .def_prop_ro(
          "partition_columns", [](const PyDataset& d) { return d.dataset().partition_columns(); },
          "Columns taken from key=value folders.")
      .def(
          "schema_text", [](const PyDataset& d) { return d.dataset().schema().to_string(); },
          "The united schema in message notation.")
      .def(
          "arrow_schema",
          [](const PyDataset& d, std::optional<std::vector<std::string>> columns) {
            return PySchema{std::make_shared<const RecordBatch>(
                d.source(std::move(columns), nb::none(), 1, 1, 0, true, "", "")->prototype())};
          },
          nb::arg("columns") = nb::none(), "The Arrow schema a read of these columns yields.")
      .def(
          "read_batches",
          [](const PyDataset& d, std::optional<std::vector<std::string>> columns, nb::handle filter, int threads,
             int64_t batch_rows, int64_t memory_limit, bool verify_crc, const std::string& file_name_column,
             const std::string& row_index_column) {
            return std::make_unique<PyReader>(d.source(std::move(columns), filter, threads, batch_rows, memory_limit,
                                                       verify_crc, file_name_column, row_index_column));
          },
          nb::arg("columns").none(), nb::arg("filter").none(), nb::arg("threads"), nb::arg("batch_rows"),
          nb::arg("memory_limit"), nb::arg("verify_crc"), nb::arg("file_name_column"), nb::arg("row_index_column"),
          "A RecordBatchReader over the dataset.")
      .def(
          "read_table",
          [](const PyDataset& d, std::optional<std::vector<std::string>> columns, nb::handle filter, int threads,
             int64_t batch_rows, int64_t memory_limit, bool verify_crc, const std::string& file_name_column,
             const std::string& row_index_column) {
            std::unique_ptr<BatchSource> source =
                d.source(std::move(columns), filter, threads, batch_rows, memory_limit, verify_crc, file_name_column,
                         row_index_column);
            auto prototype = std::make_shared<const RecordBatch>(source->prototype());
            return PyTable{read_table_data(*source, std::move(prototype), threads)};
          },
          nb::arg("columns").none(), nb::arg("filter").none(), nb::arg("threads"), nb::arg("batch_rows"),
          nb::arg("memory_limit"), nb::arg("verify_crc"), nb::arg("file_name_column"), nb::arg("row_index_column"),
          "Reads into a Table.")
      .def("count_rows", &PyDataset::count_rows, nb::arg("filter").none(), nb::arg("threads"),
           "Rows that match the filter (all rows without one, from the footers).");

  m.def("_is_dataset_location", &is_dataset_location, nb::arg("location"),
        "Whether a location names several files: a folder, a glob, a _metadata file, a URL prefix.");

  m.def(
      "_write_dataset",
      [](const std::string& folder, nb::handle stream_capsule, const nb::dict& options,
         const std::vector<std::string>& partition_by, int64_t max_rows_per_file, int64_t max_bytes_per_file,
         bool summary) {
        ArrowArrayStream* stream = stream_in(stream_capsule);
        Schema schema = stream_schema(stream);
        DatasetWriteOptions d;
        d.write = write_options(options);
        std::optional<keys::FileEncryption> encryption =
            encryption_of(options.contains("encryption") ? options["encryption"] : nb::none());
        // Key material beside files would be one file's for many.
        if (encryption && !encryption->external_key_material.empty())
          throw Error("external key material is one file's; write_dataset takes internal key material",
                      ErrorKind::kInvalidArgument);
        if (encryption) d.write.encryption = encryption->options;
        d.partition_by = partition_by;
        d.max_rows_per_file = max_rows_per_file;
        d.max_bytes_per_file = max_bytes_per_file;
        d.write_summary = summary;
        std::unique_ptr<BatchSource> source = import_stream(stream);
        nb::gil_scoped_release release;
        std::unique_ptr<DatasetWriter> writer = DatasetWriter::open(folder, schema, std::move(d));
        writer->write_all(*source);
        writer->close();
        return writer->files();
      },
      nb::arg("folder"), nb::arg("stream"), nb::arg("options"), nb::arg("partition_by"), nb::arg("max_rows_per_file"),
      nb::arg("max_bytes_per_file"), nb::arg("summary"),
      "Writes every batch of an arrow_array_stream capsule as a partitioned folder; returns the files written.");
}

}  // namespace parq::python
