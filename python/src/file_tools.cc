// The file tools of the module: recovery of a file cut short, verification
// of every page, concatenation and splitting by row groups as they are, and
// merging by re-encoding. Each releases the GIL for the whole job and
// answers with plain dicts and lists.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "common.h"
#include "data.h"
#include "encryption.h"
#include "parq/file/file_reader.h"
#include "parq/file/footer.h"
#include "parq/file/merge.h"
#include "parq/file/recover.h"
#include "parq/file/row_group_copy.h"
#include "parq/file/verify.h"
#include "parq/io/input.h"

namespace parq::python {
namespace {

nb::dict recover(const std::string& broken, const std::string& out, const std::optional<std::string>& schema_from,
                 bool scan) {
  file::RecoveryReport r;
  {
    nb::gil_scoped_release release;
    file::RecoverOptions options;
    options.scan_pages = scan;
    if (schema_from) options.schema_from = file::read_footer(*io::open_file(*schema_from)).metadata;
    auto input = io::open_file(broken);
    r = file::recover_file(*input, out, options);
  }
  nb::dict d;
  d["whole"] = r.whole;
  d["found_checkpoint"] = r.found_checkpoint;
  d["checkpoint_row_groups"] = r.checkpoint_row_groups;
  d["scanned_row_groups"] = r.scanned_row_groups;
  d["rows"] = r.rows;
  d["bytes_kept"] = r.bytes_kept;
  d["bytes_lost"] = r.bytes_lost;
  d["scan_stopped"] = r.scan_stopped;
  return d;
}

// A location's part, or None where it is unknown.
nb::object known(int64_t v) { return v < 0 ? nb::object(nb::none()) : nb::object(nb::int_(v)); }

nb::list verify(const std::string& path, const std::optional<std::vector<std::string>>& columns,
                nb::handle decryption) {
  ReaderOptions reader;
  reader.footer.decryption = decryption_of(decryption);
  VerifyReport report;
  {
    nb::gil_scoped_release release;
    auto file = FileReader::open(path, reader);
    VerifyOptions options;
    if (columns) {
      for (const std::string& c : *columns) {
        const int index = file->schema().find_column(c);
        if (index < 0)
          throw Error(ErrorKind::kInvalidArgument, {.file = path}, "the file has no leaf column '" + c + "'");
        options.columns.push_back(static_cast<size_t>(index));
      }
    }
    report = verify_file(*file, options);
  }
  nb::list out;
  for (const VerifyProblem& p : report.problems) {
    nb::dict d;
    d["file"] = p.where.file;
    d["row_group"] = known(p.where.row_group);
    d["column"] = p.where.column.empty() ? nb::object(nb::none()) : nb::object(nb::str(p.where.column.c_str()));
    d["page"] = known(p.where.page);
    d["offset"] = known(p.where.offset);
    d["problem"] = p.what;
    d["text"] = p.to_string();
    out.append(d);
  }
  return out;
}

nb::dict concat(const std::vector<std::string>& inputs, const std::string& output) {
  ConcatResult r;
  {
    nb::gil_scoped_release release;
    r = concat_files(inputs, output);
  }
  nb::dict d;
  d["rows"] = r.rows;
  d["row_groups"] = r.row_groups;
  d["without_statistics"] = r.without_statistics;
  return d;
}

nb::dict merge(const std::vector<std::string>& inputs, const std::string& output, const nb::dict& writer_options) {
  WriteOptions options = write_options(writer_options);
  MergeResult r;
  {
    nb::gil_scoped_release release;
    r = merge_files(inputs, output, std::move(options));
  }
  nb::dict d;
  d["rows"] = r.rows;
  d["row_groups"] = r.row_groups;
  return d;
}

nb::dict split(const std::string& input, const std::string& outdir, int64_t rows, int64_t bytes, int64_t row_groups) {
  SplitOptions options;
  options.rows = rows;
  options.bytes = bytes;
  if (row_groups < 0) throw Error("split: row_groups must be at least 1", ErrorKind::kInvalidArgument);
  options.row_groups = static_cast<size_t>(row_groups);
  SplitResult r;
  {
    nb::gil_scoped_release release;
    r = split_file(input, outdir, options);
  }
  nb::list pieces;
  for (const SplitPiece& p : r.pieces) {
    nb::dict d;
    d["path"] = p.path;
    d["rows"] = p.rows;
    d["row_groups"] = p.row_groups;
    pieces.append(d);
  }
  nb::dict d;
  d["pieces"] = pieces;
  d["removed"] = r.removed;
  return d;
}

}  // namespace

void register_file_tools(nb::module_& m) {
  m.def("_recover", &recover, nb::arg("broken"), nb::arg("out"), nb::arg("schema_from").none(), nb::arg("scan"),
        "Recovers a file cut short into `out` (see parq.recover).");
  m.def("_verify", &verify, nb::arg("path"), nb::arg("columns").none(), nb::arg("decryption").none(),
        "Every problem of a file's pages and metadata (see parq.verify).");
  m.def("_concat", &concat, nb::arg("inputs"), nb::arg("output"),
        "Copies the row groups of files into one, as they are (see parq.concat).");
  m.def("_merge", &merge, nb::arg("inputs"), nb::arg("output"), nb::arg("writer_options"),
        "Writes the rows of files into one, re-encoded (see parq.merge).");
  m.def("_split", &split, nb::arg("input"), nb::arg("outdir"), nb::arg("rows"), nb::arg("bytes"), nb::arg("row_groups"),
        "Cuts a file into pieces by row groups as they are (see parq.split).");
}

}  // namespace parq::python
