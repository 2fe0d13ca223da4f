// `parq cat FILE`: the rows, as canonical JSON Lines (../shared/golden/
// FORMAT.md), CSV or a text table; streamed a batch at a time.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/filter/expression.h"
#include "parq/text/row_text.h"
#include "print_rows.h"

namespace parq::tool {
namespace {

Format parse_format(const std::string& text) {
  if (text == "jsonl" || text == "json") return Format::kJsonl;
  if (text == "csv") return Format::kCsv;
  if (text == "table") return Format::kTable;
  throw UsageError("--format takes jsonl, csv or table, not '" + text + "'");
}

void write_out(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// VARIANT columns print as their values' JSON text in tables, and as their
// binary parts in JSON Lines and CSV, the canonical form's choice (the
// golden dumps), unless --variant says otherwise.
bool variants_as_json(const Args& args, Format format) {
  const auto v = args.value("variant");
  if (!v) return format == Format::kTable;
  if (*v == "json") return true;
  if (*v == "parts") return false;
  throw UsageError("--variant takes json or parts, not '" + *v + "'");
}

}  // namespace

filter::ExpressionPtr parse_where(const std::string& text) {
  try {
    return filter::parse_filter(text);
  } catch (const Error& e) {
    throw UsageError(std::string("--where: ") + e.what());
  }
}

namespace {}  // namespace

int print_rows(const std::vector<std::string>& argv, Format default_format, int64_t default_limit) {
  Args args(argv, with_key_options(with_dataset_options({{"format", true},
                                                         {"columns", true},
                                                         {"limit", true},
                                                         {"row-groups", true},
                                                         {"batch-rows", true},
                                                         {"where", true},
                                                         {"offset", true},
                                                         {"explain", false},
                                                         {"threads", true},
                                                         {"memory-limit", true},
                                                         {"no-verify-crc", false},
                                                         {"file-name-column", true},
                                                         {"row-index-column", true},
                                                         {"variant", true}})));
  const std::vector<std::string>& locations = expect_locations(args);
  Format format = args.value("format") ? parse_format(*args.value("format")) : default_format;
  const text::RowTextOptions text_options{.variants_as_json = variants_as_json(args, format)};
  int64_t limit = args.value("limit") ? parse_count("limit", *args.value("limit")) : default_limit;
  ReadOptions options;
  options.unshred_variants = text_options.variants_as_json;
  if (auto v = args.value("columns")) options.columns = split_list(*v);
  if (auto v = args.value("row-groups")) options.row_groups = parse_indexes("row-groups", *v);
  if (auto v = args.value("batch-rows")) options.batch_rows = std::max<int64_t>(1, parse_count("batch-rows", *v));
  options.pages.verify_crc = !args.flag("no-verify-crc");
  if (auto v = args.value("where")) options.filter = parse_where(*v);
  if (auto v = args.value("offset")) options.offset = parse_count("offset", *v);
  if (auto v = args.value("threads"))
    options.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  if (auto v = args.value("memory-limit")) options.memory_limit = parse_count("memory-limit", *v);
  options.limit = limit;
  if (limit >= 0) options.batch_rows = std::min(options.batch_rows, std::max<int64_t>(limit, 1));
  ReadStats stats;
  options.stats = &stats;
  if (auto v = args.value("row-index-column")) options.row_index_column = *v;

  std::unique_ptr<FileReader> file;
  std::unique_ptr<BatchSource> source;
  if (is_single_file(locations) && !args.value("file-name-column")) {
    file = FileReader::open(locations[0], reader_options(args, locations[0]));
    source = read_batches(*file, options);
  } else {
    if (!options.row_groups.empty()) throw UsageError("--row-groups names row groups of one file, not of a dataset");
    DatasetReadOptions dataset_options;
    dataset_options.read = options;
    if (auto v = args.value("file-name-column")) dataset_options.file_name_column = *v;
    source = read_batches(open_dataset(locations, args, options.threads, options.filter), dataset_options);
  }
  if (args.flag("explain")) {
    // Runs the read as it would print it, then shows the plan and what
    // each stage pruned instead of the rows.
    RecordBatch batch;
    while (source->next(batch)) {
    }
    std::string out;
    if (options.filter) out += "filter: " + options.filter->to_string() + "\n";
    if (file) {
      ReadPlan plan = plan_read(*file, options);
      out += "row groups read: " + std::to_string(plan.row_groups.size()) + "\n";
      for (const std::string& note : plan.notes) out += "  " + note + "\n";
    }
    out += stats.to_string();
    write_out(out);
    return 0;
  }
  RecordBatch batch;
  std::string out;
  text::CsvWriter csv(text_options);
  bool header_done = false;
  int64_t printed = 0;
  while ((limit < 0 || printed < limit) && source->next(batch)) {
    int64_t take = limit < 0 ? batch.num_rows : std::min(batch.num_rows, limit - printed);
    out.clear();
    if (format == Format::kJsonl) {
      text::RowJsonWriter(batch, text_options).append_rows(out, 0, take);
    } else if (format == Format::kCsv) {
      csv.append_rows(out, batch, 0, take);
    } else {
      out = text::render_table(batch, 0, take, 40, text_options);  // one table per batch of rows
    }
    header_done = true;
    write_out(out);
    printed += take;
  }
  if (!header_done) {  // no rows: CSV and tables still show the columns
    out.clear();
    if (format == Format::kCsv) csv.append_rows(out, source->prototype(), 0, 0);
    if (format == Format::kTable) out = text::render_table(source->prototype(), 0, 0, 40, text_options);
    write_out(out);
  }
  // Rows left out of a file whose chunks disagree with their row group go
  // unsaid in the output itself; say it where a pipeline still sees it.
  if (stats.rows_missing_from_chunks > 0)
    std::fprintf(stderr,
                 "parq: warning: %lld rows claimed by row groups are missing from short column chunks and were not "
                 "read (--explain says where)\n",
                 static_cast<long long>(stats.rows_missing_from_chunks));
  return 0;
}

namespace {

int run_cat(const std::vector<std::string>& argv) { return print_rows(argv, Format::kJsonl, -1); }

}  // namespace

const Command kCatCommand = {
    "cat",
    "print rows (JSON Lines, CSV or a table)",
    "usage: parq cat FILE... [--format=jsonl|csv|table] [--columns a,b.c] [--where EXPR]\n"
    "                        [--offset N] [--limit N] [--row-groups 0,2] [--threads N]\n"
    "                        [--memory-limit BYTES] [--explain] [--no-verify-crc]\n"
    "                        [--row-index-column NAME] [--file-name-column NAME]\n"
    "                        [--no-hive] [--by-field-id] [--partition-type KEY=TYPE]\n"
    "                        [--variant=json|parts]\n"
    "\n"
    "Prints the rows. jsonl (the default) is the canonical JSON Lines form:\n"
    "one object per row, keys in schema order, values by logical type.\n"
    "\n"
    "  --columns a,b.c    only these columns (a group's path selects its subtree;\n"
    "                     v.user.age a shredded VARIANT field, read alone)\n"
    "  --where EXPR       only rows for which EXPR is true, e.g.\n"
    "                     \"l_shipdate >= DATE '1995-03-01' AND l_returnflag IN ('A', 'R')\"\n"
    "                     (=, !=, <, <=, >, >=, IN, BETWEEN, IS [NOT] NULL, LIKE 'prefix%',\n"
    "                     AND, OR, NOT; a comparison with null is not true; a path\n"
    "                     into a shredded VARIANT field, v.user.age, compares its values;\n"
    "                     bbox_intersects(geom, xmin, ymin, xmax, ymax) on WKB geometries)\n"
    "  --offset N         skip the first N rows (after the filter)\n"
    "  --limit N          at most N rows\n"
    "  --threads N        decode on N threads\n"
    "  --memory-limit B   hold at most B bytes of decoded batches and fetched chunks\n"
    "                     (decoding ahead narrows to fit; an error if one batch cannot)\n"
    "  --explain          read, then print the plan and what each stage pruned\n"
    "                     instead of the rows\n"
    "  --row-groups 0,2   only these row groups, in this order (one file only)\n"
    "  --no-verify-crc    do not check page checksums\n"
    "  --row-index-column NAME   add each row's index in its file\n"
    "  --file-name-column NAME   add each row's file\n"
    "  --variant=json     VARIANT columns as their values' JSON text, shredded\n"
    "                     ones rebuilt (the default in tables); =parts: as the\n"
    "                     struct of their binary parts (the default otherwise)\n"
    "\n" PARQ_DATASET_HELP "\n" PARQ_KEY_HELP,
    run_cat,
};

}  // namespace parq::tool
