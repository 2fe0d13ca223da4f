// `parq convert IN OUT`: CSV or JSON Lines to Parquet (types inferred, or
// given with --schema), and Parquet to CSV or JSON Lines. Formats follow the
// file extensions unless --from/--to say otherwise. Text is read twice: once
// to infer the schema, once to fill batches; memory holds one batch.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "args.h"
#include "batch_sink.h"
#include "command.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/input.h"
#include "parq/io/output.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "parq/text/text_input.h"
#include "parq/variant/shredding.h"
#include "write_options.h"

namespace parq::tool {
namespace {

enum class Kind { kParquet, kCsv, kJsonl };

Kind kind_of(const std::string& name) {
  if (name == "parquet") return Kind::kParquet;
  if (name == "csv") return Kind::kCsv;
  if (name == "jsonl" || name == "json" || name == "ndjson") return Kind::kJsonl;
  throw UsageError("unknown format '" + name + "' (parquet, csv, jsonl)");
}

Kind kind_of_path(const std::string& path, const char* option) {
  const size_t dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "parquet" || ext == "parq" || ext == "pq") return Kind::kParquet;
  if (ext == "csv") return Kind::kCsv;
  if (ext == "jsonl" || ext == "ndjson" || ext == "json") return Kind::kJsonl;
  throw UsageError("cannot tell the format of '" + path + "' from its extension; give " + option);
}

// Prints "rows, MB/s" on a terminal's stderr for runs longer than a second.
class Progress {
 public:
  explicit Progress(uint64_t total_bytes) : total_(total_bytes), on_(isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  void update(int64_t rows, uint64_t bytes) {
    if (!on_ || (rows & 1023) != 0) return;
    const double t = std::chrono::duration<double>(clock::now() - start_).count();
    if (t < 1 || t - last_ < 0.25) return;
    last_ = t;
    shown_ = true;
    std::fprintf(stderr, "\r%lld rows, %.0f%% of the input, %.1f MB/s ", static_cast<long long>(rows),
                 total_ ? 100.0 * static_cast<double>(bytes) / static_cast<double>(total_) : 0.0, bytes / t / 1e6);
  }

 private:
  using clock = std::chrono::steady_clock;
  uint64_t total_;
  bool on_;
  bool shown_ = false;
  clock::time_point start_ = clock::now();
  double last_ = 0;
};

// Rows of a CSV or JSON Lines text, each as a TextRow; calls fn(row, line,
// byte offset) and stops when fn returns false.
template <class Fn>
void for_each_row(std::string_view data, Kind kind, char delimiter, const std::string& name, Fn fn) {
  text::TextRow row;
  if (kind == Kind::kCsv) {
    text::CsvReader csv(data, delimiter);
    std::vector<std::string_view> header, fields;
    if (!csv.next(header)) return;
    std::vector<std::string> names(header.begin(), header.end());
    while (csv.next(fields)) {
      if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
      if (fields.size() != names.size())
        throw Error(name + ": line " + std::to_string(csv.line()) + ": " + std::to_string(fields.size()) +
                    " fields where the header has " + std::to_string(names.size()));
      row.clear();
      row.nodes.push_back({text::NodeKind::kObject});
      row.nodes[0].size = static_cast<uint32_t>(names.size());
      row.nodes[0].span = static_cast<uint32_t>(names.size());
      for (size_t i = 0; i < names.size(); ++i) {
        text::TextNode n;
        n.kind = fields[i].empty() ? text::NodeKind::kNull : text::NodeKind::kText;
        n.text = fields[i];
        n.key = names[i];
        row.nodes.push_back(n);
      }
      if (!fn(row, csv.line(), csv.position())) return;
    }
    return;
  }
  size_t pos = 0;
  int64_t line = 0;
  while (pos < data.size()) {
    size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    std::string_view text = data.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.find_first_not_of(" \t") == std::string_view::npos) continue;
    try {
      text::parse_json(text, row);
    } catch (const Error& e) {
      throw e.with_context(name + ": line " + std::to_string(line));
    }
    if (row.nodes[0].kind != text::NodeKind::kObject)
      throw Error(name + ": line " + std::to_string(line) + ": a line is not a JSON object");
    if (!fn(row, line, std::min(pos, data.size()))) return;
  }
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int text_to_parquet(const Args& args, const std::string& in_path, Kind kind, const std::string& out_path) {
  auto input = io::open_file(in_path);
  std::vector<uint8_t> copy;
  std::span<const uint8_t> bytes = input->view(0, input->size());
  if (bytes.size() != input->size()) {
    copy.resize(input->size());
    input->read_at(0, copy.size(), copy.data());
    bytes = copy;
  }
  const std::string_view data(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  char delimiter = ',';
  if (auto d = args.value("delimiter")) {
    if (d->size() != 1) throw UsageError("--delimiter takes one character");
    delimiter = (*d)[0];
  }
  const int64_t infer_rows = args.value("infer-rows") ? parse_count("infer-rows", *args.value("infer-rows")) : -1;
  const int64_t batch_rows =
      args.value("batch-rows") ? std::max<int64_t>(1, parse_count("batch-rows", *args.value("batch-rows"))) : 65536;

  Schema schema;
  text::TextType types;
  if (auto s = args.value("schema")) {
    if (!args.all("variant").empty())
      throw UsageError("--variant applies to inferred schemas; with --schema, declare the column VARIANT");
    schema = parse_schema_text(slurp(*s));
    types = text::type_of(schema);
  } else {
    text::TypeInference inference;
    int64_t seen = 0;
    for_each_row(data, kind, delimiter, in_path, [&](const text::TextRow& row, int64_t, size_t) {
      inference.add(row);
      return infer_rows < 0 || ++seen < infer_rows;
    });
    types = inference.result();
    if (types.children.empty()) throw Error(in_path + ": no columns to write (an empty input?)");
    // --variant COL: the column holds any JSON value, as a VARIANT.
    for (const std::string& name : args.all("variant")) {
      auto it = std::find_if(types.children.begin(), types.children.end(),
                             [&](const text::TextType& t) { return t.name == name; });
      if (it == types.children.end()) throw UsageError("--variant " + name + ": the input has no such column");
      text::TextType v;
      v.kind = text::TextType::kVariant;
      v.name = name;
      v.children = {{text::TextType::kBinary, "metadata", true}, {text::TextType::kBinary, "value", false}};
      *it = std::move(v);
    }
    schema = text::schema_of(types);
  }

  WriteOptions options = parse_write_options(args);
  // Opened with the first batch: --shred-variants takes the shredded layout
  // of each VARIANT column from that batch's values.
  const bool shred = args.flag("shred-variants");
  std::optional<BatchSink> sink;
  auto write_batch = [&](RecordBatch batch) {
    if (!sink) {
      if (shred) schema = variant::with_inferred_shredding(schema, batch);
      sink.emplace(out_path, schema, options, args);
    }
    sink->write(batch);
  };
  text::BatchBuilder builder(types);
  Progress progress(data.size());
  int64_t rows = 0;
  for_each_row(data, kind, delimiter, in_path, [&](const text::TextRow& row, int64_t line, size_t offset) {
    try {
      builder.add(row);
    } catch (const Error& e) {
      throw e.with_context(in_path + ": line " + std::to_string(line));
    }
    if (builder.num_rows() == batch_rows) write_batch(builder.finish());
    progress.update(++rows, offset);
    return true;
  });
  if (builder.num_rows() > 0 || !sink) write_batch(builder.finish());
  sink->close();
  return 0;
}

int parquet_to_text(const Args& args, const std::string& in_path, Kind kind, const std::string& out_path) {
  auto file = FileReader::open(in_path, reader_options(args, in_path, "in-"));
  ReadOptions read;
  if (auto v = args.value("batch-rows")) read.batch_rows = std::max<int64_t>(1, parse_count("batch-rows", *v));
  auto source = read_batches(*file, read);
  auto out = io::create_file(out_path);
  text::CsvWriter csv;
  std::string chunk;
  RecordBatch batch;
  Progress progress(file->input().size());
  int64_t rows = 0;
  bool any = false;
  while (source->next(batch)) {
    chunk.clear();
    any = true;
    text::RowJsonWriter writer(batch);
    if (kind == Kind::kCsv) {
      csv.append_rows(chunk, writer, 0, batch.num_rows);
    } else {
      writer.append_rows(chunk, 0, batch.num_rows);
    }
    out->write(chunk.data(), chunk.size());
    rows += batch.num_rows;
    progress.update(rows & ~int64_t{1023}, file->bytes_read());
  }
  if (!any && kind == Kind::kCsv) {
    chunk.clear();
    csv.append_rows(chunk, source->prototype(), 0, 0);
    out->write(chunk.data(), chunk.size());
  }
  out->commit();
  return 0;
}

int run_convert(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options(
                      with_encryption_options(with_partition_options(with_write_options({{"from", true},
                                                                                         {"to", true},
                                                                                         {"schema", true},
                                                                                         {"delimiter", true},
                                                                                         {"infer-rows", true},
                                                                                         {"variant", true},
                                                                                         {"shred-variants", false},
                                                                                         {"batch-rows", true}}))),
                      "in-"));
  const auto& paths = args.expect_positionals({"IN", "OUT"});
  const Kind from = args.value("from") ? kind_of(*args.value("from")) : kind_of_path(paths[0], "--from");
  const Kind to = args.value("to")       ? kind_of(*args.value("to"))
                  : writes_dataset(args) ? Kind::kParquet
                                         : kind_of_path(paths[1], "--to");
  if ((from == Kind::kParquet) == (to == Kind::kParquet))
    throw UsageError("convert goes from CSV or JSON Lines to Parquet, or from Parquet to CSV or JSON Lines");
  if (from == Kind::kParquet) return parquet_to_text(args, paths[0], to, paths[1]);
  return text_to_parquet(args, paths[0], from, paths[1]);
}

}  // namespace

const Command kConvertCommand = {
    "convert",
    "CSV or JSON Lines to Parquet, and back",
    "usage: parq convert IN OUT [OPTIONS]\n"
    "\n"
    "CSV (with a header row) or JSON Lines to Parquet, or Parquet to CSV or JSON\n"
    "Lines (the canonical form `parq cat` prints). Formats follow the extensions\n"
    "(.csv, .jsonl/.ndjson/.json, .parquet) unless --from/--to name them.\n"
    "\n"
    "Types are inferred over the whole input (or its first --infer-rows rows):\n"
    "integers (int64), floats (double), booleans, dates (YYYY-MM-DD), timestamps\n"
    "(ISO 8601; UTC when they carry a zone, nanoseconds when the fraction has\n"
    "more than 6 digits), strings; from JSON, objects become groups and arrays\n"
    "lists. Mixed integers and floats are floats; other mixes are strings.\n"
    "Empty CSV fields and JSON nulls are nulls; every column is optional.\n"
    "\n"
    "  --from csv|jsonl|parquet  --to csv|jsonl|parquet\n"
    "  --schema FILE            the schema in `parq schema` notation instead of\n"
    "                           inferring one\n"
    "  --delimiter C            CSV field separator (,)\n"
    "  --infer-rows N           infer types from the first N rows\n"
    "  --variant COL            COL holds any JSON value, as a VARIANT (repeatable)\n"
    "  --shred-variants         shred VARIANT columns into typed columns, in a layout\n"
    "                           taken from the first batch's values\n"
    "  --batch-rows N           rows per batch (65536)\n"
    "  --in-footer-key, --in-column-key, --in-aad-prefix, --in-kms-config\n"
    "                           the keys of an encrypted Parquet IN\n"
    "\n" PARQ_WRITE_OPTIONS_HELP "\n" PARQ_ENCRYPTION_HELP "\n" PARQ_PARTITION_OPTIONS_HELP,
    run_convert,
};

}  // namespace parq::tool
