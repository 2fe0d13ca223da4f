// libFuzzer target for the writer: the input chooses a schema (nesting,
// nulls, every type convert can fill), rows of values for it and the writer's
// options (codec, page version, dictionary, encodings per column, tiny row
// groups and pages, statistics, page index, bloom filters); the rows are
// written to memory, read back (any batch size, one or two threads) and
// must render exactly as they went in. A writer that rejects its options
// (an encoding a column's type does not allow) is retried without them;
// any other failure of the round trip aborts.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/input.h"
#include "parq/io/output.h"
#include "parq/text/row_text.h"
#include "parq/text/text_input.h"

namespace {

using parq::text::TextType;

// Hands out the input's bytes as small choices; zeros once it is used up,
// so every input decodes to some case.
class Choices {
 public:
  Choices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  unsigned below(unsigned n) { return n <= 1 ? 0 : byte() % n; }
  bool flip() { return byte() & 1; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return v;
  }
  bool done() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

TextType make_type(Choices& in, const std::string& name, int depth) {
  TextType t;
  t.name = name;
  t.required = in.below(4) == 0;
  const unsigned kinds = depth >= 3 ? 9 : 12;
  switch (in.below(kinds)) {
    case 0:
      t.kind = TextType::kBool;
      break;
    case 1:
      t.kind = TextType::kInt32;
      break;
    case 2:
      t.kind = TextType::kInt64;
      break;
    case 3:
      t.kind = TextType::kDouble;
      break;
    case 4:
      t.kind = TextType::kFloat;
      break;
    case 5:
      t.kind = TextType::kDecimal;
      // Text fills decimals stored as INT32 or INT64 (precision up to 18),
      // the storage width in `unit` as Field::decimal picks it.
      t.precision = 1 + static_cast<int32_t>(in.below(18));
      t.scale = static_cast<int32_t>(in.below(static_cast<unsigned>(t.precision) + 1));
      t.unit = t.precision <= 9 ? 0 : 1;
      break;
    case 6:
      t.kind = TextType::kDate;
      break;
    case 7:
      t.kind = TextType::kTimestamp;
      t.unit = static_cast<int>(in.below(3));
      t.utc = in.flip();
      break;
    case 8:
      t.kind = TextType::kString;
      break;
    case 9: {
      t.kind = TextType::kStruct;
      const unsigned n = 1 + in.below(3);
      for (unsigned i = 0; i < n; ++i) t.children.push_back(make_type(in, "f" + std::to_string(i), depth + 1));
      break;
    }
    case 10:
      t.kind = TextType::kList;
      t.children.push_back(make_type(in, "element", depth + 1));
      break;
    default: {
      t.kind = TextType::kMap;
      TextType key = make_type(in, "key", 3);
      key.required = true;
      t.children.push_back(key);
      t.children.push_back(make_type(in, "value", depth + 1));
      break;
    }
  }
  return t;
}

void append_digits(std::string& out, Choices& in, unsigned max_digits) {
  const unsigned n = 1 + in.below(max_digits);
  out += static_cast<char>('1' + in.below(9));
  for (unsigned i = 1; i < n; ++i) out += static_cast<char>('0' + in.below(10));
}

void append_two(std::string& out, unsigned v) {
  out += static_cast<char>('0' + v / 10);
  out += static_cast<char>('0' + v % 10);
}

// One JSON value of type `t` (or null where the type allows it).
void append_value(std::string& out, const TextType& t, Choices& in) {
  if (!t.required && in.below(5) == 0) {
    out += "null";
    return;
  }
  switch (t.kind) {
    case TextType::kBool:
      out += in.flip() ? "true" : "false";
      return;
    case TextType::kInt32:
      out += std::to_string(static_cast<int32_t>(in.u64() >> in.below(64)));
      return;
    case TextType::kInt64:
      out += std::to_string(static_cast<int64_t>(in.u64() >> in.below(64)));
      return;
    case TextType::kDouble:
    case TextType::kFloat: {
      // Values that survive the column's precision exactly: small integers
      // and binary fractions.
      const int32_t whole = static_cast<int16_t>(in.u64());
      out += std::to_string(whole);
      if (in.flip()) out += in.flip() ? ".5" : ".25";
      return;
    }
    case TextType::kDecimal: {
      out += '"';
      if (in.flip()) out += '-';
      const int32_t int_digits = t.precision - t.scale;
      if (int_digits > 0) {
        append_digits(out, in, static_cast<unsigned>(int_digits));
      } else {
        out += '0';
      }
      if (t.scale > 0) {
        out += '.';
        for (int32_t i = 0; i < t.scale; ++i) out += static_cast<char>('0' + in.below(10));
      }
      out += '"';
      return;
    }
    case TextType::kDate:
      out += "\"" + std::to_string(1900 + in.below(300)) + "-";
      append_two(out, 1 + in.below(12));
      out += '-';
      append_two(out, 1 + in.below(28));
      out += '"';
      return;
    case TextType::kTimestamp:
      out += "\"" + std::to_string(1970 + in.below(200)) + "-";
      append_two(out, 1 + in.below(12));
      out += '-';
      append_two(out, 1 + in.below(28));
      out += 'T';
      append_two(out, in.below(24));
      out += ':';
      append_two(out, in.below(60));
      out += ':';
      append_two(out, in.below(60));
      out += '.';
      for (int i = 0; i < 3 * (t.unit + 1); ++i) out += static_cast<char>('0' + in.below(10));
      if (t.utc) out += 'Z';
      out += '"';
      return;
    case TextType::kString: {
      // Short texts from a small alphabet repeat (dictionaries) and reach
      // the escapes and multi-byte UTF-8.
      static const char* const kPieces[] = {"a",   "b",        "xyz",          " ", "\\\"", "\\\\",
                                            "\\n", "\xc3\xa9", "\xe2\x82\xac", "0"};
      out += '"';
      const unsigned n = in.below(12);
      for (unsigned i = 0; i < n; ++i) out += kPieces[in.below(10)];
      out += '"';
      return;
    }
    case TextType::kStruct:
      out += '{';
      for (size_t i = 0; i < t.children.size(); ++i) {
        if (i) out += ',';
        out += "\"" + t.children[i].name + "\":";
        append_value(out, t.children[i], in);
      }
      out += '}';
      return;
    case TextType::kList: {
      out += '[';
      const unsigned n = in.below(4);
      for (unsigned i = 0; i < n; ++i) {
        if (i) out += ',';
        append_value(out, t.children[0], in);
      }
      out += ']';
      return;
    }
    case TextType::kMap: {
      // Keys as strings of their value's text; distinct by position.
      out += '{';
      const unsigned n = in.below(3);
      for (unsigned i = 0; i < n; ++i) {
        if (i) out += ',';
        std::string key;
        append_value(key, t.children[0], in);
        if (key.front() == '"') key = key.substr(1, key.size() - 2);
        out += "\"" + key + "\":";
        append_value(out, t.children[1], in);
      }
      out += '}';
      return;
    }
    default:
      out += "null";
  }
}

parq::WriteOptions make_options(Choices& in, const parq::Schema& schema) {
  using parq::format::CompressionCodec;
  using parq::format::Encoding;
  static const CompressionCodec kCodecs[] = {
      CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP,    CompressionCodec::BROTLI,
      CompressionCodec::ZSTD,         CompressionCodec::LZ4,    CompressionCodec::LZ4_RAW, CompressionCodec::LZO};
  static const Encoding kEncodings[] = {Encoding::PLAIN,
                                        Encoding::RLE,
                                        Encoding::DELTA_BINARY_PACKED,
                                        Encoding::DELTA_LENGTH_BYTE_ARRAY,
                                        Encoding::DELTA_BYTE_ARRAY,
                                        Encoding::BYTE_STREAM_SPLIT};
  parq::WriteOptions o;
  o.codec.id = kCodecs[in.below(8)];
  o.page_version = 1 + static_cast<int>(in.below(2));
  o.dictionary = in.flip();
  o.dictionary_limits.max_bytes = 16 + in.below(512);
  o.row_group_rows = 1 + in.below(64);
  o.page_rows = 1 + in.below(32);
  o.page_bytes = 64 + in.below(4096);
  o.statistics = in.flip();
  o.page_index = in.flip();
  o.page_crc = in.flip();
  o.max_statistics_bytes = 1 + in.below(16);
  o.min_compression_saving = in.flip() ? 0.0 : 0.5;
  o.threads = 1 + static_cast<int>(in.below(2));
  for (size_t c = 0; c < schema.num_columns(); ++c) {
    const unsigned pick = in.below(10);
    if (pick >= 8) continue;
    parq::ColumnWriteOptions col;
    if (pick < 6) col.encoding = kEncodings[pick];
    // The spec defines no bloom filter for BOOLEAN, and the writer refuses one.
    if (pick == 6 && schema.column(c).type.physical != parq::format::Type::BOOLEAN)
      col.bloom_filter = parq::BloomFilterOptions{};
    if (pick == 7) col.codec = parq::compression::CodecChoice{kCodecs[in.below(8)], parq::compression::kDefaultLevel};
    o.columns[schema.column(c).dotted_path()] = col;
  }
  return o;
}

std::string render(const parq::RecordBatch& batch) {
  std::string out;
  parq::text::append_rows_jsonl(out, batch, 0, batch.num_rows);
  return out;
}

void fail(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "%s\n--- written\n%s\n--- read\n%s\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Choices in(data, size);
  TextType root;
  root.kind = TextType::kStruct;
  const unsigned columns = 1 + in.below(5);
  for (unsigned i = 0; i < columns; ++i) root.children.push_back(make_type(in, "c" + std::to_string(i), 0));
  const parq::Schema schema = parq::text::schema_of(root);

  // The rows, through the same JSON path `parq convert` takes.
  parq::text::BatchBuilder builder(root);
  parq::text::TextRow row;
  const unsigned rows = in.below(200);
  for (unsigned r = 0; r < rows; ++r) {
    std::string line = "{";
    for (size_t i = 0; i < root.children.size(); ++i) {
      if (i) line += ',';
      line += "\"" + root.children[i].name + "\":";
      append_value(line, root.children[i], in);
    }
    line += '}';
    try {
      parq::text::parse_json(line, row);
      builder.add(row);
    } catch (const parq::Error& e) {
      fail(("a generated row does not convert: " + std::string(e.what())).c_str(), line, "");
    }
  }
  const parq::RecordBatch batch = builder.finish();
  const std::string expected = render(batch);

  parq::WriteOptions options = make_options(in, schema);
  parq::Buffer bytes;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto out = std::make_unique<parq::io::BufferOutput>();
    parq::io::BufferOutput* sink = out.get();
    try {
      auto writer = parq::FileWriter::open(std::move(out), schema, options);
      writer->write(batch);
      writer->close();
      bytes = sink->take();
      break;
    } catch (const parq::Error& e) {
      if (attempt == 1 || e.kind() != parq::ErrorKind::kInvalidArgument) fail(e.what(), expected, "");
      for (auto& [path, col] : options.columns) col.encoding.reset();
    }
  }

  parq::ReadOptions read;
  read.batch_rows = 1 + in.below(100);
  read.threads = 1 + static_cast<int>(in.below(2));
  std::string got;
  try {
    auto file = parq::FileReader::open(
        parq::io::buffer_input(std::vector<uint8_t>(bytes.data(), bytes.data() + bytes.size()), "written"));
    auto batches = parq::read_batches(*file, read);
    parq::RecordBatch b;
    while (batches->next(b)) got += render(b);
  } catch (const parq::Error& e) {
    fail(("the written file does not read back: " + std::string(e.what())).c_str(), expected, got);
  }
  if (got != expected) fail("the rows read back differ", expected, got);
  return 0;
}
