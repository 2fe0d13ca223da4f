// FileWriter: batches -> row groups -> the file (see file_writer.h).
//
// Layout written:
//   PAR1 | row group 0 chunks | ... | bloom filters | column indexes |
//   offset indexes | FileMetaData | length | PAR1
// (an encrypted file's footer and magic: see file/footer.h). A checkpointed
// write puts each checkpoint's bloom filters, page indexes and cumulative
// footer (file/checkpoint.h) after the row groups it covers.
// Bloom filters and page indexes sit together before the footer, as
// PageIndex.md recommends, so a reader fetches them in one range; they are
// held until close() (a few bytes a page, a filter a chunk).
#include "parq/file/file_writer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <set>
#include <type_traits>

#include "../column/column_writer.h"
#include "../record/shredder.h"
#include "../util/cost_order.h"
#include "parq/crypto/file_crypto.h"
#include "parq/error.h"
#include "parq/file/checkpoint.h"
#include "parq/file/file_reference.h"
#include "parq/file/footer.h"
#include "parq/format/metadata_codec.h"
#include "parq/util/thread_pool.h"
#include "parq/variant/shredding.h"

namespace parq {
namespace {

// Rows shredded at a time: bounds the levels held per column and lets the
// row group byte limit be checked often.
constexpr int64_t kSliceRows = 64 * 1024;

// What is written before the footer and pointed to from it.
struct ChunkExtras {
  size_t row_group = 0;
  size_t column = 0;
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;
  Buffer bloom_filter;
};

void check_column_paths(const WriteOptions& options, const Schema& schema) {
  for (const auto& [path, settings] : options.columns) {
    bool found = false;
    for (const auto& c : schema.columns()) {
      const std::string p = c.dotted_path();
      if (p == path || (p.size() > path.size() && p.compare(0, path.size(), path) == 0 && p[path.size()] == '.'))
        found = true;
    }
    if (!found)
      throw Error("write options name column \"" + path + "\", which the schema does not have",
                  ErrorKind::kInvalidArgument);
  }
}

// Checked before anything is written: a checkpointed file is opened in
// place, which truncates what was there.
void check_checkpoint_options(const WriteOptions& options, const std::string& name) {
  if (!options.checkpoint) return;
  const CheckpointOptions& c = *options.checkpoint;
  if (options.encryption)
    throw Error(ErrorKind::kUnsupported, {.file = name}, "checkpoints are not written in encrypted files");
  if (c.row_groups < 0 || c.bytes < 0 || !(c.seconds >= 0))
    throw Error(ErrorKind::kInvalidArgument, {.file = name}, "checkpoint limits must not be negative");
}

}  // namespace

std::string default_created_by() { return std::string("parq version ") + PARQ_VERSION; }

CheckpointOptions parse_checkpoint(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string unit = text.substr(digits);
  auto refuse = [&] {
    return Error("row groups (4), bytes (64MiB, 500KB, 4096B) or a time (30s, 5m, 2h), not '" + text + "'",
                 ErrorKind::kInvalidArgument);
  };
  // At most 18 digits: the number fits an int64_t before its unit scales it.
  if (digits == 0 || digits > 18) throw refuse();
  const int64_t n = std::stoll(text.substr(0, digits));
  if (n == 0) throw refuse();
  static const std::pair<const char*, int64_t> kBytes[] = {{"B", 1},        {"KB", 1000},     {"KiB", 1 << 10},
                                                           {"MB", 1000000}, {"MiB", 1 << 20}, {"GB", 1000000000},
                                                           {"GiB", 1 << 30}};
  static const std::pair<const char*, int64_t> kSeconds[] = {{"s", 1}, {"m", 60}, {"h", 3600}};
  CheckpointOptions c;
  if (unit.empty()) {
    c.row_groups = n;
    return c;
  }
  for (const auto& [name, scale] : kBytes)
    if (unit == name) {
      if (n > INT64_MAX / scale) throw refuse();
      c.bytes = n * scale;
      return c;
    }
  for (const auto& [name, scale] : kSeconds)
    if (unit == name) {
      c.seconds = static_cast<double>(n) * static_cast<double>(scale);
      return c;
    }
  throw refuse();
}

format::Encoding parse_encoding(const std::string& name) {
  static const std::pair<const char*, format::Encoding> kNames[] = {
      {"plain", format::Encoding::PLAIN},
      {"dictionary", format::Encoding::RLE_DICTIONARY},
      {"rle_dictionary", format::Encoding::RLE_DICTIONARY},
      {"plain_dictionary", format::Encoding::PLAIN_DICTIONARY},
      {"rle", format::Encoding::RLE},
      {"delta_binary_packed", format::Encoding::DELTA_BINARY_PACKED},
      {"delta_length_byte_array", format::Encoding::DELTA_LENGTH_BYTE_ARRAY},
      {"delta_byte_array", format::Encoding::DELTA_BYTE_ARRAY},
      {"byte_stream_split", format::Encoding::BYTE_STREAM_SPLIT},
      {"alp", format::Encoding::ALP},
  };
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [n, e] : kNames)
    if (lower == n) return e;
  throw Error("unknown encoding '" + name +
                  "' (plain, dictionary, rle, delta_binary_packed, delta_length_byte_array, delta_byte_array, "
                  "byte_stream_split, alp)",
              ErrorKind::kInvalidArgument);
}

class FileWriter::Impl {
 public:
  Impl(std::unique_ptr<io::OutputStream> out, const Schema& schema, WriteOptions options)
      : out_(std::move(out)), schema_(schema), options_(std::move(options)), shredder_(schema_) {
    if (schema_.num_columns() == 0)
      throw Error(out_->name() + ": a schema without columns cannot be written", ErrorKind::kInvalidArgument);
    if (options_.row_group_rows < 1 || options_.row_group_bytes < 1 || options_.page_bytes < 1)
      throw Error("row group and page limits must be positive", ErrorKind::kInvalidArgument);
    check_column_paths(options_, schema_);
    check_checkpoint_options(options_, out_->name());
    last_checkpoint_time_ = std::chrono::steady_clock::now();
    if (options_.encryption) {
      encryptor_ = std::make_unique<crypto::FileEncryptor>(*options_.encryption);
      std::vector<std::string> paths;
      for (const auto& c : schema_.columns()) paths.push_back(c.dotted_path());
      encryptor_->check_columns(paths);
    }
    for (size_t i = 0; i < schema_.num_nodes(); ++i)
      if (is_file_group(schema_.node(i))) check_file_group(schema_.node(i));
    for (const SchemaNode* field : schema_.root().children())
      if (field->is_group() && field->logical_type().VARIANT)
        for (const SchemaNode* c : field->children())
          has_shredded_variants_ = has_shredded_variants_ || c->name() == "typed_value";
    for (size_t i = 0; i < schema_.num_columns(); ++i) {
      const ColumnDescriptor& column = schema_.column(i);
      columns_.push_back(std::make_unique<ColumnWriter>(column, resolve_column_options(options_, column),
                                                        encryptor_.get(), static_cast<int32_t>(i)));
    }
    if (options_.threads > 1) {
      pool_ = std::make_unique<ThreadPool>(options_.threads);
      write_out_pool_ = std::make_unique<ThreadPool>(2);
    }
    leaves_.resize(shredder_.num_fields());
    field_order_ = CostOrder(shredder_.num_fields());
    metadata_.version = options_.page_version == 2 ? 2 : 1;
    metadata_.schema = schema_.elements();
    metadata_.created_by = options_.created_by.empty() ? default_created_by() : options_.created_by;
    if (!options_.key_value_metadata.empty()) metadata_.key_value_metadata = options_.key_value_metadata;
    std::vector<format::ColumnOrder> orders(schema_.num_columns());
    for (size_t c = 0; c < orders.size(); ++c) {
      const ValueType& t = schema_.column(c).type;
      const bool floating = t.physical == format::Type::FLOAT || t.physical == format::Type::DOUBLE ||
                            (t.physical == format::Type::FIXED_LEN_BYTE_ARRAY && t.logical.FLOAT16);
      if (floating && resolve_column_options(options_, schema_.column(c)).float_total_order) {
        orders[c].IEEE_754_TOTAL_ORDER.emplace();
      } else if (t.physical == format::Type::INT96) {
        orders[c].INT96_TIMESTAMP_ORDER.emplace();
      } else {
        orders[c].TYPE_ORDER.emplace();
      }
    }
    metadata_.column_orders = std::move(orders);
    if (encryptor_ && !encryptor_->encrypted_footer()) {
      metadata_.encryption_algorithm = encryptor_->algorithm();
      const std::string& key_metadata = encryptor_->options().footer_key_metadata;
      if (!key_metadata.empty()) metadata_.footer_signing_key_metadata = key_metadata;
    }
    const bool pare = encryptor_ && encryptor_->encrypted_footer();
    out_->write(pare ? file::kEncryptedMagic : file::kMagic, file::kMagicSize);
  }

  // A worker may still be writing out a row group (after an error): it
  // uses the output and the chunks, which must outlive it.
  ~Impl() { wait_for_write_out(); }

  void write(const RecordBatch& given) {
    check_usable();
    guarded([&] {
      const RecordBatch& batch = with_variants_shredded(given);
      shredder_.check(batch);
      for (int64_t row = 0; row < batch.num_rows;) {
        const int64_t room = options_.row_group_rows - group_rows_;
        const int64_t end = row + std::min({room, kSliceRows, batch.num_rows - row});
        write_slice(batch, row, end);
        peak_buffered_ = std::max(peak_buffered_, buffered_bytes());
        group_rows_ += end - row;
        row = end;
        if (group_rows_ >= options_.row_group_rows || group_bytes() >= options_.row_group_bytes ||
            checkpoint_due_mid_group())
          end_row_group();
      }
      adapted_.columns.clear();  // it borrows the caller's buffers
    });
  }

  // Unshredded VARIANT columns (binary metadata and value) written to a
  // field the schema shreds: the batch with those columns shredded into its
  // layout, the others borrowed as they are; else the batch itself.
  const RecordBatch& with_variants_shredded(const RecordBatch& batch) {
    if (!has_shredded_variants_ || batch.columns.size() != schema_.root().num_children()) return batch;
    bool any = false;
    for (size_t i = 0; i < batch.columns.size(); ++i) any = any || needs_shredding(i, batch.columns[i]);
    if (!any) return batch;
    adapted_.num_rows = batch.num_rows;
    adapted_.columns.clear();
    for (size_t i = 0; i < batch.columns.size(); ++i) {
      const SchemaNode& field = schema_.root().child(i);
      adapted_.columns.push_back(needs_shredding(i, batch.columns[i]) ? variant::shred(batch.columns[i], schema_, field)
                                                                      : view_of(batch.columns[i]));
    }
    return adapted_;
  }

  bool needs_shredding(size_t field, const Array& a) const {
    const SchemaNode& n = schema_.root().child(field);
    if (!n.is_group() || !n.logical_type().VARIANT || a.kind != ArrayKind::kStruct) return false;
    bool shredded_field = false;
    for (const SchemaNode* c : n.children()) shredded_field = shredded_field || c->name() == "typed_value";
    for (const Array& c : a.children)
      if (c.name == "typed_value") return false;  // already in a shredded layout
    return shredded_field;
  }

  int64_t append_bytes(std::string_view bytes) {
    check_usable();
    int64_t at = 0;
    guarded([&] {
      settle_write_out();
      at = static_cast<int64_t>(out_->position());
      out_->write(bytes.data(), bytes.size());
    });
    return at;
  }

  void append_row_group(const format::RowGroup& source, std::vector<CopiedColumnChunk> chunks,
                        const std::function<void(size_t column, io::OutputStream& out)>& write_chunk) {
    check_usable();
    guarded([&] {
      if (encryptor_)
        throw Error(out_->name() + ": row groups cannot be copied into an encrypted file", ErrorKind::kUnsupported);
      if (chunks.size() != columns_.size())
        throw Error(out_->name() + ": a copied row group has " + std::to_string(chunks.size()) +
                        " column chunks, the schema " + std::to_string(columns_.size()) + " columns",
                    ErrorKind::kInvalidArgument);
      if (source.num_rows < 0)
        throw Error(out_->name() + ": a copied row group has negative rows", ErrorKind::kCorrupt);
      end_row_group();
      settle_write_out();
      format::RowGroup group;
      group.num_rows = source.num_rows;
      group.total_byte_size = source.total_byte_size;
      group.sorting_columns = source.sorting_columns;
      group.file_offset = static_cast<int64_t>(out_->position());
      group.ordinal = static_cast<int16_t>(std::min<size_t>(metadata_.row_groups.size(), INT16_MAX));
      int64_t compressed = 0;
      for (size_t i = 0; i < chunks.size(); ++i) {
        CopiedColumnChunk& copied = chunks[i];
        if (!copied.chunk.meta_data || copied.chunk.meta_data->type != schema_.column(i).type.physical ||
            copied.chunk.meta_data->path_in_schema != schema_.column(i).path)
          throw Error(out_->name() + ": a copied column chunk does not match column " + path(i),
                      ErrorKind::kInvalidArgument);
        const int64_t start = static_cast<int64_t>(out_->position());
        write_chunk(i, *out_);
        const uint64_t written = out_->position() - static_cast<uint64_t>(start);
        if (written != copied.size)
          throw Error(out_->name() + ": " + std::to_string(written) + " bytes copied of a " +
                          std::to_string(copied.size) + "-byte column chunk of " + path(i),
                      ErrorKind::kIo);
        format::ColumnChunk cc = std::move(copied.chunk);
        rebase(cc, copied, start);
        if (copied.offset_index)
          for (auto& location : copied.offset_index->page_locations)
            location.offset += start - static_cast<int64_t>(copied.source_offset);
        compressed += cc.meta_data->total_compressed_size;
        group.columns.push_back(std::move(cc));
        if (copied.column_index || copied.offset_index)
          extras_.push_back(
              {metadata_.row_groups.size(), i, std::move(copied.column_index), std::move(copied.offset_index), {}});
      }
      // The bloom filters follow their row group rather than wait for the
      // footer: they are kilobytes a chunk, and a file joined from many
      // would hold them all (readers find them by offset, wherever they are).
      for (size_t i = 0; i < chunks.size(); ++i) {
        if (chunks[i].bloom_filter.empty()) continue;
        format::ColumnMetaData& m = *group.columns[i].meta_data;
        m.bloom_filter_offset = static_cast<int64_t>(out_->position());
        m.bloom_filter_length = static_cast<int32_t>(chunks[i].bloom_filter.size());
        out_->write(chunks[i].bloom_filter.span());
      }
      group.total_compressed_size = compressed;
      metadata_.num_rows += group.num_rows;
      metadata_.row_groups.push_back(std::move(group));
      if (options_.checkpoint) maybe_checkpoint();  // a copied row group counts as a written one
    });
  }

  void set_column_orders(std::optional<std::vector<format::ColumnOrder>> orders) {
    check_usable();
    metadata_.column_orders = std::move(orders);
  }

  void flush_row_group() {
    check_usable();
    guarded([&] { end_row_group(); });
  }

  void close() {
    check_usable();
    guarded([&] {
      end_row_group(/*may_checkpoint=*/false);
      settle_write_out();
      write_extras();
      std::string footer;
      append_footer(footer);
      out_->write(footer.data(), footer.size());
      out_->commit();
      closed_ = true;
    });
  }

  const Schema& schema() const { return schema_; }
  int64_t num_rows() const { return metadata_.num_rows + group_rows_; }
  const format::FileMetaData& metadata() const { return metadata_; }
  size_t peak_buffered_bytes() const { return peak_buffered_; }
  size_t buffered_bytes() const {
    size_t n = writing_bytes_;
    for (const auto& c : columns_) n += c->buffered_bytes();
    return n;
  }

 private:
  void check_usable() const {
    if (failed_)
      throw Error(out_->name() + ": the writer failed earlier and can only be destroyed", ErrorKind::kInvalidArgument);
    if (closed_) throw Error(out_->name() + ": the writer is closed", ErrorKind::kInvalidArgument);
  }

  // Any error leaves the writer unusable: a half-written row group cannot
  // be resumed, and the output will be abandoned.
  void guarded(const std::function<void()>& fn) {
    try {
      fn();
    } catch (...) {
      failed_ = true;
      throw;
    }
  }

  int64_t group_bytes() const {
    int64_t n = 0;
    for (const auto& c : columns_) n += c->uncompressed_bytes();
    return n;
  }

  void write_field(const RecordBatch& batch, size_t field, int64_t begin, int64_t end) {
    std::vector<ShreddedLeaf>& leaves = leaves_[field];
    shredder_.shred(batch, field, begin, end, leaves);
    for (const ShreddedLeaf& leaf : leaves) columns_[static_cast<size_t>(leaf.column)]->write(leaf);
  }

  // Threads take fields costliest first (CostOrder), by their time on the
  // slices before.
  void write_slice(const RecordBatch& batch, int64_t begin, int64_t end) {
    if (pool_) {
      pool_->parallel_for(field_order_.size(), [&](size_t i) {
        const size_t f = field_order_[i];
        const auto start = std::chrono::steady_clock::now();
        write_field(batch, f, begin, end);
        field_order_.note(f, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      });
      field_order_.sort();
    } else {
      for (size_t f = 0; f < shredder_.num_fields(); ++f) write_field(batch, f, begin, end);
    }
  }

  // A byte or time limit reached by the row group being written.
  bool checkpoint_due_mid_group() const {
    if (!options_.checkpoint) return false;
    const CheckpointOptions& c = *options_.checkpoint;
    if (c.bytes > 0 && position_since_checkpoint() + group_bytes() >= c.bytes) return true;
    return c.seconds > 0 && seconds_since_checkpoint() >= c.seconds;
  }

  int64_t position_since_checkpoint() const {
    return static_cast<int64_t>(out_->position()) - last_checkpoint_position_;
  }

  double seconds_since_checkpoint() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_time_).count();
  }

  void maybe_checkpoint() {
    const CheckpointOptions& c = *options_.checkpoint;
    ++groups_since_checkpoint_;
    const bool by_count = c.row_groups > 0 && groups_since_checkpoint_ >= c.row_groups;
    const bool by_bytes = c.bytes > 0 && position_since_checkpoint() >= c.bytes;
    const bool by_time = c.seconds > 0 && seconds_since_checkpoint() >= c.seconds;
    const bool every_group = c.row_groups == 0 && c.bytes == 0 && c.seconds == 0;
    if (by_count || by_bytes || by_time || every_group) checkpoint();
  }

  // The data reaches the disk before the footer that points into it, so
  // that a checkpoint found after a power loss never covers lost pages.
  void checkpoint() {
    settle_write_out();
    write_extras();
    out_->sync();
    std::string trailer;
    file::append_checkpoint(metadata_, trailer);
    out_->write(trailer.data(), trailer.size());
    out_->sync();
    groups_since_checkpoint_ = 0;
    last_checkpoint_position_ = static_cast<int64_t>(out_->position());
    last_checkpoint_time_ = std::chrono::steady_clock::now();
  }

  void end_row_group(bool may_checkpoint = true) {
    if (group_rows_ == 0) return;
    settle_write_out();
    std::vector<ColumnChunkPages> chunks(columns_.size());
    auto finish = [&](size_t i) { chunks[i] = columns_[i]->finish(); };
    if (pool_) {
      pool_->parallel_for(columns_.size(), finish);
    } else {
      for (size_t i = 0; i < columns_.size(); ++i) finish(i);
    }
    format::RowGroup group;
    group.num_rows = group_rows_;
    int64_t start = static_cast<int64_t>(out_->position());  // of each chunk, as they will be written in order
    group.file_offset = start;
    group.ordinal = static_cast<int16_t>(std::min<size_t>(metadata_.row_groups.size(), INT16_MAX));
    int64_t compressed = 0;
    for (size_t i = 0; i < chunks.size(); ++i) {
      ColumnChunkPages& chunk = chunks[i];
      format::ColumnChunk cc;
      cc.file_offset = start;
      cc.meta_data = std::move(chunk.metadata);
      if (encryptor_) cc.crypto_metadata = encryptor_->crypto_metadata(path(i), schema_.column(i).path);
      format::ColumnMetaData& m = *cc.meta_data;
      m.data_page_offset += start;
      if (m.dictionary_page_offset) *m.dictionary_page_offset += start;
      if (chunk.offset_index)
        for (auto& location : chunk.offset_index->page_locations) location.offset += start;
      group.total_byte_size += m.total_uncompressed_size;
      compressed += m.total_compressed_size;
      group.columns.push_back(std::move(cc));
      if (chunk.column_index || chunk.offset_index || !chunk.bloom_filter.empty())
        extras_.push_back({metadata_.row_groups.size(), i, std::move(chunk.column_index), std::move(chunk.offset_index),
                           std::move(chunk.bloom_filter)});
      start += chunk.size();
    }
    write_out(std::move(chunks));
    group.total_compressed_size = compressed;
    metadata_.num_rows += group_rows_;
    metadata_.row_groups.push_back(std::move(group));
    group_rows_ = 0;
    if (options_.checkpoint && may_checkpoint) maybe_checkpoint();
  }

  // A finished row group's chunks, written to the output in order. With
  // threads, a worker of its own writes them while the encoding threads go
  // on with the next row group, so that the copying into the file is not
  // time they wait through; whatever touches the output next settles it
  // first (settle_write_out). Not with checkpoints: their byte limit reads
  // the output's position after every slice.
  void write_out(std::vector<ColumnChunkPages> chunks) {
    if (!pool_ || options_.checkpoint) {
      write_chunks(chunks);
      recycle(chunks);
      return;
    }
    writing_ = std::move(chunks);
    for (const ColumnChunkPages& chunk : writing_) writing_bytes_ += static_cast<size_t>(chunk.size());
    writing_done_ = false;
    write_out_pool_->post([this] {
      std::exception_ptr error;
      try {
        write_chunks(writing_);
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(writing_mutex_);
      writing_error_ = error;
      writing_done_ = true;
      writing_cv_.notify_all();
    });
  }

  void write_chunks(const std::vector<ColumnChunkPages>& chunks) {
    for (const ColumnChunkPages& chunk : chunks) {
      out_->write(chunk.dictionary_page.span());
      out_->write(chunk.data_pages.span());
    }
  }

  // The buffers of written chunks back to their column writers.
  void recycle(std::vector<ColumnChunkPages>& chunks) {
    for (size_t i = 0; i < chunks.size(); ++i) columns_[i]->recycle(std::move(chunks[i]));
    chunks.clear();
    writing_bytes_ = 0;
  }

  // Waits for the row group being written out; rethrows its error.
  void settle_write_out() {
    wait_for_write_out();
    if (writing_error_) std::rethrow_exception(std::exchange(writing_error_, nullptr));
    recycle(writing_);
  }

  void wait_for_write_out() {
    std::unique_lock lock(writing_mutex_);
    writing_cv_.wait(lock, [&] { return writing_done_; });
  }

  // A copied chunk's metadata, its bytes now at `start`: offsets into the
  // chunk move with it; one outside it (a writer's placeholder, or a
  // dictionary offset that readers ignore) is kept only where readers
  // recognize it wherever it is. Indexes and bloom filter are placed anew.
  static void rebase(format::ColumnChunk& cc, const CopiedColumnChunk& copied, int64_t start) {
    const int64_t from = static_cast<int64_t>(copied.source_offset);
    const int64_t delta = start - from;
    auto inside = [&](int64_t offset) { return offset >= from && static_cast<uint64_t>(offset - from) < copied.size; };
    cc.file_offset = start;
    cc.file_path.reset();
    cc.column_index_offset.reset();
    cc.column_index_length.reset();
    cc.offset_index_offset.reset();
    cc.offset_index_length.reset();
    format::ColumnMetaData& m = *cc.meta_data;
    m.bloom_filter_offset.reset();
    m.bloom_filter_length.reset();
    if (inside(m.data_page_offset)) m.data_page_offset += delta;  // else a placeholder below the magic
    for (std::optional<int64_t>* offset : {&m.dictionary_page_offset, &m.index_page_offset}) {
      if (*offset && inside(**offset)) {
        **offset += delta;
      } else {
        offset->reset();
      }
    }
    // The copied extent is what readers must read (it may include bytes an
    // old writer left out of the size, see column/page_reader.h).
    m.total_compressed_size = static_cast<int64_t>(copied.size);
  }

  format::ColumnChunk& chunk_of(const ChunkExtras& e) { return metadata_.row_groups[e.row_group].columns[e.column]; }

  std::string path(size_t column) const { return schema_.column(column).dotted_path(); }

  // The cipher of a chunk's modules outside its pages; invalid for a
  // plaintext chunk.
  crypto::ModuleCipher chunk_cipher(size_t row_group, size_t column) const {
    if (!encryptor_) return {};
    return encryptor_->column_cipher(path(column), static_cast<int32_t>(row_group), static_cast<int32_t>(column));
  }

  void append_footer(std::string& out) const {
    if (!encryptor_) return file::append_footer(metadata_, out);
    // metadata_ stays what a reader with every key sees; the footer seals
    // what the other readers must not.
    format::FileMetaData footer = metadata_;
    std::string plain;
    for (size_t g = 0; g < footer.row_groups.size(); ++g) {
      for (size_t c = 0; c < footer.row_groups[g].columns.size(); ++c) {
        format::ColumnChunk& cc = footer.row_groups[g].columns[c];
        if (!encryptor_->encrypts_column_metadata(path(c))) continue;
        plain.clear();
        format::encode_thrift(*cc.meta_data, plain);
        std::string& sealed = cc.encrypted_column_metadata.emplace();
        chunk_cipher(g, c).encrypt(crypto::ModuleType::kColumnMetaData, crypto::bytes_of(plain), sealed);
        if (encryptor_->encrypted_footer()) {
          cc.meta_data.reset();
        } else {
          redact(*cc.meta_data);
        }
      }
    }
    if (encryptor_->encrypted_footer()) {
      format::FileCryptoMetaData crypto;
      crypto.encryption_algorithm = encryptor_->algorithm();
      const std::string& key_metadata = encryptor_->options().footer_key_metadata;
      if (!key_metadata.empty()) crypto.key_metadata = key_metadata;
      file::append_encrypted_footer(crypto, footer, encryptor_->footer_cipher(), out);
    } else {
      file::append_signed_footer(footer, encryptor_->footer_cipher(), out);
    }
  }

  // An encrypted column's metadata as a plaintext footer shows it to
  // readers without its key, which can locate the chunk and nothing more:
  // what describes its values goes (Arrow drops statistics and encoding
  // stats; level histograms, byte counts and bounding boxes tell as much).
  static void redact(format::ColumnMetaData& m) {
    m.statistics.reset();
    m.encoding_stats.reset();
    m.size_statistics.reset();
    m.geospatial_statistics.reset();
    m.key_value_metadata.reset();
  }

  void write_extras() {
    for (ChunkExtras& e : extras_) {
      if (e.bloom_filter.empty()) continue;
      format::ColumnMetaData& m = *chunk_of(e).meta_data;
      m.bloom_filter_offset = static_cast<int64_t>(out_->position());
      m.bloom_filter_length = static_cast<int32_t>(e.bloom_filter.size());
      out_->write(e.bloom_filter.span());
    }
    // All column indexes, then all offset indexes, as PageIndex.md lays them out.
    write_indexes(&ChunkExtras::column_index, &format::ColumnChunk::column_index_offset,
                  &format::ColumnChunk::column_index_length);
    write_indexes(&ChunkExtras::offset_index, &format::ColumnChunk::offset_index_offset,
                  &format::ColumnChunk::offset_index_length);
    extras_.clear();
  }

  template <class Index>
  void write_indexes(std::optional<Index> ChunkExtras::*index, std::optional<int64_t> format::ColumnChunk::*offset,
                     std::optional<int32_t> format::ColumnChunk::*length) {
    constexpr crypto::ModuleType type = std::is_same_v<Index, format::ColumnIndex> ? crypto::ModuleType::kColumnIndex
                                                                                   : crypto::ModuleType::kOffsetIndex;
    std::string plain, bytes;
    for (ChunkExtras& e : extras_) {
      if (!(e.*index)) continue;
      bytes.clear();
      const crypto::ModuleCipher cipher = chunk_cipher(e.row_group, e.column);
      if (cipher.valid()) {
        plain.clear();
        format::encode_thrift(*(e.*index), plain);
        cipher.encrypt(type, crypto::bytes_of(plain), bytes);
      } else {
        format::encode_thrift(*(e.*index), bytes);
      }
      chunk_of(e).*offset = static_cast<int64_t>(out_->position());
      chunk_of(e).*length = static_cast<int32_t>(bytes.size());
      out_->write(bytes.data(), bytes.size());
    }
  }

  std::unique_ptr<io::OutputStream> out_;
  Schema schema_;
  WriteOptions options_;
  std::unique_ptr<crypto::FileEncryptor> encryptor_;  // null for a plaintext file
  Shredder shredder_;
  bool has_shredded_variants_ = false;
  RecordBatch adapted_;  // write()'s batch with its VARIANT columns shredded
  std::vector<std::unique_ptr<ColumnWriter>> columns_;
  std::unique_ptr<ThreadPool> pool_;
  // One worker of its own for write_out: the output waits on the disk at
  // times, and on `pool_` that wait would take a worker from the encoding.
  std::unique_ptr<ThreadPool> write_out_pool_;
  std::vector<std::vector<ShreddedLeaf>> leaves_;  // per field, reused across slices
  CostOrder field_order_;                          // of the fields, for threads
  format::FileMetaData metadata_;
  std::vector<ChunkExtras> extras_;
  int64_t group_rows_ = 0;
  int64_t groups_since_checkpoint_ = 0;
  int64_t last_checkpoint_position_ = 0;
  std::chrono::steady_clock::time_point last_checkpoint_time_;
  size_t peak_buffered_ = 0;
  bool failed_ = false;
  bool closed_ = false;
  // The row group a worker is writing out (write_out).
  std::vector<ColumnChunkPages> writing_;
  std::mutex writing_mutex_;
  std::condition_variable writing_cv_;
  size_t writing_bytes_ = 0;
  bool writing_done_ = true;
  std::exception_ptr writing_error_;
};

std::unique_ptr<FileWriter> FileWriter::open(const std::string& path, const Schema& schema, WriteOptions options) {
  if (!options.checkpoint) return open(io::create_file(path), schema, std::move(options));
  check_checkpoint_options(options, path);
  return open(io::create_file_in_place(path), schema, std::move(options));
}

std::unique_ptr<FileWriter> FileWriter::open(std::unique_ptr<io::OutputStream> out, const Schema& schema,
                                             WriteOptions options) {
  return std::unique_ptr<FileWriter>(
      new FileWriter(std::make_unique<Impl>(std::move(out), schema, std::move(options))));
}

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

void FileWriter::write(const RecordBatch& batch) { impl_->write(batch); }
void FileWriter::write_all(BatchSource& source) {
  RecordBatch batch;
  while (source.next(batch)) impl_->write(batch);
}
void FileWriter::flush_row_group() { impl_->flush_row_group(); }
void FileWriter::append_row_group(const format::RowGroup& source, std::vector<CopiedColumnChunk> chunks,
                                  const std::function<void(size_t column, io::OutputStream& out)>& write_chunk) {
  impl_->append_row_group(source, std::move(chunks), write_chunk);
}
void FileWriter::set_column_orders(std::optional<std::vector<format::ColumnOrder>> orders) {
  impl_->set_column_orders(std::move(orders));
}
int64_t FileWriter::append_bytes(std::string_view bytes) { return impl_->append_bytes(bytes); }
void FileWriter::close() { impl_->close(); }
const Schema& FileWriter::schema() const { return impl_->schema(); }
int64_t FileWriter::num_rows() const { return impl_->num_rows(); }
const format::FileMetaData& FileWriter::metadata() const { return impl_->metadata(); }
size_t FileWriter::buffered_bytes() const { return impl_->buffered_bytes(); }
size_t FileWriter::peak_buffered_bytes() const { return impl_->peak_buffered_bytes(); }

}  // namespace parq
