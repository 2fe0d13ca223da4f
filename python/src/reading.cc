// The reading side of the module: an open file (_File), its metadata as
// plain Python values, and reads with the library's ReadOptions (columns,
// row groups, a filter, threads, batch size) as a RecordBatchReader or a
// Table. parq/__init__.py wraps _File as ParquetFile.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "data.h"
#include "encryption.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/filter/expression.h"
#include "parq/io/input.h"
#include "parq/plan/splits.h"
#include "parq/schema/logical_type.h"
#include "parq/text/variant_text.h"
#include "parq/variant/variant.h"

namespace parq::python {
namespace {

using filter::CompareOp;
using filter::Expression;
using filter::ExpressionPtr;
using filter::Literal;

// A literal as parq/_filters.py normalizes it: (kind, text).
using LiteralSpec = std::pair<std::string, std::string>;
// (column, operator, literals): one conjunct of a disjunctive normal form.
using TermSpec = std::tuple<std::string, std::string, std::vector<LiteralSpec>>;

// Binary literals cross as hex text: nanobind's std::string takes str only.
std::string unhex(const std::string& hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw Error("bad hex in a binary filter literal", ErrorKind::kInvalidArgument);
  };
  if (hex.size() % 2 != 0) throw Error("bad hex in a binary filter literal", ErrorKind::kInvalidArgument);
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1]));
  return out;
}

Literal literal_of(const LiteralSpec& spec) {
  const auto& [kind, text] = spec;
  if (kind == "null") return Literal::null();
  if (kind == "bool") return Literal::boolean(text == "true");
  if (kind == "number") return Literal::number(text);
  if (kind == "string") return Literal::string(text);
  if (kind == "binary") return Literal::binary(unhex(text));
  if (kind == "date") return Literal::date(text);
  if (kind == "time") return Literal::time(text);
  if (kind == "timestamp") return Literal::timestamp(text);
  throw Error("unknown filter literal kind '" + kind + "'", ErrorKind::kInvalidArgument);
}

ExpressionPtr term_of(const TermSpec& term) {
  // Named, not bound: the lambda below captures them (clang before 16 cannot
  // capture structured bindings).
  const std::string& column = std::get<0>(term);
  const std::string& op = std::get<1>(term);
  const auto& specs = std::get<2>(term);
  std::vector<Literal> literals;
  for (const LiteralSpec& s : specs) literals.push_back(literal_of(s));
  auto single = [&]() -> const Literal& {
    if (literals.size() != 1)
      throw Error("filter on '" + column + "': '" + op + "' takes one value", ErrorKind::kInvalidArgument);
    return literals[0];
  };
  static const std::pair<const char*, CompareOp> kCompare[] = {
      {"=", CompareOp::kEqual},         {"==", CompareOp::kEqual},     {"!=", CompareOp::kNotEqual},
      {"<", CompareOp::kLess},          {"<=", CompareOp::kLessEqual}, {">", CompareOp::kGreater},
      {">=", CompareOp::kGreaterEqual},
  };
  for (const auto& [name, cmp] : kCompare)
    if (op == name) return Expression::compare(column, cmp, single());
  if (op == "in" || op == "not in") {
    // Pyarrow's membership, which the tuple form follows: a None in the
    // list matches null values, and "not in" keeps null values unless the
    // list has a None (its is_in answers false for them, the negation
    // true). SQL's IN and NOT IN never keep a null; the text form is SQL.
    bool has_null = false;
    std::vector<Literal> values;
    for (Literal& l : literals) {
      if (l.kind == Literal::Kind::kNull) {
        has_null = true;
      } else {
        values.push_back(std::move(l));
      }
    }
    // An empty list matches nothing; any_of of nothing says so.
    ExpressionPtr in = values.empty() ? Expression::any_of({}) : Expression::in(column, std::move(values));
    if (op == "in") return has_null ? Expression::any_of({in, Expression::is_null(column)}) : in;
    return has_null ? Expression::all_of({Expression::negate(in), Expression::is_not_null(column)})
                    : Expression::any_of({Expression::negate(in), Expression::is_null(column)});
  }
  throw Error("unknown filter operator '" + op + "' (=, ==, !=, <, <=, >, >=, in, not in)",
              ErrorKind::kInvalidArgument);
}

ReadOptions read_options(const FileReader& file, std::optional<std::vector<std::string>> columns,
                         const nb::handle& filter, std::optional<std::vector<int64_t>> row_groups, int threads,
                         int64_t batch_rows, int64_t memory_limit, bool verify_crc, bool unshred_variants) {
  ReadOptions o;
  o.pages.verify_crc = verify_crc;
  o.unshred_variants = unshred_variants;
  if (columns) o.columns = std::move(*columns);
  if (row_groups) {
    const auto n = static_cast<int64_t>(file.metadata().row_groups.size());
    for (int64_t g : *row_groups) {
      if (g < 0 || g >= n)
        throw Error("row group " + std::to_string(g) + " out of range (the file has " + std::to_string(n) + ")",
                    ErrorKind::kInvalidArgument);
      o.row_groups.push_back(static_cast<size_t>(g));
    }
  }
  check_read_numbers(threads, batch_rows, memory_limit);
  o.threads = threads;
  o.batch_rows = batch_rows;
  o.memory_limit = memory_limit;
  o.filter = filter_of(filter);
  return o;
}

nb::object opt(const std::optional<int64_t>& v) { return v ? nb::object(nb::int_(*v)) : nb::none(); }
nb::object opt(const std::optional<int32_t>& v) { return v ? nb::object(nb::int_(*v)) : nb::none(); }
nb::object opt(const std::optional<int16_t>& v) { return v ? nb::object(nb::int_(*v)) : nb::none(); }
nb::object opt(const std::optional<bool>& v) { return v ? nb::object(nb::bool_(*v)) : nb::none(); }
nb::object opt_bytes(const std::optional<std::string>& v) {
  return v ? nb::object(nb::bytes(v->data(), v->size())) : nb::none();
}
nb::str text(const std::string& s) { return nb::str(s.data(), s.size()); }

nb::dict statistics_dict(const format::Statistics& s) {
  nb::dict d;
  d["null_count"] = opt(s.null_count);
  d["distinct_count"] = opt(s.distinct_count);
  d["nan_count"] = opt(s.nan_count);
  // min_value/max_value in the column's sort order; the deprecated min/max
  // (signed byte order) only when the new ones are absent.
  d["min"] = opt_bytes(s.min_value ? s.min_value : s.min);
  d["max"] = opt_bytes(s.max_value ? s.max_value : s.max);
  d["is_min_exact"] = opt(s.is_min_value_exact);
  d["is_max_exact"] = opt(s.is_max_value_exact);
  return d;
}

std::string dotted(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

nb::dict column_chunk_dict(const format::ColumnChunk& c) {
  nb::dict d;
  d["file_offset"] = c.file_offset;
  d["offset_index_offset"] = opt(c.offset_index_offset);
  d["offset_index_length"] = opt(c.offset_index_length);
  d["column_index_offset"] = opt(c.column_index_offset);
  d["column_index_length"] = opt(c.column_index_length);
  d["encrypted"] = c.crypto_metadata.has_value();
  if (!c.meta_data) {
    d["path_in_schema"] = nb::none();
    return d;
  }
  const format::ColumnMetaData& m = *c.meta_data;
  d["path_in_schema"] = text(dotted(m.path_in_schema));
  d["physical_type"] = format::to_string(m.type);
  d["compression"] = format::to_string(m.codec);
  nb::list encodings;
  for (format::Encoding e : m.encodings) encodings.append(format::to_string(e));
  d["encodings"] = nb::tuple(encodings);
  d["num_values"] = m.num_values;
  d["total_compressed_size"] = m.total_compressed_size;
  d["total_uncompressed_size"] = m.total_uncompressed_size;
  d["data_page_offset"] = m.data_page_offset;
  d["dictionary_page_offset"] = opt(m.dictionary_page_offset);
  d["index_page_offset"] = opt(m.index_page_offset);
  d["bloom_filter_offset"] = opt(m.bloom_filter_offset);
  d["bloom_filter_length"] = opt(m.bloom_filter_length);
  d["statistics"] = m.statistics ? nb::object(statistics_dict(*m.statistics)) : nb::none();
  nb::list page_encodings;
  if (m.encoding_stats) {
    for (const format::PageEncodingStats& s : *m.encoding_stats)
      page_encodings.append(nb::make_tuple(format::to_string(s.page_type), format::to_string(s.encoding), s.count));
  }
  d["page_encoding_stats"] = page_encodings;
  return d;
}

nb::dict metadata_dict(const FileReader& file) {
  const format::FileMetaData& m = file.metadata();
  nb::dict d;
  d["num_rows"] = m.num_rows;
  d["num_row_groups"] = m.row_groups.size();
  d["num_columns"] = file.schema().num_columns();
  d["format_version"] = m.version;
  d["created_by"] = m.created_by ? nb::object(text(*m.created_by)) : nb::none();
  d["schema"] = text(file.schema().to_string());
  nb::list kv;
  if (m.key_value_metadata) {
    for (const format::KeyValue& e : *m.key_value_metadata)
      kv.append(nb::make_tuple(nb::bytes(e.key.data(), e.key.size()), opt_bytes(e.value)));
  }
  d["key_value_metadata"] = kv;
  d["encrypted_footer_algorithm"] = m.encryption_algorithm.has_value();
  nb::list groups;
  for (const format::RowGroup& g : m.row_groups) {
    nb::dict rg;
    rg["num_rows"] = g.num_rows;
    rg["total_byte_size"] = g.total_byte_size;
    rg["total_compressed_size"] = opt(g.total_compressed_size);
    rg["file_offset"] = opt(g.file_offset);
    rg["ordinal"] = opt(g.ordinal);
    nb::list sorting;
    if (g.sorting_columns) {
      for (const format::SortingColumn& s : *g.sorting_columns)
        sorting.append(nb::make_tuple(s.column_idx, s.descending, s.nulls_first));
    }
    rg["sorting_columns"] = sorting;
    nb::list columns;
    for (const format::ColumnChunk& c : g.columns) columns.append(column_chunk_dict(c));
    rg["columns"] = columns;
    groups.append(rg);
  }
  d["row_groups"] = groups;
  return d;
}

nb::list leaf_columns(const Schema& schema) {
  nb::list out;
  for (const ColumnDescriptor& c : schema.columns()) {
    nb::dict d;
    d["path"] = text(c.dotted_path());
    d["physical_type"] = format::to_string(c.type.physical);
    d["type_length"] = c.type.type_length;
    d["logical_type"] = text(logical_type_to_string(c.type.logical));
    d["repetition"] = format::to_string(c.repetition);
    d["max_definition_level"] = c.max_definition_level;
    d["max_repetition_level"] = c.max_repetition_level;
    out.append(d);
  }
  return out;
}

// The leaves a projection reads, by the reader's rule (a group's path
// selects its subtree), so that a split's bytes are those its read fetches.
std::vector<size_t> leaves_of(const Schema& schema, const std::vector<std::string>& paths) {
  std::vector<size_t> leaves;
  for (const std::string& path : paths) {
    bool found = false;
    for (size_t i = 0; i < schema.num_columns(); ++i) {
      const std::string leaf = schema.column(i).dotted_path();
      if (leaf == path || (leaf.size() > path.size() && leaf.starts_with(path) && leaf[path.size()] == '.')) {
        leaves.push_back(i);
        found = true;
      }
    }
    if (!found) throw Error("no column '" + path + "' in the schema", ErrorKind::kInvalidArgument);
  }
  std::sort(leaves.begin(), leaves.end());
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  return leaves;
}

// (row_group_begin, row_group_end, rows, bytes) of each split.
using SplitTuple = std::tuple<size_t, size_t, int64_t, int64_t>;

std::vector<SplitTuple> splits_of(const FileReader& file, int64_t target_bytes,
                                  const std::optional<std::vector<std::string>>& columns) {
  // An empty projection reads every leaf, as plan_splits counts it.
  const std::vector<size_t> leaves = columns ? leaves_of(file.schema(), *columns) : std::vector<size_t>{};
  std::vector<SplitTuple> out;
  for (const Split& s : plan_splits(file.metadata(), target_bytes, leaves))
    out.emplace_back(s.row_group_begin, s.row_group_end, s.rows, s.bytes);
  return out;
}

class PyFile {
 public:
  explicit PyFile(std::shared_ptr<const FileReader> file) : file_(std::move(file)) {}

  static PyFile open_path(const std::string& path, nb::handle storage_options, nb::handle decryption) {
    ReaderOptions options;
    options.remote = remote_options_of(storage_options);
    options.footer.decryption = decryption_of(decryption);
    nb::gil_scoped_release release;
    return PyFile(FileReader::open(path, options));
  }
  static PyFile open_bytes(nb::bytes data, nb::handle decryption) {
    std::vector<uint8_t> copy(static_cast<const uint8_t*>(data.data()),
                              static_cast<const uint8_t*>(data.data()) + data.size());
    ReaderOptions options;
    options.footer.decryption = decryption_of(decryption);
    nb::gil_scoped_release release;
    return PyFile(FileReader::open(io::buffer_input(std::move(copy)), options));
  }

  const FileReader& file() const {
    if (file_ == nullptr) throw Error("the ParquetFile is closed", ErrorKind::kInvalidArgument);
    return *file_;
  }

  std::unique_ptr<BatchSource> source(const ReadOptions& options) const {
    file();
    nb::gil_scoped_release release;
    return read_batches(file_, options);
  }

  void close() { file_.reset(); }
  bool closed() const { return file_ == nullptr; }

 private:
  std::shared_ptr<const FileReader> file_;
};

}  // namespace

void check_read_numbers(int threads, int64_t batch_rows, int64_t memory_limit) {
  if (threads < 1) throw Error("threads must be at least 1", ErrorKind::kInvalidArgument);
  if (batch_rows < 1) throw Error("batch_rows must be at least 1", ErrorKind::kInvalidArgument);
  if (memory_limit < 0) throw Error("memory_limit must not be negative", ErrorKind::kInvalidArgument);
}

io::RemoteOptions remote_options_of(const nb::handle& storage_options) {
  io::RemoteOptions o;
  if (storage_options.is_none()) return o;
  if (!nb::isinstance<nb::dict>(storage_options))
    throw Error("storage_options is a dict of option names and values", ErrorKind::kInvalidArgument);
  for (auto item : nb::borrow<nb::dict>(storage_options)) {
    // Named, not bound: `wrong` captures v.
    nb::handle k = item.first, v = item.second;
    if (!nb::isinstance<nb::str>(k)) throw Error("storage_options: keys are strings", ErrorKind::kInvalidArgument);
    const std::string given = nb::cast<std::string>(k);
    // Polars and object_store spell the S3 ones with an aws_ prefix.
    const std::string key = given.starts_with("aws_") ? given.substr(4) : given;
    auto wrong = [&](const char* kind) {
      return Error("storage_options: " + given + " is " + kind + ", not " + nb::cast<std::string>(nb::repr(v)),
                   ErrorKind::kInvalidArgument);
    };
    auto text = [&] {
      if (!nb::isinstance<nb::str>(v)) throw wrong("a string");
      return nb::cast<std::string>(v);
    };
    auto flag = [&] {
      if (nb::isinstance<nb::bool_>(v)) return nb::cast<bool>(v);
      // Polars' storage options are strings: "true", "false".
      if (nb::isinstance<nb::str>(v)) {
        const std::string t = nb::cast<std::string>(v);
        if (t == "true" || t == "True" || t == "1") return true;
        if (t == "false" || t == "False" || t == "0") return false;
      }
      throw wrong("true or false");
    };
    auto number = [&]() -> int64_t {
      if (nb::isinstance<nb::bool_>(v) || !nb::isinstance<nb::int_>(v)) throw wrong("an integer");
      try {
        return nb::cast<int64_t>(v);
      } catch (const std::exception&) {
        throw wrong("an integer that fits in 64 bits");
      }
    };
    auto small = [&]() -> int {
      const int64_t n = number();
      if (n < INT32_MIN || n > INT32_MAX) throw wrong("an integer that fits in 32 bits");
      return static_cast<int>(n);
    };
    auto size = [&]() -> uint64_t {
      const int64_t n = number();
      if (n < 0) throw wrong("a byte count (not negative)");
      return static_cast<uint64_t>(n);
    };
    if (key == "access_key_id") {
      o.access_key_id = text();
    } else if (key == "secret_access_key") {
      o.secret_access_key = text();
    } else if (key == "session_token") {
      o.session_token = text();
    } else if (key == "anonymous" || key == "skip_signature") {
      o.anonymous = flag();
    } else if (key == "region") {
      o.region = text();
    } else if (key == "endpoint" || key == "endpoint_url") {
      o.endpoint = text();
    } else if (key == "path_style") {
      o.path_style = flag();
    } else if (key == "virtual_hosted_style_request") {
      o.path_style = !flag();
    } else if (key == "allow_http") {
      flag();  // an http:// endpoint is always allowed
    } else if (key == "speculative_tail_bytes") {
      o.speculative_tail_bytes = size();
    } else if (key == "coalesce_gap_bytes") {
      o.coalesce_gap_bytes = size();
    } else if (key == "max_request_bytes") {
      o.max_request_bytes = size();
    } else if (key == "max_concurrent_requests") {
      o.max_concurrent_requests = small();
    } else if (key == "max_bytes_in_flight") {
      o.max_bytes_in_flight = size();
    } else if (key == "max_retries") {
      o.max_retries = small();
    } else if (key == "retry_base_ms") {
      o.retry_base_ms = small();
    } else if (key == "retry_max_ms") {
      o.retry_max_ms = small();
    } else if (key == "connect_timeout_ms") {
      o.connect_timeout_ms = small();
    } else if (key == "stall_timeout_ms") {
      o.stall_timeout_ms = small();
    } else if (key == "request_timeout_ms") {
      o.request_timeout_ms = small();
    } else if (key == "verify_tls") {
      o.verify_tls = flag();
    } else if (key == "ca_file") {
      o.ca_file = text();
    } else {
      throw Error("storage_options: unknown option '" + given +
                      "' (known: access_key_id, secret_access_key, session_token, anonymous, region, endpoint, "
                      "path_style, speculative_tail_bytes, coalesce_gap_bytes, max_request_bytes, "
                      "max_concurrent_requests, max_bytes_in_flight, max_retries, retry_base_ms, retry_max_ms, "
                      "connect_timeout_ms, stall_timeout_ms, request_timeout_ms, verify_tls, ca_file)",
                  ErrorKind::kInvalidArgument);
    }
  }
  return o;
}

ExpressionPtr filter_of(const nb::handle& spec) {
  if (spec.is_none()) return nullptr;
  if (nb::isinstance<nb::str>(spec)) return filter::parse_filter(nb::cast<std::string>(spec));
  std::vector<ExpressionPtr> disjuncts;
  for (const auto& conjunction : nb::cast<std::vector<std::vector<TermSpec>>>(spec)) {
    std::vector<ExpressionPtr> terms;
    for (const TermSpec& t : conjunction) terms.push_back(term_of(t));
    disjuncts.push_back(terms.size() == 1 ? terms[0] : Expression::all_of(std::move(terms)));
  }
  return disjuncts.size() == 1 ? disjuncts[0] : Expression::any_of(std::move(disjuncts));
}

void register_reading(nb::module_& m) {
  nb::class_<PyFile>(m, "_File", "An open Parquet file (see parq.ParquetFile).")
      .def_static("open_path", &PyFile::open_path, nb::arg("path"), nb::arg("storage_options").none() = nb::none(),
                  nb::arg("decryption").none() = nb::none(), "Opens a file or URL; reads only its footer.")
      .def_static("open_bytes", &PyFile::open_bytes, nb::arg("data"), nb::arg("decryption").none() = nb::none(),
                  "Opens a file held in memory (copied).")
      .def_prop_ro(
          "num_rows", [](const PyFile& f) { return f.file().metadata().num_rows; }, "Rows in the file.")
      .def_prop_ro(
          "num_row_groups", [](const PyFile& f) { return f.file().metadata().row_groups.size(); },
          "Row groups in the file.")
      .def_prop_ro(
          "name", [](const PyFile& f) { return f.file().name(); }, "The path, or <memory>.")
      .def(
          "metadata", [](const PyFile& f) { return metadata_dict(f.file()); }, "The footer as plain values.")
      .def(
          "schema_text", [](const PyFile& f) { return f.file().schema().to_string(); },
          "The schema in the message notation of `parq schema`.")
      .def(
          "leaf_columns", [](const PyFile& f) { return leaf_columns(f.file().schema()); },
          "The leaf columns: path, types, repetition, levels.")
      .def(
          "arrow_schema",
          [](const PyFile& f, std::optional<std::vector<std::string>> columns, bool unshred_variants) {
            ReadOptions o;
            o.unshred_variants = unshred_variants;
            if (columns) o.columns = std::move(*columns);
            return PySchema{std::make_shared<const RecordBatch>(f.source(o)->prototype())};
          },
          nb::arg("columns") = nb::none(), nb::arg("unshred_variants") = false,
          "The Arrow schema a read of these columns yields.")
      .def(
          "read_batches",
          [](const PyFile& f, std::optional<std::vector<std::string>> columns, nb::handle filter,
             std::optional<std::vector<int64_t>> row_groups, int threads, int64_t batch_rows, int64_t memory_limit,
             bool verify_crc, bool unshred_variants) {
            ReadOptions o = read_options(f.file(), std::move(columns), filter, std::move(row_groups), threads,
                                         batch_rows, memory_limit, verify_crc, unshred_variants);
            return std::make_unique<PyReader>(f.source(o));
          },
          nb::arg("columns").none(), nb::arg("filter").none(), nb::arg("row_groups").none(), nb::arg("threads"),
          nb::arg("batch_rows"), nb::arg("memory_limit"), nb::arg("verify_crc"), nb::arg("unshred_variants") = false,
          "A RecordBatchReader over a read.")
      .def(
          "read_table",
          [](const PyFile& f, std::optional<std::vector<std::string>> columns, nb::handle filter,
             std::optional<std::vector<int64_t>> row_groups, int threads, int64_t batch_rows, int64_t memory_limit,
             bool verify_crc, bool unshred_variants) {
            ReadOptions o = read_options(f.file(), std::move(columns), filter, std::move(row_groups), threads,
                                         batch_rows, memory_limit, verify_crc, unshred_variants);
            std::unique_ptr<BatchSource> source = f.source(o);
            auto prototype = std::make_shared<const RecordBatch>(source->prototype());
            return PyTable{read_table_data(*source, std::move(prototype), threads)};
          },
          nb::arg("columns").none(), nb::arg("filter").none(), nb::arg("row_groups").none(), nb::arg("threads"),
          nb::arg("batch_rows"), nb::arg("memory_limit"), nb::arg("verify_crc"), nb::arg("unshred_variants") = false,
          "Reads into a Table.")
      .def(
          "plan_splits",
          [](const PyFile& f, int64_t target_bytes, std::optional<std::vector<std::string>> columns) {
            return splits_of(f.file(), target_bytes, columns);
          },
          nb::arg("target_bytes"), nb::arg("columns").none() = nb::none(),
          "Runs of whole row groups of about target_bytes compressed bytes each (of the columns' chunks): "
          "(row_group_begin, row_group_end, rows, bytes) tuples.")
      .def("close", &PyFile::close, "Releases the file; reads in progress keep it open until they end.")
      .def_prop_ro("closed", &PyFile::closed, "Whether close() was called.");

  m.def(
      "variant_to_json",
      [](nb::bytes metadata, nb::bytes value) {
        auto span = [](const nb::bytes& b) {
          return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(b.c_str()), b.size());
        };
        const variant::Metadata m = variant::Metadata::parse(span(metadata));
        const variant::Value v = variant::Value::parse(m, span(value));
        if (v.encoded_size() != value.size())
          throw Error("variant: " + std::to_string(value.size() - v.encoded_size()) + " bytes follow the value");
        std::string out;
        text::append_variant_json(out, v);
        return out;
      },
      nb::arg("metadata"), nb::arg("value"),
      "A VARIANT value (its metadata and value bytes) as canonical JSON text (docs/FORMAT.md); "
      "CorruptFileError when the bytes are not a variant.");

  m.def(
      "_filter_text",
      [](nb::handle filter) {
        ExpressionPtr e = filter_of(filter);
        return e == nullptr ? std::string() : e->to_string();
      },
      nb::arg("filter").none(), "A filter (text or normalized tuples) as parq's SQL-like text.");
}

}  // namespace parq::python
