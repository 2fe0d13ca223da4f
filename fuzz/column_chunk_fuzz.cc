// libFuzzer target for the page reader and the decoders behind it with a
// sound footer: the input is one column chunk (page headers and payloads
// with hostile sizes, counts, encodings and CRCs), and its first bytes say
// what the footer claims about it (the column's type and nesting, the codec,
// the row and value counts, whether a dictionary page is announced). The
// chunk is wrapped in a file with that footer and read whole, rows rendered
// as canonical JSON, and read again through a filter (the selective
// decoders, skips inside pages), on one or two threads. Only parq::Error may
// come out. Whole-file targets spend most of their inputs on the footer;
// this one spends them on pages. fuzz/make_column_chunk_seeds.py writes
// its seeds: real chunks of every kind and codec behind their prefixes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/input.h"
#include "parq/schema/field.h"
#include "parq/text/row_text.h"

namespace {

using namespace parq;

// The columns a chunk may belong to, by the input's first byte;
// make_column_chunk_seeds.py writes them in this order.
const std::vector<Schema>& schemas() {
  static const std::vector<Schema> all = [] {
    std::vector<Schema> s;
    s.push_back(make_schema({Field::int32("c").required()}));
    s.push_back(make_schema({Field::int64("c")}));
    s.push_back(make_schema({Field::float64("c")}));
    s.push_back(make_schema({Field::string("c")}));
    s.push_back(make_schema({Field::fixed("c", 16)}));
    s.push_back(make_schema({Field::boolean("c")}));
    s.push_back(make_schema({Field::list("c", Field::int32("element"))}));
    s.push_back(make_schema({Field::float32("c")}));
    return s;
  }();
  return all;
}

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// PARQ_FUZZ_VERBOSE=1 prints why inputs are refused (to check that seeds
// read, and what a mutation broke).
void report(const Error& e) {
  static const bool verbose = std::getenv("PARQ_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "refused: %s\n", e.what());
}

// Reads the file whole, then again choosing rows: with a null test on its
// column (true or false in turn), which sends the rows through the
// selective decoders, or (for a column inside a list, which filters do not
// take) with two runs of rows, which skip inside pages.
void read(const std::string& file, uint8_t flags, const Schema& schema, int64_t num_rows) {
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  try {
    auto reader = FileReader::open(io::memory_input(bytes, "fuzz"));
    ReadOptions options;
    options.batch_rows = 1 + (flags >> 4) * 37;
    options.pages.max_page_bytes = 64 << 20;
    options.pages.verify_crc = flags & 0x02;
    auto source = read_batches(*reader, options);
    RecordBatch batch;
    std::string text;
    while (source->next(batch)) {
      text.clear();
      text::RowJsonWriter(batch, {}).append_rows(text, 0, std::min<int64_t>(batch.num_rows, 10));
    }
  } catch (const Error& e) {
    report(e);
  }
  try {
    auto reader = FileReader::open(io::memory_input(bytes, "fuzz"));
    ReadOptions options;
    options.batch_rows = 1 + (flags >> 3) * 11;
    options.pages.max_page_bytes = 64 << 20;
    options.threads = flags & 0x04 ? 2 : 1;
    const std::string column = schema.column(0).dotted_path();
    using filter::Expression;
    if (column.find('.') == std::string::npos && !(flags & 0x10)) {
      options.filter = flags & 0x08 ? Expression::is_null(column) : Expression::is_not_null(column);
    } else {
      const int64_t third = num_rows / 3;
      options.row_selection = {{third / 2, third}, {2 * third, 2 * third + 1 + (flags >> 5)}};
      options.has_row_selection = true;
    }
    auto source = read_batches(*reader, options);
    RecordBatch batch;
    while (source->next(batch)) {
    }
  } catch (const Error& e) {
    report(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // kind, codec, flags, num_rows, num_values.
  constexpr size_t kPrefix = 7;
  if (size < kPrefix) return 0;
  const Schema& schema = schemas()[data[0] % schemas().size()];
  const auto codec = static_cast<format::CompressionCodec>(data[1] % 8);
  const uint8_t flags = data[2];
  const int64_t num_rows = u16(data + 3);
  const std::span<const uint8_t> chunk(data + kPrefix, size - kPrefix);

  format::FileMetaData meta;
  meta.version = 2;
  meta.schema = schema.elements();
  meta.num_rows = num_rows;
  meta.created_by = "parq version 0.1.0";
  auto& group = meta.row_groups.emplace_back();
  group.num_rows = num_rows;
  group.total_byte_size = static_cast<int64_t>(chunk.size());
  auto& column = group.columns.emplace_back();
  column.file_offset = 4;
  auto& md = column.meta_data.emplace();
  md.type = schema.column(0).type.physical;
  md.encodings = {format::Encoding::PLAIN, format::Encoding::RLE, format::Encoding::RLE_DICTIONARY};
  md.path_in_schema = schema.column(0).path;
  md.codec = codec;
  md.num_values = u16(data + 5);
  md.total_compressed_size = static_cast<int64_t>(chunk.size());
  md.total_uncompressed_size = static_cast<int64_t>(chunk.size());
  md.data_page_offset = 4;
  if (flags & 0x01) md.dictionary_page_offset = 4;

  std::string file = "PAR1";
  file.append(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  std::string footer;
  format::encode_thrift(meta, footer);
  file += footer;
  put_u32(file, static_cast<uint32_t>(footer.size()));
  file += "PAR1";
  read(file, flags, schema, num_rows);
  return 0;
}
