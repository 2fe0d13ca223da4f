// ALP through the file writer and reader: FLOAT and DOUBLE columns written
// with ALP pages under every codec, v1 and v2 pages, with nulls, small
// pages and a dictionary that falls back to ALP, read back bit for bit by
// whole reads, filtered reads and row selections (which skip inside
// pages); the column chunk lists ALP; and the writer refuses ALP for types
// other than FLOAT and DOUBLE.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"

namespace parq {
namespace {

using format::CompressionCodec;
using format::Encoding;

constexpr int64_t kRows = 5000;

bool is_null(int64_t i) { return i % 7 == 3 || (i >= 1200 && i < 1500); }

// Prices mostly, some specials that become exceptions.
double double_at(int64_t i) {
  if (i % 97 == 5) return std::numeric_limits<double>::quiet_NaN();
  if (i % 89 == 1) return -0.0;
  if (i % 131 == 2) return std::numeric_limits<double>::infinity();
  if (i % 113 == 3) return 1.0 / 3.0;
  return static_cast<double>((i * 7919) % 100000) / 100.0;
}
float float_at(int64_t i) {
  if (i % 101 == 5) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>((i * 104729) % 5000) / 10.0f;
}

template <class T>
Array column(const Schema& s, const std::string& name, bool nullable, T (*value)(int64_t), int64_t rows) {
  Array a;
  a.name = name;
  a.type = s.column(static_cast<size_t>(s.find_column(name))).type;
  a.length = rows;
  std::vector<uint8_t> valid;
  for (int64_t i = 0; i < rows; ++i) {
    const bool present = !nullable || !is_null(i);
    a.values.append_value(present ? value(i) : T{});
    valid.push_back(present);
  }
  if (nullable) {
    a.validity.resize(static_cast<size_t>((rows + 7) / 8));
    std::fill(a.validity.data(), a.validity.data() + a.validity.size(), 0);
    for (int64_t i = 0; i < rows; ++i)
      if (valid[static_cast<size_t>(i)]) a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    a.null_count = static_cast<int64_t>(std::count(valid.begin(), valid.end(), 0));
  }
  return a;
}

Schema schema() { return make_schema({Field::float64("d"), Field::float64("dr").required(), Field::float32("f")}); }

RecordBatch batch(const Schema& s) {
  RecordBatch b;
  b.num_rows = kRows;
  b.columns.push_back(column<double>(s, "d", true, double_at, kRows));
  b.columns.push_back(column<double>(s, "dr", false, double_at, kRows));
  b.columns.push_back(column<float>(s, "f", true, float_at, kRows));
  return b;
}

Buffer write(const Schema& s, const WriteOptions& o) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), s, o);
  writer->write(batch(s));
  writer->close();
  return sink->take();
}

// Per column, each row's value bits, nullopt for null, from batches read
// with `options`; rows carries the file row index of each.
struct Read {
  std::vector<int64_t> rows;
  std::vector<std::vector<std::optional<uint64_t>>> columns{3};
};

Read read_back(const Buffer& bytes, ReadOptions options) {
  auto file = FileReader::open(io::memory_input(bytes.span()));
  options.row_index_column = "row";
  auto source = read_batches(*file, options);
  Read r;
  RecordBatch b;
  while (source->next(b)) {
    for (int64_t i = 0; i < b.num_rows; ++i) {
      for (size_t c = 0; c < 3; ++c) {
        const Array& a = b.columns[c];
        const bool present = a.null_count == 0 || a.validity.empty() || ((a.validity.data()[i / 8] >> (i % 8)) & 1);
        if (!present) {
          r.columns[c].push_back(std::nullopt);
        } else if (c == 2) {
          r.columns[c].push_back(std::bit_cast<uint32_t>(a.values.data_as<float>()[i]));
        } else {
          r.columns[c].push_back(std::bit_cast<uint64_t>(a.values.data_as<double>()[i]));
        }
      }
      r.rows.push_back(b.columns[3].values.data_as<int64_t>()[i]);
    }
  }
  return r;
}

void expect_rows(const Read& r, const std::string& what) {
  for (size_t k = 0; k < r.rows.size(); ++k) {
    const int64_t i = r.rows[k];
    const std::optional<uint64_t> d =
        is_null(i) ? std::nullopt : std::optional<uint64_t>(std::bit_cast<uint64_t>(double_at(i)));
    ASSERT_EQ(r.columns[0][k], d) << what << " row " << i;
    ASSERT_EQ(r.columns[1][k], std::bit_cast<uint64_t>(double_at(i))) << what << " row " << i;
    const std::optional<uint64_t> f =
        is_null(i) ? std::nullopt : std::optional<uint64_t>(std::bit_cast<uint32_t>(float_at(i)));
    ASSERT_EQ(r.columns[2][k], f) << what << " row " << i;
  }
}

bool chunk_has(const FileReader& file, size_t column, Encoding e) {
  for (const auto& rg : file.metadata().row_groups) {
    const auto& enc = rg.columns[column].meta_data->encodings;
    if (std::find(enc.begin(), enc.end(), e) != enc.end()) return true;
  }
  return false;
}

TEST(AlpFile, EveryCodecAndPageVersionReadsBack) {
  const Schema s = schema();
  const CompressionCodec codecs[] = {
      CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,  CompressionCodec::GZIP, CompressionCodec::BROTLI,
      CompressionCodec::ZSTD,         CompressionCodec::LZ4_RAW, CompressionCodec::LZ4,  CompressionCodec::LZO};
  for (CompressionCodec codec : codecs)
    for (int version : {1, 2}) {
      WriteOptions o;
      o.codec = {codec, compression::kDefaultLevel};
      o.page_version = version;
      o.dictionary = false;
      o.page_rows = 700;  // pages end inside vectors
      o.min_compression_saving = 0;
      for (const char* c : {"d", "dr", "f"}) o.columns[c].encoding = Encoding::ALP;
      const Buffer bytes = write(s, o);
      const std::string what = std::string(format::to_string(codec)) + " v" + std::to_string(version);
      auto file = FileReader::open(io::memory_input(bytes.span()));
      for (size_t c = 0; c < 3; ++c) {
        EXPECT_TRUE(chunk_has(*file, c, Encoding::ALP)) << what << " column " << c;
        EXPECT_FALSE(chunk_has(*file, c, Encoding::PLAIN)) << what << " column " << c;
      }
      const Read all = read_back(bytes, {});
      ASSERT_EQ(all.rows.size(), static_cast<size_t>(kRows)) << what;
      expect_rows(all, what);
      ReadOptions small;
      small.batch_rows = 333;
      expect_rows(read_back(bytes, small), what + " batches of 333");
    }
}

TEST(AlpFile, DictionaryFallsBackToAlp) {
  const Schema s = schema();
  WriteOptions o;
  o.dictionary_limits.max_entries = 50;  // full within the first page
  o.page_rows = 1000;
  for (const char* c : {"d", "dr", "f"}) {
    o.columns[c].encoding = Encoding::ALP;
    o.columns[c].dictionary = true;
  }
  const Buffer bytes = write(s, o);
  auto file = FileReader::open(io::memory_input(bytes.span()));
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_TRUE(chunk_has(*file, c, Encoding::RLE_DICTIONARY)) << c;
    EXPECT_TRUE(chunk_has(*file, c, Encoding::ALP)) << c;
  }
  expect_rows(read_back(bytes, {}), "fallback");
}

TEST(AlpFile, FilteredAndSelectedReadsSkipInsidePages) {
  const Schema s = schema();
  WriteOptions o;
  o.dictionary = false;
  o.page_rows = 2500;
  for (const char* c : {"d", "dr", "f"}) o.columns[c].encoding = Encoding::ALP;
  const Buffer bytes = write(s, o);

  ReadOptions selected;
  selected.has_row_selection = true;
  selected.row_selection = {{3, 10}, {1023, 1030}, {2047, 3100}, {4999, 5000}};
  const Read sel = read_back(bytes, selected);
  ASSERT_EQ(sel.rows.size(), 7u + 7u + 1053u + 1u);
  EXPECT_EQ(sel.rows.front(), 3);
  EXPECT_EQ(sel.rows.back(), 4999);
  expect_rows(sel, "row selection");

  ReadOptions filtered;
  filtered.filter = filter::Expression::compare("dr", filter::CompareOp::kLess, filter::Literal::number("10"));
  const Read f = read_back(bytes, filtered);
  size_t want = 0;
  for (int64_t i = 0; i < kRows; ++i) want += double_at(i) < 10;
  ASSERT_EQ(f.rows.size(), want);
  ASSERT_GT(want, 0u);
  expect_rows(f, "filter");

  ReadOptions offset;
  offset.offset = 1500;
  offset.limit = 1000;
  const Read o2 = read_back(bytes, offset);
  ASSERT_EQ(o2.rows.size(), 1000u);
  EXPECT_EQ(o2.rows.front(), 1500);
  expect_rows(o2, "offset");
}

TEST(AlpFile, DecimalColumnIsSmallerThanPlain) {
  const Schema s = make_schema({Field::float64("d").required()});
  RecordBatch b;
  b.num_rows = 100000;
  b.columns.push_back(column<double>(
      s, "d", false, +[](int64_t i) { return static_cast<double>((i * 7919) % 100000) / 100.0; }, b.num_rows));
  auto size_with = [&](Encoding e) {
    WriteOptions o;
    o.codec = {CompressionCodec::UNCOMPRESSED, compression::kDefaultLevel};
    o.dictionary = false;
    o.columns["d"].encoding = e;
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), s, o);
    writer->write(b);
    writer->close();
    return sink->take().size();
  };
  const size_t plain = size_with(Encoding::PLAIN), alp = size_with(Encoding::ALP);
  EXPECT_LT(alp * 3, plain) << alp << " vs " << plain;
}

TEST(AlpFile, OnlyFloatAndDoubleColumns) {
  const Schema s = make_schema({Field::int64("i")});
  WriteOptions o;
  o.columns["i"].encoding = Encoding::ALP;
  try {
    FileWriter::open(std::make_unique<io::BufferOutput>(), s, o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ALP does not apply to INT64"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_encoding("ALP"), Encoding::ALP);
  EXPECT_EQ(parse_encoding("alp"), Encoding::ALP);
}

}  // namespace
}  // namespace parq
