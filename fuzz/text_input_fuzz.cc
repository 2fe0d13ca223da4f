// libFuzzer target for the text input of `parq convert`. The first byte picks
// the parser: JSON Lines, CSV (with the second byte as delimiter) or the
// schema notation. Rows that parse are inferred, built into a batch and
// written and read back: the file must hold as many rows.
#include <cstdlib>
#include <string>
#include <string_view>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/schema_text.h"
#include "parq/text/text_input.h"

namespace {

using namespace parq;

void write_and_check(const text::TextType& types, const std::vector<text::TextRow>& rows) {
  if (types.children.empty()) return;
  Schema schema;
  try {
    schema = text::schema_of(types);
  } catch (const Error&) {
    return;  // names the schema cannot hold (empty, duplicates are fine)
  }
  text::BatchBuilder builder(types);
  for (const auto& r : rows) builder.add(r);
  RecordBatch batch = builder.finish();
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema);
  writer->write(batch);
  writer->close();
  auto file = FileReader::open(io::memory_input(sink->buffer().span()));
  if (file->metadata().num_rows != static_cast<int64_t>(rows.size())) std::abort();
}

void rows_json(std::string_view data) {
  std::vector<text::TextRow> rows;
  text::TypeInference inference;
  size_t pos = 0;
  while (pos < data.size() && rows.size() < 64) {
    size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    text::TextRow row;
    try {
      text::parse_json(data.substr(pos, end - pos), row);
    } catch (const Error&) {
      pos = end + 1;
      continue;
    }
    pos = end + 1;
    if (row.nodes[0].kind != text::NodeKind::kObject) continue;
    inference.add(row);
    rows.push_back(std::move(row));
  }
  write_and_check(inference.result(), rows);
}

void rows_csv(std::string_view data, char delimiter) {
  text::CsvReader csv(data, delimiter);
  std::vector<std::string_view> fields;
  try {
    while (csv.next(fields)) {
    }
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  try {
    switch (data[0] % 3) {
      case 0:
        rows_json(rest);
        break;
      case 1:
        rows_csv(rest, static_cast<char>(data[1]));
        break;
      case 2:
        parse_schema_text(rest);
        break;
    }
  } catch (const Error&) {
  }
  return 0;
}
