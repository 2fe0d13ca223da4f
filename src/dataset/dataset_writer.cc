// The partitioned dataset writer; see dataset_writer.h.
#include "parq/dataset/dataset_writer.h"

#include <algorithm>
#include <filesystem>
#include <list>
#include <random>
#include <unordered_map>

#include "dataset_parts.h"
#include "parq/array/take.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/text/value_text.h"

namespace parq {
namespace {

// Folder names keep letters, digits and "-_." as they are and %-escape the
// rest, so that '/', '=', '%' and control bytes in a value cannot change
// the folder structure (readers unescape).
void append_escaped(std::string& out, std::string_view value) {
  static const char* hex = "0123456789ABCDEF";
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '-' || c == '_' ||
        c == '.') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
}

bool can_partition(const ValueType& t) {
  using format::Type;
  if (t.physical == Type::BOOLEAN) return true;
  if (t.physical == Type::INT32 || t.physical == Type::INT64)
    return (t.logical == format::LogicalType{} && !t.converted) || t.logical.INTEGER || t.logical.DATE;
  if (t.physical == Type::BYTE_ARRAY) return t.logical.STRING || t.logical.ENUM;
  return false;
}

// Appends row `i`'s value of a partition column as its folder's text,
// straight into `out` (numbers, booleans and dates need no escaping).
void append_value(std::string& out, const Array& a, int64_t i) {
  if (!a.is_valid(i)) {
    out += "__HIVE_DEFAULT_PARTITION__";
    return;
  }
  switch (a.type.physical) {
    case format::Type::BOOLEAN:
      out += (a.values.data()[i >> 3] >> (i & 7) & 1) ? "true" : "false";
      return;
    case format::Type::INT32: {
      const int32_t v = a.values.data_as<int32_t>()[i];
      if (a.type.logical.DATE) {
        // The canonical text quotes a date (it is JSON): the folder does not.
        const size_t at = out.size();
        text::append_date(out, v);
        out.pop_back();
        out.erase(at, 1);
      } else if (a.type.logical.INTEGER && !a.type.logical.INTEGER->is_signed) {
        text::append_unsigned(out, static_cast<uint32_t>(v));
      } else {
        text::append_integer(out, v);
      }
      return;
    }
    case format::Type::INT64: {
      const int64_t v = a.values.data_as<int64_t>()[i];
      if (a.type.logical.INTEGER && !a.type.logical.INTEGER->is_signed)
        text::append_unsigned(out, static_cast<uint64_t>(v));
      else
        text::append_integer(out, v);
      return;
    }
    default: {
      const int32_t* off = a.offsets_data();
      const std::string_view bytes(reinterpret_cast<const char*>(a.values.data()) + off[i],
                                   static_cast<size_t>(off[i + 1] - off[i]));
      if (bytes.empty())  // an empty value reads back as null; say so
        out += "__HIVE_DEFAULT_PARTITION__";
      else
        append_escaped(out, bytes);
    }
  }
}

std::string random_prefix() {
  std::random_device device;
  std::mt19937_64 gen((static_cast<uint64_t>(device()) << 32) ^ device());
  static const char* hex = "0123456789abcdef";
  std::string out = "part-";
  uint64_t v = gen();
  for (int i = 0; i < 8; ++i, v >>= 4) out += hex[v & 15];
  return out;
}

}  // namespace

class DatasetWriter::Impl {
 public:
  Impl(std::string folder, const Schema& schema, DatasetWriteOptions options)
      : folder_(std::move(folder)), options_(std::move(options)) {
    if (options_.max_open_files < 1) throw Error("max_open_files must be at least 1", ErrorKind::kInvalidArgument);
    if (options_.max_rows_per_file < 0 || options_.max_bytes_per_file < 0)
      throw Error("file limits must not be negative", ErrorKind::kInvalidArgument);
    if (options_.file_prefix.empty()) options_.file_prefix = random_prefix();
    const SchemaNode& root = schema.root();
    for (const std::string& name : options_.partition_by) {
      size_t f = 0;
      while (f < root.num_children() && root.child(f).name() != name) ++f;
      if (f == root.num_children())
        throw Error("partition_by: no top-level column '" + name + "'", ErrorKind::kInvalidArgument);
      const SchemaNode& node = root.child(f);
      if (!node.is_leaf() || node.repetition() == format::FieldRepetitionType::REPEATED ||
          !can_partition(schema.column(static_cast<size_t>(node.column_index())).type))
        throw Error(
            "partition_by: column '" + name + "' cannot name folders (integers, DATE, STRING and BOOLEAN leaves can)",
            ErrorKind::kInvalidArgument);
      if (std::find(partition_fields_.begin(), partition_fields_.end(), f) != partition_fields_.end())
        throw Error("partition_by: column '" + name + "' is listed twice", ErrorKind::kInvalidArgument);
      partition_fields_.push_back(f);
    }
    if (const auto& encryption = options_.write.encryption) {
      // Folder names and the summary's footer are not encrypted modules.
      if (options_.write_summary)
        throw Error(
            "write_summary: encrypted files get no _metadata summary (it would hold their column metadata in "
            "the clear)",
            ErrorKind::kInvalidArgument);
      for (const std::string& name : options_.partition_by)
        if (encryption->column_keys.count(name) != 0)
          throw Error("partition_by: column '" + name +
                          "' is given a key, but its values name folders, which are not encrypted",
                      ErrorKind::kInvalidArgument);
    }
    if (partition_fields_.size() == root.num_children() && !partition_fields_.empty())
      throw Error("partition_by: every column would be a folder, leaving the files none", ErrorKind::kInvalidArgument);
    // The files' schema: the fields that are not partitions.
    std::vector<format::SchemaElement> data(1, schema.elements()[0]);
    for (size_t f = 0; f < root.num_children(); ++f)
      if (std::find(partition_fields_.begin(), partition_fields_.end(), f) == partition_fields_.end()) {
        const std::vector<format::SchemaElement> field = schema.field_elements(f);
        data.insert(data.end(), field.begin(), field.end());
        data_fields_.push_back(f);
      }
    data[0].num_children = static_cast<int32_t>(data_fields_.size());
    data_schema_ = Schema::from_elements(data);
    num_fields_ = root.num_children();
  }

  ~Impl() = default;  // open FileWriters are destroyed uncommitted

  void write(const RecordBatch& batch) {
    if (batch.columns.size() != num_fields_)
      throw Error("the batch has " + std::to_string(batch.columns.size()) + " columns, the schema " +
                      std::to_string(num_fields_),
                  ErrorKind::kInvalidArgument);
    RecordBatch data;
    data.num_rows = batch.num_rows;
    for (size_t f : data_fields_) data.columns.push_back(batch.columns[f]);
    if (batch.num_rows == 0) return;
    if (partition_fields_.empty()) {
      write_rows(std::string(), data);
      return;
    }
    // Rows by their folder, in order of first appearance.
    std::unordered_map<std::string, size_t> group_of;
    std::vector<std::pair<std::string, std::vector<int64_t>>> groups;
    std::string key;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      key.clear();
      for (size_t k = 0; k < partition_fields_.size(); ++k) {
        if (k) key += '/';
        append_escaped(key, options_.partition_by[k]);
        key += '=';
        append_value(key, batch.columns[partition_fields_[k]], r);
      }
      auto it = group_of.find(key);
      if (it == group_of.end()) {
        it = group_of.emplace(key, groups.size()).first;
        groups.emplace_back(key, std::vector<int64_t>{});
      }
      groups[it->second].second.push_back(r);
    }
    for (auto& [folder, rows] : groups) {
      if (groups.size() == 1) {
        write_rows(folder, data);
      } else {
        RecordBatch part = take(data, rows);
        write_rows(folder, part);
      }
    }
  }

  void close() {
    for (auto& open : open_) commit(open);
    open_.clear();
    if (options_.write_summary && !files_.empty()) {
      DatasetOptions o;
      write_summary_files(folder_, o);
    }
  }

  const std::vector<std::string>& files() const { return files_; }
  int64_t num_rows() const { return rows_; }

 private:
  struct OpenFile {
    std::string folder;
    std::string path;
    std::unique_ptr<FileWriter> writer;
  };

  // Writes a partition's rows, starting new files at the limits.
  void write_rows(const std::string& folder, const RecordBatch& rows) {
    int64_t done = 0;
    while (done < rows.num_rows) {
      OpenFile& file = file_for(folder);
      int64_t n = rows.num_rows - done;
      if (options_.max_rows_per_file > 0) n = std::min(n, options_.max_rows_per_file - file.writer->num_rows());
      if (done == 0 && n == rows.num_rows) {
        file.writer->write(rows);
      } else {
        std::vector<int64_t> idx(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) idx[static_cast<size_t>(i)] = done + i;
        file.writer->write(take(rows, idx));
      }
      done += n;
      rows_ += n;
      if (full(*file.writer)) close_file(folder);
    }
  }

  bool full(const FileWriter& w) const {
    if (options_.max_rows_per_file > 0 && w.num_rows() >= options_.max_rows_per_file) return true;
    if (options_.max_bytes_per_file > 0) {
      int64_t bytes = static_cast<int64_t>(w.buffered_bytes());
      for (const auto& rg : w.metadata().row_groups) bytes += rg.total_compressed_size.value_or(rg.total_byte_size);
      if (bytes >= options_.max_bytes_per_file) return true;
    }
    return false;
  }

  OpenFile& file_for(const std::string& folder) {
    for (auto it = open_.begin(); it != open_.end(); ++it)
      if (it->folder == folder) {
        open_.splice(open_.begin(), open_, it);  // most recently written first
        return open_.front();
      }
    if (static_cast<int>(open_.size()) >= options_.max_open_files) {
      commit(open_.back());
      open_.pop_back();
    }
    std::string dir = folder.empty() ? folder_ : folder_ + "/" + folder;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(ErrorKind::kIo, {.file = dir}, "cannot create the folder: " + ec.message());
    std::string path = dir + "/" + options_.file_prefix + "-" + std::to_string(next_file_++) + ".parquet";
    open_.push_front({folder, path, FileWriter::open(path, data_schema_, options_.write)});
    return open_.front();
  }

  void close_file(const std::string& folder) {
    for (auto it = open_.begin(); it != open_.end(); ++it)
      if (it->folder == folder) {
        commit(*it);
        open_.erase(it);
        return;
      }
  }

  void commit(OpenFile& file) {
    file.writer->close();
    files_.push_back(file.path);
  }

  std::string folder_;
  DatasetWriteOptions options_;
  std::vector<size_t> partition_fields_, data_fields_;
  size_t num_fields_ = 0;
  Schema data_schema_;
  std::list<OpenFile> open_;
  std::vector<std::string> files_;
  int64_t next_file_ = 0;
  int64_t rows_ = 0;
};

DatasetWriter::DatasetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DatasetWriter::~DatasetWriter() = default;

std::unique_ptr<DatasetWriter> DatasetWriter::open(const std::string& folder, const Schema& schema,
                                                   DatasetWriteOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw Error(ErrorKind::kIo, {.file = folder}, "cannot create the folder: " + ec.message());
  return std::unique_ptr<DatasetWriter>(new DatasetWriter(std::make_unique<Impl>(folder, schema, std::move(options))));
}

void DatasetWriter::write(const RecordBatch& batch) { impl_->write(batch); }
void DatasetWriter::write_all(BatchSource& source) {
  RecordBatch batch;
  while (source.next(batch)) impl_->write(batch);
}
void DatasetWriter::close() { impl_->close(); }
const std::vector<std::string>& DatasetWriter::files() const { return impl_->files(); }
int64_t DatasetWriter::num_rows() const { return impl_->num_rows(); }

}  // namespace parq
