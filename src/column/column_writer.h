// ColumnWriter: one leaf column's pages within the current row group.
//
// Shredded entries (levels + value slots) arrive in slices; values are
// gathered dense, cut into pages at row boundaries (every page starts a row,
// as the page index needs), encoded, and handed to the PageSink as each page
// fills, which compresses, encrypts and checksums it. The finished chunk is its dictionary page (known only once the
// chunk ends, yet first in the file) and its data pages, plus the metadata,
// statistics, page index entries and bloom filter that describe them, with
// offsets relative to the chunk's start; the file writer places it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "page_sink.h"
#include "parq/compression/codec.h"
#include "parq/crypto/file_crypto.h"
#include "parq/encoding/dictionary_encoder.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/file/file_writer.h"
#include "parq/format/metadata.h"
#include "parq/schema/schema.h"
#include "parq/util/buffer.h"
#include "shredded_leaf.h"
#include "statistics_builder.h"
#include "value_writer.h"

namespace parq {

// WriteOptions resolved for one column.
struct ColumnWriterOptions {
  int page_version = 1;
  bool dictionary = true;
  format::Encoding fallback = format::Encoding::PLAIN;
  encoding::DictionaryLimits dictionary_limits;
  compression::CodecChoice codec;
  bool statistics = true;
  bool page_index = true;
  bool page_crc = true;
  double min_compression_saving = 0.125;
  size_t max_statistics_bytes = 64;
  bool float_total_order = false;
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20000;
  std::optional<BloomFilterOptions> bloom_filter;
  bool weigh_dictionary = true;  // WriteOptions::weigh_dictionary
};

ColumnWriterOptions resolve_column_options(const WriteOptions& options, const ColumnDescriptor& column);

// A finished column chunk; offsets are relative to the chunk's first byte.
struct ColumnChunkPages {
  Buffer dictionary_page;  // header + body; empty without one
  Buffer data_pages;       // headers + bodies, in order
  format::ColumnMetaData metadata;
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;
  Buffer bloom_filter;  // header + bitset; empty without one
  int64_t size() const { return static_cast<int64_t>(dictionary_page.size() + data_pages.size()); }
};

class ColumnWriter {
 public:
  // `encryptor` (null for a plaintext file) outlives the writer;
  // `ordinal` is the column's among the schema's leaves.
  ColumnWriter(const ColumnDescriptor& column, ColumnWriterOptions options,
               const crypto::FileEncryptor* encryptor = nullptr, int32_t ordinal = 0);
  ~ColumnWriter();

  void write(const ShreddedLeaf& leaf);
  // Ends the chunk and starts the next one.
  ColumnChunkPages finish();
  // Takes back the page buffers of a chunk finish() returned, once they are
  // written out, so that a later chunk fills the same memory instead of
  // growing fresh buffers (page faults and copies) every row group: the
  // chunk being written, if it has not started, or else the next one (a
  // chunk written out while the next is encoded).
  void recycle(ColumnChunkPages&& written);

  // Compressed bytes of the chunk's finished pages plus the open page's
  // estimate: what the row group holds in memory for this column.
  size_t buffered_bytes() const;
  // Encoded, uncompressed bytes so far (the row group size limit counts these).
  int64_t uncompressed_bytes() const { return chunk_uncompressed_ + static_cast<int64_t>(open_page_estimate()); }

 private:
  struct Page;
  void gather(const ShreddedLeaf& leaf);
  void write_entries(const ShreddedLeaf& leaf);
  int64_t next_cut(const ShreddedLeaf& leaf, int64_t from, int64_t want) const;
  int64_t count_values(const ShreddedLeaf& leaf, int64_t begin, int64_t end) const;
  void add_to_page(const ShreddedLeaf& leaf, int64_t e0, int64_t e1, int64_t v0, int64_t v1);
  bool put_values(const ShreddedLeaf& leaf, int64_t& e, int64_t e1, int64_t& v, int64_t nv);
  void fall_back();
  std::optional<size_t> fallback_page_cost();
  bool page_full() const;
  size_t open_page_estimate() const;
  void flush_page();
  void finish_bloom_filter(ColumnChunkPages& out);
  void note_dictionary_values(size_t n);
  void fold_dictionary_values();
  void reset_chunk();

  const ColumnDescriptor& column_;
  ColumnWriterOptions options_;
  PageSink sink_;
  std::unique_ptr<ValueWriter> dictionary_;  // null without one (or for BOOLEAN)
  std::unique_ptr<ValueWriter> fallback_;
  ValueWriter* values_ = nullptr;  // the one in use
  int dictionary_pages_ = 0;       // pages of indices in the chunk so far
  // The dictionary after the chunk's first page: entries, PLAIN bytes.
  size_t entries_before_ = 0;
  size_t entries_bytes_before_ = 0;
  std::unique_ptr<StatisticsBuilder> page_stats_;
  std::unique_ptr<StatisticsBuilder> chunk_stats_;

  // Dense values of the current slice.
  DenseValues dense_;
  Buffer gathered_;
  Buffer gathered_offsets_;

  // The open page.
  encoding::RleBitPackedEncoder def_encoder_;
  encoding::RleBitPackedEncoder rep_encoder_;
  int64_t page_entries_ = 0;
  int64_t page_values_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_byte_array_bytes_ = 0;
  std::vector<int64_t> page_def_histogram_;
  std::vector<int64_t> page_rep_histogram_;

  // The chunk so far.
  ColumnChunkPages chunk_;
  // Buffers recycled while chunk_ was in use, for the next chunk.
  Buffer spare_data_pages_;
  Buffer spare_dictionary_page_;
  int64_t chunk_entries_ = 0;
  int64_t chunk_rows_ = 0;
  int64_t chunk_uncompressed_ = 0;
  int64_t chunk_byte_array_bytes_ = 0;
  std::vector<int64_t> chunk_def_histogram_;
  std::vector<int64_t> chunk_rep_histogram_;
  std::vector<format::PageEncodingStats> encoding_stats_;
  bool index_bounds_complete_ = true;  // every non-null page had min/max
  std::vector<uint64_t> bloom_hashes_;

  // BYTE_ARRAY pages of dictionary indices: their statistics come from the
  // distinct entries used (one compare per entry, not per value).
  std::vector<uint8_t> entry_seen_;
  std::vector<uint32_t> entries_seen_;
  Buffer fold_offsets_;
  Buffer fold_data_;

  // Scratch reused across pages.
  Buffer levels_;
  Buffer body_;
  // The fallback encoding of a dictionary's first page (fallback_page_cost).
  Buffer trial_entries_;
  Buffer trial_values_;
  Buffer trial_offsets_;
  Buffer trial_body_;
};

}  // namespace parq
