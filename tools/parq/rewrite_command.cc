// `parq rewrite IN OUT`: reads every row of IN and writes it again with other
// writer settings (codec, page version, encodings, sizes, indexes, bloom
// filters), keeping the schema and the key-value metadata. OUT may be IN:
// the new file replaces it only once complete.
#include <string>

#include "args.h"
#include "batch_sink.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "write_options.h"

namespace parq::tool {
namespace {

int run_rewrite(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options(with_encryption_options(with_dataset_options(with_partition_options(
                                       with_write_options({{"batch-rows", true}, {"no-verify-crc", false}})))),
                                   "in-"));
  const auto& paths = args.expect_positionals({"IN", "OUT"});
  WriteOptions options = parse_write_options(args);
  ReadOptions read;
  read.threads = options.threads;
  if (auto v = args.value("batch-rows")) read.batch_rows = std::max<int64_t>(1, parse_count("batch-rows", *v));
  read.pages.verify_crc = !args.flag("no-verify-crc");

  if (!is_single_file({paths[0]})) {
    // A dataset (a folder, a glob, a _metadata file) rewritten as one
    // table: its united schema, partition columns included.
    auto dataset = open_dataset({paths[0]}, args, read.threads, nullptr, "in-");
    DatasetReadOptions all;
    all.read = read;
    BatchSink sink(paths[1], dataset->schema(), options, args);
    auto source = read_batches(dataset, all);
    sink.write_all(*source);
    sink.close();
    return 0;
  }
  auto in = FileReader::open(paths[0], reader_options(args, paths[0], "in-"));
  if (in->metadata().key_value_metadata) options.key_value_metadata = *in->metadata().key_value_metadata;
  // Each column keeps the source's float order unless --float-order names one.
  if (!args.value("float-order") && in->metadata().column_orders) {
    const auto& orders = *in->metadata().column_orders;
    for (size_t c = 0; c < orders.size() && c < in->schema().num_columns(); ++c)
      if (orders[c].IEEE_754_TOTAL_ORDER)
        options.columns[in->schema().column(c).dotted_path()].float_total_order = true;
  }
  BatchSink sink(paths[1], in->schema(), options, args);
  auto source = read_batches(*in, read);
  sink.write_all(*source);
  sink.close();
  return 0;
}

}  // namespace

const Command kRewriteCommand = {
    "rewrite",
    "write a file again with other codecs, encodings or sizes",
    "usage: parq rewrite IN OUT [OPTIONS]\n"
    "\n"
    "Reads every row of IN and writes them to OUT with the options below,\n"
    "keeping the schema and the key-value metadata. OUT appears (or is\n"
    "replaced, IN included) only once it is complete. IN may be a dataset (a\n"
    "folder, a glob, a _metadata file; --no-hive, --by-field-id, --partition-type): its rows are\n"
    "written as one table, partition columns included (with --partition-by,\n"
    "into a new layout).\n"
    "\n"
    "  --batch-rows N           rows read at a time (65536)\n"
    "  --no-verify-crc          read IN without checking page checksums\n"
    "  --in-footer-key, --in-column-key, --in-aad-prefix, --in-kms-config\n"
    "                           the keys of an encrypted IN (as --footer-key, ...\n"
    "                           of the reading commands)\n"
    "\n" PARQ_WRITE_OPTIONS_HELP "\n" PARQ_ENCRYPTION_HELP "\n" PARQ_PARTITION_OPTIONS_HELP,
    run_rewrite,
};

}  // namespace parq::tool
