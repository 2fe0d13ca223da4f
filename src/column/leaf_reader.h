// LeafReader: reads one leaf column chunk record by record (in batches):
// pages -> levels (decoded a window at a time) -> dense values. The record
// assembler turns its output into arrays.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "../encoding/compact_kernels.h"
#include "level_decoding.h"
#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/schema/schema.h"
#include "value_reader.h"

namespace parq {

// On cache lines of its own (64 bytes): a batch's leaves lie side by side
// in one vector and are filled by different threads at once, whose writes
// to their buffers' sizes would otherwise pull a shared line back and forth.
struct alignas(64) LeafBatch {
  // int16 per entry, when the column has definition levels and some entry of
  // the batch is below the maximum; empty means every entry is defined.
  Buffer def;
  Buffer rep;  // int16 per entry, when it has repetition levels
  int64_t num_entries = 0;
  LeafValues values;

  const int16_t* def_levels() const { return def.data_as<int16_t>(); }
  const int16_t* rep_levels() const { return rep.data_as<int16_t>(); }
  void clear() {
    def.clear();
    rep.clear();
    num_entries = 0;
    values.clear();
  }
};

// What a LeafReader has done so far, for its caller to report. "Values"
// count as a page header counts them: one per level entry, nulls included.
// Data pages only; a dictionary page is always decoded.
struct LeafReadCounters {
  int64_t pages_decompressed = 0;  // decompressed and their levels decoded
  int64_t pages_skipped = 0;       // passed over on their header alone
  int64_t values_decoded = 0;      // by read_records; the kept ones of read_selected
  int64_t values_skipped = 0;      // by skip_records, in either kind of page; the others of read_selected
};

class LeafReader {
 public:
  LeafReader(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group,
             const ColumnDescriptor& column, const PageReaderOptions& options);
  // Over bytes the fetch stage got: a partial chunk holds the pages of some
  // rows only (their first rows known from the offset index). Rows between
  // them can be skipped, never read.
  LeafReader(ChunkBytes bytes, const std::string& input_name, const format::FileMetaData& file, size_t row_group,
             const ColumnDescriptor& column, const PageReaderOptions& options);

  // Appends the levels and values of up to `records` more records; returns
  // how many it read, fewer only when the chunk ends.
  int64_t read_records(int64_t records, LeafBatch& out);

  // Passes over the next `records` records, as if read_records had read
  // them; returns how many, fewer only when the chunk ends. A data page
  // wholly inside them whose header tells its row count (every page of a
  // column without repetition; DATA_PAGE_V2 otherwise) is passed over
  // without decompressing it; elsewhere the levels are decoded and the
  // values skipped, materialised only where the encoding needs it.
  int64_t skip_records(int64_t records);

  // Reads the next `records` records and appends only those whose keep[i]
  // is non-zero (i in [0, records)): the levels and values that
  // read_records(records) followed by keep_records(batch, column, keep,
  // records) leave, but the kept values are decoded straight into `out` and
  // the others skipped. Pages wholly inside a run of unkept records are
  // passed over as skip_records passes them. Returns how many records it
  // passed, fewer only when the chunk ends. Columns with repetition read
  // and compact stretches of records, skipping long unkept runs.
  //
  // `out.def` may be left empty (every entry defined) where a whole read
  // would have written levels, all at the maximum, for records it dropped.
  int64_t read_selected(int64_t records, const uint8_t* keep, LeafBatch& out);

  const LeafReadCounters& counters() const { return counters_; }

  // What the reader holds between reads: decompressed pages, a window of the
  // current page's levels and (as its page's size) the dictionary. The pipeline
  // counts it against a read's memory limit.
  int64_t held_bytes() const {
    return static_cast<int64_t>(pages_.held_bytes() + levels_.held_bytes()) + dictionary_bytes_;
  }

  const ColumnDescriptor& column() const { return column_; }

  // When the current page is used up: moves to the next data page and
  // prepares its decompression, for the caller to run (with other
  // columns', run_decompressions) before the next read_records, which
  // then starts on it. False when there is nothing to run.
  bool stage_page(PageDecompression& task);

 private:
  bool next_data_page();
  size_t expected_values_at(const PageInfo& page) const;
  // `view`: the batch's values so far, when a read goes on into the next
  // page (see PageReader::decompress_after).
  bool load_data_page(int64_t pass_over_rows, int64_t& passed_rows, const Buffer* view = nullptr);
  bool streamable(const PageInfo& page) const;
  static format::Encoding data_page_encoding(const PageInfo& page);
  static int64_t data_page_values(const PageInfo& page);
  int64_t page_rows(const PageInfo& page) const;
  void check_page_counts(const PageInfo& page) const;
  void load_dictionary(const PageInfo& page);
  // Returns where the page's values start in `bytes`.
  size_t decode_levels(const PageInfo& page, std::span<const uint8_t> bytes);
  void begin_page_values(const PageInfo& page, std::span<const uint8_t> values);
  void begin_values(format::Encoding encoding, std::span<const uint8_t> values, int64_t num_values);
  void cover_levels(int64_t from, int64_t to);
  int64_t take_records(int64_t wanted, int64_t& entries, int64_t max_entries);
  void reserve(int64_t records, LeafValues& out) const;
  double metadata_byte_array_mean() const;
  void append(int64_t entries, LeafBatch& out);
  void skip_entries(int64_t entries);
  int16_t* extend_def(LeafBatch& out, int64_t entries) const;
  void select_entries(const uint8_t* keep, int64_t entries, LeafBatch& out);
  void select_some(const uint8_t* keep, int64_t entries, size_t kept, LeafBatch& out);
  int64_t read_selected_nested(int64_t records, const uint8_t* keep, LeafBatch& out);
  ErrorLocation location() const;
  [[noreturn]] void with_context(const Error& e) const;

  const ColumnDescriptor& column_;
  PageReader pages_;
  ValueReader values_;
  PageInfo page_;
  // A page that stage_page moved to; its bytes are ready once the caller
  // has run the decompression.
  bool staged_ = false;
  std::span<const uint8_t> staged_bytes_;
  PageLevels levels_;
  int64_t page_entries_ = 0;
  int64_t page_pos_ = 0;
  // Every entry of the page has the maximum definition level (no nulls at
  // any depth), so its levels need not be handed on.
  bool page_all_defined_ = false;
  // The page's PLAIN numbers are in the page reader's value stream.
  bool page_in_stream_ = false;
  int64_t page_non_null_ = 0;  // entries at the maximum definition level
  bool first_entry_ = true;
  LeafReadCounters counters_;
  int64_t dictionary_bytes_ = 0;
  // Of the byte arrays append() has read: reserve()'s estimate.
  int64_t byte_array_bytes_ = 0;
  int64_t byte_array_values_ = 0;
  int64_t row_ = 0;          // records read or skipped so far
  int64_t group_rows_ = -1;  // the row group's, as the footer says (-1: no such group)
  // page_ is the next data page, not loaded: it starts after rows a skip
  // has not reached yet (rows whose pages were not fetched).
  bool held_ = false;

  // A selective read goes through a page this many entries at a time, so
  // that its flags fit these.
  static constexpr int64_t kSelectChunk = 4096;
  // Per entry of a chunk: whether it is defined; per value of the chunk:
  // whether its entry is kept.
  std::array<uint8_t, kSelectChunk> defined_;
  std::array<uint8_t, kSelectChunk + encoding::kCompactSlack> value_keep_;
  // What a selective read of a column with repetition reads before keeping.
  LeafBatch nested_;
};

}  // namespace parq
