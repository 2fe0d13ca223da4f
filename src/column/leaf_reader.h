// LeafReader: reads one leaf column chunk record by record (in batches):
// pages -> levels (decoded a page at a time) -> dense values. The record
// assembler turns its output into arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/schema/schema.h"
#include "value_reader.h"

namespace parq {

struct LeafBatch {
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

class LeafReader {
 public:
  LeafReader(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group,
             const ColumnDescriptor& column, const PageReaderOptions& options);

  // Appends the levels and values of up to `records` more records; returns
  // how many it read, fewer only when the chunk ends.
  int64_t read_records(int64_t records, LeafBatch& out);

  const ColumnDescriptor& column() const { return column_; }

  // When the current page is used up: moves to the next data page and
  // prepares its decompression, for the caller to run (with other
  // columns', run_decompressions) before the next read_records, which
  // then starts on it. False when there is nothing to run.
  bool stage_page(PageDecompression& task);

 private:
  bool next_data_page();
  size_t expected_values_at(const PageInfo& page) const;
  bool load_data_page();
  void load_dictionary(const PageInfo& page);
  void load_v1(const PageInfo& page, std::span<const uint8_t> bytes);
  void load_v2(const PageInfo& page, std::span<const uint8_t> bytes);
  void begin_values(format::Encoding encoding, std::span<const uint8_t> values, int64_t num_values);
  int64_t take_records(int64_t wanted, int64_t& entries);
  void append(int64_t entries, LeafBatch& out);
  std::string where() const;
  [[noreturn]] void with_context(const Error& e) const;

  const ColumnDescriptor& column_;
  PageReader pages_;
  std::unique_ptr<ValueReader> values_;
  PageInfo page_;
  // A page that stage_page moved to; its bytes are ready once the caller
  // has run the decompression.
  bool staged_ = false;
  std::span<const uint8_t> staged_bytes_;
  Buffer page_def_;
  Buffer page_rep_;
  int64_t page_entries_ = 0;
  int64_t page_pos_ = 0;
  // Every entry of the page has the maximum definition level (no nulls at
  // any depth), so its levels need not be handed on.
  bool page_all_defined_ = false;
  // The definition levels are one run of the maximum, left undecoded in
  // page_def_.
  bool page_def_all_max_ = false;
  int64_t page_non_null_ = 0;  // entries at the maximum definition level
  bool first_entry_ = true;
};

}  // namespace parq
