// Rows of a RecordBatch as RFC 4180 CSV; see parq/text/row_text.h.
#include <array>
#include <cstring>
#include <string_view>

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/row_text.h"

namespace parq::text {
namespace {

// string_view::find_first_of tests every byte against each of the four
// characters in turn; one table lookup per byte is what a field costs.
constexpr std::array<bool, 256> make_special_table() {
  std::array<bool, 256> table{};
  table[','] = table['"'] = table['\r'] = table['\n'] = true;
  return table;
}
constexpr std::array<bool, 256> kSpecial = make_special_table();

bool needs_quotes(std::string_view field) {
  for (const char c : field) {
    if (kSpecial[static_cast<unsigned char>(c)]) return true;
  }
  return false;
}

// Quotes the field that starts at out[start] when it needs it; most fields do
// not, and those are left where they were written, uncopied.
void quote_field_from(std::string& out, size_t start, std::string& scratch) {
  const std::string_view field(out.data() + start, out.size() - start);
  if (field.empty()) {
    out.append("\"\"", 2);  // an empty string, unlike a null
    return;
  }
  if (!needs_quotes(field)) return;
  scratch.assign(field);
  out.resize(start);
  out.push_back('"');
  for (const char c : scratch) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace

void CsvWriter::append_rows(std::string& out, const RecordBatch& batch, int64_t begin, int64_t end) {
  append_rows(out, RowJsonWriter(batch, options_), begin, end);
}

void CsvWriter::append_rows(std::string& out, const RowJsonWriter& writer, int64_t begin, int64_t end) {
  const RecordBatch& batch = writer.batch();
  if (begin < 0 || end < begin || end > batch.num_rows) {
    throw Error("rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") are outside the batch's " +
                    std::to_string(batch.num_rows) + " rows",
                ErrorKind::kInvalidArgument);
  }
  if (!header_written_) {
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      if (c != 0) out.push_back(',');
      const size_t start = out.size();
      append_utf8_text(out, batch.columns[c].name);
      quote_field_from(out, start, field_);
    }
    out.push_back('\n');
    header_written_ = true;
  }
  for (int64_t row = begin; row < end; ++row) {
    for (size_t c = 0; c < writer.num_columns(); ++c) {
      if (c != 0) out.push_back(',');
      if (writer.is_null(c, row)) continue;
      const size_t start = out.size();
      writer.append_text(out, c, row);
      quote_field_from(out, start, field_);
    }
    out.push_back('\n');
  }
}

}  // namespace parq::text
