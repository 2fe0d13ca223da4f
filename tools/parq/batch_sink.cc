// One file or a partitioned folder; see batch_sink.h.
#include "batch_sink.h"

#include "key_args.h"
#include "list_options.h"

namespace parq::tool {

std::vector<OptionSpec> with_partition_options(std::vector<OptionSpec> own) {
  own.push_back({"partition-by", true});
  own.push_back({"max-rows-per-file", true});
  own.push_back({"max-bytes-per-file", true});
  own.push_back({"summary", false});
  return own;
}

bool writes_dataset(const Args& args) {
  return args.value("partition-by") || args.value("max-rows-per-file") || args.value("max-bytes-per-file") ||
         args.flag("summary");
}

BatchSink::BatchSink(const std::string& out, const Schema& schema, const WriteOptions& given, const Args& args)
    : out_(out) {
  WriteOptions options = given;
  encryption_ = parse_encryption(args);
  if (encryption_) options.encryption = encryption_->options;
  if (!writes_dataset(args)) {
    file_ = FileWriter::open(out, schema, options);
    return;
  }
  // Key material beside files would be one file's for many.
  if (encryption_ && !encryption_->external_key_material.empty())
    throw UsageError("--external-key-material writes one file's key material; not with a partitioned output");
  DatasetWriteOptions d;
  d.write = options;
  if (auto v = args.value("partition-by")) d.partition_by = split_list(*v);
  if (auto v = args.value("max-rows-per-file")) d.max_rows_per_file = parse_count("max-rows-per-file", *v);
  if (auto v = args.value("max-bytes-per-file")) d.max_bytes_per_file = parse_count("max-bytes-per-file", *v);
  d.write_summary = args.flag("summary");
  dataset_ = DatasetWriter::open(out, schema, d);
}

void BatchSink::write(const RecordBatch& batch) {
  if (file_)
    file_->write(batch);
  else
    dataset_->write(batch);
}

void BatchSink::write_all(BatchSource& source) {
  RecordBatch batch;
  while (source.next(batch)) write(batch);
}

void BatchSink::close() {
  if (file_) {
    file_->close();
    // Only once the file is complete: material naming no file is never left.
    if (encryption_) encryption_->commit(out_);
  } else {
    dataset_->close();
  }
}

}  // namespace parq::tool
