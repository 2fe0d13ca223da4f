// Rows of a RecordBatch as text: the canonical JSON Lines form of
// /work/shared/golden/FORMAT.md (`parq cat --format=jsonl`), CSV
// (`parq cat --format=csv`) and an aligned text table (`parq head`).
//
// `parq cat` prints millions of rows, so each batch is first compiled into a
// flat plan (one node per Array, each leaf's ValueFormat resolved once, the
// JSON keys pre-escaped); rendering a value is then one switch, with no
// allocation and no virtual call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "parq/array/array.h"
#include "parq/text/value_text.h"

namespace parq::text {

struct RowTextOptions {
  // VARIANT columns as their values' JSON text (shredded ones rebuilt, see
  // variant/shredding.h), rather than as the struct of their binary parts
  // that the canonical form prints.
  bool variants_as_json = false;
};

// Renders rows of one batch. The batch must outlive the writer and stay
// unchanged while it is used. The constructor checks the batch's shape
// (buffer sizes, offsets, children) and throws parq::Error when it is
// malformed, so that rendering never reads out of bounds.
class RowJsonWriter {
 public:
  explicit RowJsonWriter(const RecordBatch& batch, const RowTextOptions& options = {});
  // Nodes point into unshredded_, whose elements a move keeps in place.
  RowJsonWriter(const RowJsonWriter&) = delete;
  RowJsonWriter& operator=(const RowJsonWriter&) = delete;
  RowJsonWriter(RowJsonWriter&&) = default;
  RowJsonWriter& operator=(RowJsonWriter&&) = default;

  // One JSON object, no newline. Throws parq::Error when `row` is outside
  // [0, num_rows) or a value cannot be written (a DECIMAL longer than kMaxDecimalBytes).
  void append_row(std::string& out, int64_t row) const;
  // Rows [begin, end), each followed by '\n'.
  void append_rows(std::string& out, int64_t begin, int64_t end) const;

  const RecordBatch& batch() const { return *batch_; }
  size_t num_columns() const { return num_columns_; }
  bool is_null(size_t column, int64_t row) const { return !column_node(column, row).is_valid(row); }
  // The canonical JSON text of one top-level value ("null" when null).
  void append_value(std::string& out, size_t column, int64_t row) const;
  // The value as a person reads it: a JSON string's content without quotes
  // or escapes (strings, dates, decimals, base64, "NaN"...), any other value
  // (numbers, booleans, intervals, structs, lists, maps) as its JSON text.
  // Appends nothing for a null.
  void append_text(std::string& out, size_t column, int64_t row) const;

 private:
  struct Node {
    ArrayKind kind = ArrayKind::kLeaf;
    ValueKind value_kind = ValueKind::kBase64;
    int32_t width = 0;  // bytes per slot of fixed-width leaves
    int32_t scale = 0;
    TimeUnit unit = TimeUnit::kMillis;
    bool adjusted_to_utc = false;
    const uint8_t* validity = nullptr;  // null when every slot is valid
    const int32_t* offsets = nullptr;   // BYTE_ARRAY leaves, lists, maps
    const uint8_t* values = nullptr;
    uint32_t first_child = 0;  // children are contiguous in nodes_
    uint32_t num_children = 0;
    uint32_t key_begin = 0;  // struct fields: `{"name":` or `,"name":` in keys_
    uint32_t key_size = 0;
    bool variant = false;  // a VARIANT as JSON: `offsets`/`values` hold its values
    const int32_t* metadata_offsets = nullptr;
    const uint8_t* metadata_values = nullptr;

    bool is_valid(int64_t i) const { return validity == nullptr || (validity[i >> 3] >> (i & 7) & 1) != 0; }
  };

  void build(uint32_t index, const Array& array, int64_t length, bool first_field);
  void build_children(uint32_t index, const std::vector<Array>& children, int64_t length);
  void append_node(std::string& out, const Node& node, int64_t i) const;
  void append_struct(std::string& out, const Node& node, int64_t i) const;
  void append_list(std::string& out, const Node& node, int64_t i) const;
  void append_map(std::string& out, const Node& node, int64_t i) const;
  void append_variant(std::string& out, const Node& node, int64_t i) const;
  void append_leaf(std::string& out, const Node& node, int64_t i) const;
  // Inline because CSV and the table ask per field.
  const Node& column_node(size_t column, int64_t row) const {
    if (column >= num_columns_ || row < 0 || row >= num_rows_) [[unlikely]]
      throw_bad_cell(column, row);
    return nodes_[nodes_[0].first_child + column];
  }
  [[noreturn]] void throw_bad_cell(size_t column, int64_t row) const;

  const RecordBatch* batch_;
  RowTextOptions options_;
  std::deque<Array> unshredded_;  // VARIANT columns rebuilt for variants_as_json
  std::vector<Node> nodes_;       // nodes_[0]: the row, a struct of the columns
  std::string keys_;
  size_t num_columns_ = 0;
  int64_t num_rows_ = 0;
};

// `bytes` as text with each invalid UTF-8 sequence replaced by U+FFFD, as
// JSON strings have them, but unquoted and unescaped (CSV fields, table cells).
void append_utf8_text(std::string& out, std::string_view bytes);

// Convenience for a single row; compiles the batch's plan on every call, so
// loops over rows should hold a RowJsonWriter instead.
void append_row_json(std::string& out, const RecordBatch& batch, int64_t row);
// Rows [begin, end) as JSON Lines ('\n' after each).
void append_rows_jsonl(std::string& out, const RecordBatch& batch, int64_t begin, int64_t end);

// RFC 4180 CSV across the batches of one file: a header line of the
// top-level names before the first rows, then one line per row ('\n'
// terminated). Null is an empty field and an empty string is `""`, so the
// two stay distinguishable; strings are their text, numbers, dates and the
// like their JSON text unquoted, nested values their compact JSON text.
// Fields holding a comma, a quote, CR or LF are quoted with inner quotes
// doubled.
class CsvWriter {
 public:
  CsvWriter() = default;
  explicit CsvWriter(const RowTextOptions& options) : options_(options) {}
  // Writes the header first if no call has yet; a call with begin == end
  // (e.g. on a source's prototype) writes just the header, as an empty file
  // still needs one.
  void append_rows(std::string& out, const RowJsonWriter& rows, int64_t begin, int64_t end);
  // The same through a RowJsonWriter made for the call, whose checks cost a
  // pass over the batch: for rows of one batch in pieces, hold a writer.
  void append_rows(std::string& out, const RecordBatch& batch, int64_t begin, int64_t end);
  bool header_written() const { return header_written_; }

 private:
  RowTextOptions options_;
  bool header_written_ = false;
  std::string field_;  // reused across fields
};

// Rows [begin, end) as a table for a terminal: a header of the top-level
// names, a separator, one line per row; columns separated by " | ", numeric
// columns right-aligned, widths counted in code points. Cells longer than
// `max_cell_width` code points end in "…"; nulls read "null"; control
// characters in strings are shown as JSON escapes so that each row stays one
// line. No line has trailing spaces.
std::string render_table(const RecordBatch& batch, int64_t begin, int64_t end, size_t max_cell_width = 40,
                         const RowTextOptions& options = {});

}  // namespace parq::text
