// Rows of a RecordBatch as an aligned text table for a terminal (`parq
// head`); see parq/text/row_text.h.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "parq/error.h"
#include "parq/text/row_text.h"

namespace parq::text {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::string_view kColumnSeparator = " | ";

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Cells hold valid UTF-8 (strings are sanitised first), so code points are
// the bytes that do not continue one.
size_t code_points(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !is_continuation(c); }));
}

// A raw newline or tab from a string would break the row's line, so control
// characters come back as the escapes JSON gives them.
void escape_controls(std::string& cell) {
  const auto is_control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; };
  if (std::none_of(cell.begin(), cell.end(), is_control)) return;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string escaped;
  for (const char c : cell) {
    if (!is_control(c)) {
      escaped.push_back(c);
      continue;
    }
    switch (c) {
      case '\b':
        escaped.append("\\b");
        break;
      case '\f':
        escaped.append("\\f");
        break;
      case '\n':
        escaped.append("\\n");
        break;
      case '\r':
        escaped.append("\\r");
        break;
      case '\t':
        escaped.append("\\t");
        break;
      default:
        escaped.append("\\u00");
        escaped.push_back(kHex[static_cast<unsigned char>(c) >> 4]);
        escaped.push_back(kHex[c & 0xF]);
    }
  }
  cell = std::move(escaped);
}

// Cuts the cell to `width` code points, the last one an ellipsis.
void truncate(std::string& cell, size_t width) {
  if (code_points(cell) <= width) return;
  size_t kept = 0;
  size_t end = 0;
  for (; end < cell.size(); ++end) {
    if (!is_continuation(cell[end]) && kept++ == width - 1) break;
  }
  cell.resize(end);
  cell.append(kEllipsis);
}

bool is_numeric(const Array& column) {
  if (column.kind != ArrayKind::kLeaf) return false;
  switch (value_format_of(column.type).kind) {
    case ValueKind::kInt32:
    case ValueKind::kUInt32:
    case ValueKind::kInt64:
    case ValueKind::kUInt64:
    case ValueKind::kFloat:
    case ValueKind::kDouble:
    case ValueKind::kFloat16:
    case ValueKind::kDecimal32:
    case ValueKind::kDecimal64:
    case ValueKind::kDecimalBytes:
      return true;
    default:
      return false;
  }
}

struct Column {
  std::vector<std::string> cells;  // the header first
  size_t width = 0;                // in code points
  bool right_aligned = false;
};

void append_padded(std::string& line, const std::string& cell, const Column& column, bool last) {
  const size_t pad = column.width - code_points(cell);
  if (column.right_aligned) line.append(pad, ' ');
  line.append(cell);
  if (!column.right_aligned && !last) line.append(pad, ' ');
}

}  // namespace

std::string render_table(const RecordBatch& batch, int64_t begin, int64_t end, size_t max_cell_width,
                         const RowTextOptions& options) {
  if (begin < 0 || end < begin || end > batch.num_rows) {
    throw Error("rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") are outside the batch's " +
                    std::to_string(batch.num_rows) + " rows",
                ErrorKind::kInvalidArgument);
  }
  if (batch.columns.empty()) return {};
  const size_t max_width = std::max<size_t>(max_cell_width, 1);
  const RowJsonWriter writer(batch, options);
  std::vector<Column> columns(batch.columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    Column& column = columns[c];
    column.right_aligned = is_numeric(batch.columns[c]);
    column.cells.reserve(static_cast<size_t>(end - begin) + 1);
    append_utf8_text(column.cells.emplace_back(), batch.columns[c].name);
    for (int64_t row = begin; row < end; ++row) {
      std::string& cell = column.cells.emplace_back();
      if (writer.is_null(c, row)) {
        cell = "null";
      } else {
        writer.append_text(cell, c, row);
      }
    }
    for (std::string& cell : column.cells) {
      escape_controls(cell);
      truncate(cell, max_width);
      column.width = std::max(column.width, code_points(cell));
    }
  }
  std::string out;
  const auto append_line = [&](size_t index) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c != 0) out.append(kColumnSeparator);
      append_padded(out, columns[c].cells[index], columns[c], c + 1 == columns.size());
    }
    // An empty last cell leaves the separator's space at the end.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out.push_back('\n');
  };
  append_line(0);
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c != 0) out.append("-+-");
    out.append(columns[c].width, '-');
  }
  out.push_back('\n');
  for (size_t i = 1; i < columns[0].cells.size(); ++i) append_line(i);
  return out;
}

}  // namespace parq::text
