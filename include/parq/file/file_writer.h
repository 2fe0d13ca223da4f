// FileWriter: writes rows as a Parquet file, streaming.
//
//   auto schema = make_schema({Field::int64("id").required(), Field::string("name")});
//   auto writer = FileWriter::open("out.parquet", schema);
//   writer->write(batch);   // any number of times
//   writer->close();        // footer, then the file appears under its name
//
// Batches use the layout the reader produces (array/array.h): one Array per
// top-level field, leaves in Parquet's physical storage. Rows are shredded
// into definition and repetition levels at any depth, encoded and compressed
// into pages as pages fill; a row group's compressed pages are held until
// the row group is complete (a column chunk must be contiguous in the file,
// and its dictionary page, known last, comes first), so memory grows with
// the compressed row group, never with the file.
//
// Encoding strategy, per column chunk: dictionary first while the
// dictionary stays within its limits; once a value would cross them, the
// pages written so far and the dictionary page stay, and the rest of the
// chunk is written with the fallback encoding: PLAIN for v1 pages, the
// DELTA encodings for v2 pages (DELTA_BINARY_PACKED for integers,
// DELTA_BYTE_ARRAY for byte arrays), or the column's configured encoding.
// The dictionary starts afresh in the next row group.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/array/batch_source.h"
#include "parq/compression/codec.h"
#include "parq/crypto/encryption.h"
#include "parq/encoding/dictionary_encoder.h"
#include "parq/format/metadata.h"
#include "parq/io/output.h"
#include "parq/schema/schema.h"

namespace parq {

struct BloomFilterOptions {
  // The distinct values expected per column chunk; 0 sizes the filter from
  // the distinct values the chunk actually holds.
  uint64_t ndv = 0;
  double fpp = 0.01;
};

struct ColumnWriteOptions {
  // The encoding of values that are not dictionary-encoded: from the first
  // page when the dictionary is off, after the fallback otherwise.
  std::optional<format::Encoding> encoding;
  std::optional<bool> dictionary;
  std::optional<compression::CodecChoice> codec;
  std::optional<bool> statistics;
  std::optional<BloomFilterOptions> bloom_filter;
  std::optional<bool> float_total_order;  // see WriteOptions::float_total_order
};

// When a checkpointed write (file/checkpoint.h) appends a cumulative
// footer: at the end of a row group once any set limit is reached; every
// row group when none is set. A byte or time limit also ends the row group
// early, so that no more than about that much is ever at risk.
struct CheckpointOptions {
  int64_t row_groups = 0;  // row groups since the last checkpoint
  int64_t bytes = 0;       // bytes written since the last checkpoint
  double seconds = 0;      // time since the last checkpoint (or the start)
};

struct WriteOptions {
  compression::CodecChoice codec{format::CompressionCodec::SNAPPY, compression::kDefaultLevel};
  int page_version = 1;  // 1 or 2
  bool dictionary = true;
  encoding::DictionaryLimits dictionary_limits;
  // Each chunk's second page of dictionary indices (with the entries it
  // added) is weighed against the fallback encoding of the same values,
  // both compressed, and the chunk falls back after it when the fallback is
  // clearly smaller (keys, prices, sentences: many distinct values that
  // compress well as they are). A page that adds fewer entries than a
  // sixteenth of its values is not weighed. false keeps every dictionary until its limits, as does
  // a column whose encoding is set to a dictionary by name.
  bool weigh_dictionary = true;
  // A row group ends at whichever limit it reaches first; the byte limit
  // counts the encoded, uncompressed size of its pages.
  int64_t row_group_rows = int64_t{1} << 20;
  int64_t row_group_bytes = int64_t{128} << 20;
  // A data page ends at whichever comes first (pages end between rows).
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20000;
  bool statistics = true;
  bool page_index = true;
  bool page_crc = true;
  // A column whose compressed page shrank by less than this fraction of its
  // size stops being compressed, as ZFS and RocksDB store blocks that
  // compress by less than an eighth: high-entropy data (hashes, random ids,
  // encrypted or already compressed bytes) then costs a copy instead of a
  // compressor's search for the few bytes it would save. The following
  // pages are stored (v2 pages marked uncompressed; v1 pages in the codec's
  // own format as literals, where it has one: SNAPPY, LZ4, LZ4_RAW) and
  // every 16th is compressed again, so a column that turns compressible is
  // compressed again. 0 compresses every page.
  double min_compression_saving = 0.125;
  // min/max of byte arrays longer than this are truncated (and marked
  // inexact) in statistics and the column index.
  size_t max_statistics_bytes = 64;
  // FLOAT, DOUBLE and FLOAT16 columns ordered by IEEE 754 total order
  // (ColumnOrder IEEE_754_TOTAL_ORDER), not their type's order: bounds keep
  // the sign of a zero, and a page or chunk of only NaNs has NaN bounds (so
  // its column index is written too). nan_count is written either way.
  bool float_total_order = false;
  // By dotted column path ("a.b.c"); a group's path applies to every leaf
  // below it. An unknown path is an error when the writer opens.
  std::map<std::string, ColumnWriteOptions> columns;
  std::vector<format::KeyValue> key_value_metadata;
  // Empty: "parq version X.Y.Z".
  std::string created_by;
  // Columns encode side by side on this many threads (1: the caller's).
  int threads = 1;
  // Parquet modular encryption (crypto/encryption.h). Nothing of an
  // encrypted column is stored in the clear: its pages and their headers,
  // page indexes, bloom filter and column metadata are encrypted modules,
  // and a plaintext footer keeps only its statistics-free metadata. Every
  // file gets its own AAD (a dataset's files too). A key given for a column
  // the schema does not have is an error when the writer opens.
  std::optional<crypto::EncryptionOptions> encryption;
  // Checkpointed writing: the file is written in place, not through a
  // temporary file, and at each checkpoint the data is synced to disk and a
  // cumulative footer appended, so that `parq recover` (file/recover.h)
  // gets back every checkpointed row group of a file cut by a crash. A
  // finished file is an ordinary Parquet file. Not with encryption.
  std::optional<CheckpointOptions> checkpoint;
};

// "parq version X.Y.Z".
std::string default_created_by();

// A checkpoint cadence as the tool and the Python package write it: row
// groups ("4"), bytes with a unit ("64MiB", "500KB", "1GB", "4096B") or a
// time with one ("30s", "5m", "2h"). Throws parq::Error (invalid argument)
// saying what it takes otherwise.
CheckpointOptions parse_checkpoint(const std::string& text);

// An encoding by the name the tool's and the Python package's options use:
// "plain", "dictionary" (RLE_DICTIONARY), "rle_dictionary",
// "plain_dictionary", "rle", "delta_binary_packed",
// "delta_length_byte_array", "delta_byte_array", "byte_stream_split",
// "alp" (FLOAT and DOUBLE; a Preview encoding that older readers refuse),
// in any case. Throws parq::Error (invalid argument) listing the names otherwise.
format::Encoding parse_encoding(const std::string& name);

// A column chunk of another file, copied into a FileWriter's file as it is
// (file/row_group_copy.h reads and checks it).
struct CopiedColumnChunk {
  format::ColumnChunk chunk;   // as the source's footer has it
  uint64_t source_offset = 0;  // where its bytes start in the source
  uint64_t size = 0;           // how many bytes are copied
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;  // page offsets in the source
  Buffer bloom_filter;                              // header + bitset; empty: none
};

class FileWriter {
 public:
  // Writes `path` through a temporary file renamed into place by close()
  // (or in place, with checkpoints).
  static std::unique_ptr<FileWriter> open(const std::string& path, const Schema& schema, WriteOptions options = {});
  static std::unique_ptr<FileWriter> open(std::unique_ptr<io::OutputStream> out, const Schema& schema,
                                          WriteOptions options = {});
  // Without close(), the output is abandoned: no file appears at the path.
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  // Appends the batch's rows. Throws parq::Error (and the writer can then
  // only be destroyed) when the batch does not match the schema: a column
  // count, kind, physical type or width that differs, a null in a required
  // field, inconsistent offsets or buffer sizes.
  void write(const RecordBatch& batch);
  // Writes every batch of `source`.
  void write_all(BatchSource& source);
  // Ends the current row group (no-op when it is empty).
  void flush_row_group();
  // Writes `bytes` into the file outside every column chunk and returns
  // their offset: the target of a FILE self-reference (file/file_reference.h),
  // so that a file and the blobs it refers to travel as one. Rows written
  // and not yet flushed stay in the current row group. The bytes are stored
  // as given, also in an encrypted file (the format has no module for
  // them): encrypt a confidential blob before appending it.
  int64_t append_bytes(std::string_view bytes);
  // Ends the current row group, then appends `source`'s row group, whose
  // chunks `write_chunk(i, out)` writes as they are, exactly chunks[i].size
  // bytes each. Their offsets (pages, offset index) move with them; their
  // bloom filters follow them, their page indexes join this file's before
  // the footer. Throws
  // parq::Error for chunks that do not match the schema's columns, a
  // wrong byte count, or an encrypted writer (copied chunks are plaintext).
  void append_row_group(const format::RowGroup& source, std::vector<CopiedColumnChunk> chunks,
                        const std::function<void(size_t column, io::OutputStream& out)>& write_chunk);
  // The footer's column orders as given (nullopt: none) instead of those of
  // the options: a file of copied row groups keeps the orders their
  // statistics were written in.
  void set_column_orders(std::optional<std::vector<format::ColumnOrder>> orders);
  // Ends the last row group, writes the bloom filters, page indexes and
  // footer, and commits the output.
  void close();

  const Schema& schema() const;
  int64_t num_rows() const;
  // The footer, complete after close(). In an encrypted file, its column
  // metadata as a reader with every key sees it: in the clear, with
  // statistics.
  const format::FileMetaData& metadata() const;
  // Bytes held in pages not yet written (the current row group).
  size_t buffered_bytes() const;
  // The most buffered_bytes() reached so far (checked after every slice of
  // at most 64 Ki rows): the writer's memory beside the caller's batches.
  size_t peak_buffered_bytes() const;

  class Impl;

 private:
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace parq
