// Files from the wild that other readers accept, each built here: a root
// schema element marked REPEATED and carrying a physical type, footer lists
// whose header gives element type 0, and TIME values outside 0 to 24 hours
// (docs/FORMAT.md), column chunks that disagree with their row group's row
// count. Each reads back the rows it was written with, or the whole ones.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "json_batch.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/file/row_group_copy.h"
#include "parq/filter/expression.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

std::string write_bytes(const Schema& schema, const RecordBatch& batch) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, {});
  writer->write(batch);
  writer->close();
  const Buffer b = sink->take();
  return std::string(b.view());
}

// The file's footer (its encoded FileMetaData) and what comes before it.
struct Split {
  std::string body;
  std::string footer;
};

Split split(const std::string& file) {
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  const size_t start = file.size() - 8 - length;
  return {file.substr(0, start), file.substr(start, length)};
}

std::string join(const Split& s) {
  std::string out = s.body + s.footer;
  const auto length = static_cast<uint32_t>(s.footer.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  return out + "PAR1";
}

std::string rows_of(const std::string& file, const ReadOptions& options = {}) {
  auto reader = FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(file.data()), file.size()}));
  auto source = read_batches(*reader, options);
  std::string out;
  RecordBatch batch;
  while (source->next(batch)) text::append_rows_jsonl(out, batch, 0, batch.num_rows);
  return out;
}

const char* kSchema =
    "message m { required int64 id; optional binary s (STRING); optional group l (LIST) {"
    " repeated group list { optional int32 element; } } }";
const std::vector<std::string> kRows = {R"({"id":1,"s":"a","l":[1,null]})", R"({"id":2,"s":null,"l":[]})",
                                        R"({"id":3,"s":"c","l":null})"};

std::string sample_file() {
  const Schema schema = parse_schema_text(kSchema);
  return write_bytes(schema, testing::batch_from_json(schema, kRows));
}

std::string expected_rows() {
  std::string out;
  for (const auto& r : kRows) out += r + "\n";
  return out;
}

TEST(WildFiles, ARootMarkedRepeatedWithAPhysicalTypeIsTheRootGroup) {
  const std::string plain = sample_file();
  ASSERT_EQ(rows_of(plain), expected_rows());
  Split parts = split(plain);
  format::FileMetaData metadata;
  format::decode_thrift(reinterpret_cast<const uint8_t*>(parts.footer.data()), parts.footer.size(), metadata);
  metadata.schema[0].repetition_type = format::FieldRepetitionType::REPEATED;
  metadata.schema[0].type = format::Type::INT32;
  parts.footer.clear();
  format::encode_thrift(metadata, parts.footer);
  const std::string odd = join(parts);
  EXPECT_EQ(rows_of(odd), expected_rows());
  auto reader = FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(odd.data()), odd.size()}));
  EXPECT_EQ(reader->schema().column(0).max_definition_level, 0);
  EXPECT_EQ(reader->schema().column(2).max_repetition_level, 1);
}

TEST(WildFiles, FooterListsWithElementTypeZeroRead) {
  const std::string plain = sample_file();
  Split parts = split(plain);
  // FileMetaData starts with its version (field 1, i32) and then the schema
  // list (field 2): a short list header of up to 14 structs, type 12.
  ASSERT_EQ(parts.footer[0], '\x15');
  ASSERT_EQ(parts.footer[2], '\x19');
  const auto header = static_cast<uint8_t>(parts.footer[3]);
  ASSERT_EQ(header & 0x0F, 0x0C);
  parts.footer[3] = static_cast<char>(header & 0xF0);
  EXPECT_EQ(rows_of(join(parts)), expected_rows());
}

// The file with its footer changed by `edit`.
template <class Edit>
std::string with_footer(const std::string& file, Edit edit) {
  Split parts = split(file);
  format::FileMetaData metadata;
  format::decode_thrift(reinterpret_cast<const uint8_t*>(parts.footer.data()), parts.footer.size(), metadata);
  edit(metadata);
  parts.footer.clear();
  format::encode_thrift(metadata, parts.footer);
  return join(parts);
}

TEST(WildFiles, ChunksDisagreeingWithTheirRowGroupReadTheirWholeRows) {
  const std::string plain = sample_file();
  auto read = [](const std::string& file, ReadStats& stats) {
    ReadOptions options;
    options.stats = &stats;
    return rows_of(file, options);
  };
  // A row group claiming more rows than its chunks hold: the rows every
  // chunk has are read, and the rest is counted as missing.
  const std::string claims_more = with_footer(plain, [](format::FileMetaData& m) {
    m.row_groups[0].num_rows = 5;
    m.num_rows = 5;
  });
  ReadStats stats;
  EXPECT_EQ(read(claims_more, stats), expected_rows());
  EXPECT_EQ(stats.rows_missing_from_chunks, 2);
  EXPECT_NE(stats.to_string().find("2 missing from short column chunks"), std::string::npos) << stats.to_string();

  // One chunk shorter than the others: reading stops where it does, for
  // every projection (the rows past it are not whole).
  const std::string one_short = with_footer(plain, [](format::FileMetaData& m) {
    m.row_groups[0].columns[1].meta_data->num_values = 2;  // s: 3 values written
  });
  for (const std::vector<std::string>& columns : std::vector<std::vector<std::string>>{{}, {"id"}, {"l"}}) {
    ReadOptions options;
    options.columns = columns;
    ReadStats s;
    options.stats = &s;
    auto reader =
        FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(one_short.data()), one_short.size()}));
    auto source = read_batches(*reader, options);
    int64_t rows = 0;
    RecordBatch batch;
    while (source->next(batch)) rows += batch.num_rows;
    EXPECT_EQ(rows, 2);
    EXPECT_EQ(s.rows_missing_from_chunks, 1);
    const ReadPlan plan = plan_read(*reader, options);
    ASSERT_FALSE(plan.notes.empty());
    EXPECT_NE(plan.notes[0].find("column s holds 2 values where the row group has 3 rows"), std::string::npos)
        << plan.notes[0];
  }
  ReadStats short_stats;
  EXPECT_EQ(read(one_short, short_stats), expected_rows().substr(0, expected_rows().find(kRows[2])));

  // Chunks holding more than the row group claims: the claimed rows.
  const std::string claims_fewer = with_footer(plain, [](format::FileMetaData& m) {
    m.row_groups[0].num_rows = 2;
    m.num_rows = 2;
  });
  ReadStats fewer;
  EXPECT_EQ(read(claims_fewer, fewer), expected_rows().substr(0, expected_rows().find(kRows[2])));
  EXPECT_EQ(fewer.rows_missing_from_chunks, 0);
}

TEST(WildFiles, CopyingRowsOfShortChunksIsAnError) {
  // row_group_copy_fuzz: a reader reads what short chunks hold and counts
  // the rest as missing, but rows copied into another file (split, merge)
  // must all be there or the copy fails.
  const std::string claims_more = with_footer(sample_file(), [](format::FileMetaData& m) {
    m.row_groups[0].num_rows = 5;
    m.num_rows = 5;
  });
  auto reader =
      FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(claims_more.data()), claims_more.size()}));
  auto writer = FileWriter::open(std::make_unique<io::BufferOutput>(), reader->schema(), WriteOptions{});
  try {
    copy_rows(*reader, {1, 5}, *writer);
    ADD_FAILURE() << "copied";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("row group 0 gave 2 of rows 1 to 5"), std::string::npos) << e.what();
  }
}
TEST(WildFiles, TimesOutsideOneDayReadAsSignedDurations) {
  const Schema schema = parse_schema_text("message m { required int32 t (TIME(MILLIS,true)); }");
  RecordBatch batch;
  Array t;
  t.name = "t";
  t.type = schema.column(0).type;
  for (int32_t v : {90061001, 86400000, -1, 3600000}) t.values.append_value(v);
  t.length = batch.num_rows = 4;
  batch.columns.push_back(std::move(t));
  const std::string file = write_bytes(schema, batch);
  EXPECT_EQ(
      rows_of(file),
      "{\"t\":\"25:01:01.001\"}\n{\"t\":\"24:00:00.000\"}\n{\"t\":\"-00:00:00.001\"}\n{\"t\":\"01:00:00.000\"}\n");
  ReadOptions late;
  late.filter = filter::parse_filter("t >= TIME '23:00:00'");
  EXPECT_EQ(rows_of(file, late), "{\"t\":\"25:01:01.001\"}\n{\"t\":\"24:00:00.000\"}\n");
  ReadOptions negative;
  negative.filter = filter::parse_filter("t < TIME '00:00:00'");
  EXPECT_EQ(rows_of(file, negative), "{\"t\":\"-00:00:00.001\"}\n");
}

}  // namespace
}  // namespace parq
