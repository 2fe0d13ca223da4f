// INT96 timestamps under ColumnOrder INT96_TIMESTAMP_ORDER: the writer
// names the order and writes chronological bounds (chunk statistics and
// column index, normalized instants); the reader prunes with them, and ignores them when the
// file's order for the column is anything else, as parquet.thrift requires.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/filter/expression.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"

namespace parq {
namespace {

constexpr int64_t kRows = 4000;
constexpr int64_t kRowsPerGroup = 1000;
constexpr int64_t kRowsPerPage = 100;
constexpr int32_t kEpochJulianDay = 2440588;
constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;

std::string int96(int32_t julian_day, int64_t nanos) {
  std::string out(12, '\0');
  std::memcpy(out.data(), &nanos, 8);
  std::memcpy(out.data() + 8, &julian_day, 4);
  return out;
}

// Row i: day i / 10 after the epoch, at (i % 10) hours, written in a
// scrambled order within each page so that bounds are not simply the
// first and last values.
std::string value_of_row(int64_t i) {
  return int96(kEpochJulianDay + static_cast<int32_t>(i / 10), (i % 10) * 3600LL * 1000 * 1000 * 1000);
}

int64_t row_at(int64_t position) {
  const int64_t page = position / kRowsPerPage, within = position % kRowsPerPage;
  return page * kRowsPerPage + (within * 7) % kRowsPerPage;  // 7 is coprime to the page size
}

std::string write_file() {
  Schema schema = make_schema({Field::int96("ts").required()});
  Array ts;
  ts.name = "ts";
  ts.type = schema.column(0).type;
  ts.length = kRows;
  for (int64_t p = 0; p < kRows; ++p) ts.values.append(value_of_row(row_at(p)));
  RecordBatch batch;
  batch.num_rows = kRows;
  batch.columns.push_back(std::move(ts));
  WriteOptions options;
  options.row_group_rows = kRowsPerGroup;
  options.page_rows = kRowsPerPage;
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return std::string(sink->take().view());
}

std::unique_ptr<FileReader> open(const std::string& file) {
  return FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(file.data()), file.size()}));
}

// The file with its footer's column order for the column replaced.
std::string with_order(const std::string& file, const format::ColumnOrder& order) {
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  const size_t start = file.size() - 8 - length;
  format::FileMetaData meta;
  format::decode_thrift(reinterpret_cast<const uint8_t*>(file.data()) + start, length, meta);
  (*meta.column_orders)[0] = order;
  std::string footer;
  format::encode_thrift(meta, footer);
  std::string out = file.substr(0, start) + footer;
  const auto n = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&n), 4);
  return out + "PAR1";
}

// Rows read with the filter, and the read's statistics.
int64_t count_rows(const std::string& file, const std::string& where, ReadStats& stats) {
  auto reader = open(file);
  ReadOptions options;
  options.filter = filter::parse_filter(where);
  options.stats = &stats;
  auto source = read_batches(*reader, options);
  int64_t rows = 0;
  RecordBatch batch;
  while (source->next(batch)) rows += batch.num_rows;
  return rows;
}

TEST(Int96Order, WriterNamesTheOrderAndWritesChronologicalBounds) {
  const std::string file = write_file();
  auto reader = open(file);
  const format::FileMetaData& meta = reader->metadata();
  ASSERT_TRUE(meta.column_orders.has_value());
  EXPECT_TRUE((*meta.column_orders)[0].INT96_TIMESTAMP_ORDER.has_value());
  EXPECT_FALSE((*meta.column_orders)[0].TYPE_ORDER.has_value());
  ASSERT_EQ(meta.row_groups.size(), static_cast<size_t>(kRows / kRowsPerGroup));
  for (size_t g = 0; g < meta.row_groups.size(); ++g) {
    const auto& stats = meta.row_groups[g].columns[0].meta_data->statistics;
    ASSERT_TRUE(stats.has_value());
    const int64_t first = static_cast<int64_t>(g) * kRowsPerGroup;
    EXPECT_EQ(stats->min_value, value_of_row(first)) << "row group " << g;
    EXPECT_EQ(stats->max_value, value_of_row(first + kRowsPerGroup - 1)) << "row group " << g;
    // The deprecated fields were signed comparisons INT96 never had.
    EXPECT_FALSE(stats->min.has_value());
  }
}

TEST(Int96Order, BoundsAreTheLeastAndGreatestInstantsWrittenNormalized) {
  // A later day with fewer nanoseconds is still later, and negative
  // nanoseconds count back from the day. Nanoseconds past a day (which
  // some writers leave) move the instant: the bounds hold every instant,
  // with their nanoseconds inside the day.
  Schema schema = make_schema({Field::int96("ts").required()});
  const std::vector<std::string> values = {int96(2450000, 5), int96(2450001, 0), int96(2450000, -7),
                                           int96(-3, kNanosPerDay), int96(2449990, 20 * kNanosPerDay)};
  Array ts;
  ts.name = "ts";
  ts.type = schema.column(0).type;
  ts.length = static_cast<int64_t>(values.size());
  for (const auto& v : values) ts.values.append(v);
  RecordBatch batch;
  batch.num_rows = ts.length;
  batch.columns.push_back(std::move(ts));
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, {});
  writer->write(batch);
  writer->close();
  const std::string file(sink->take().view());
  auto reader = open(file);
  const auto& stats = reader->metadata().row_groups[0].columns[0].meta_data->statistics;
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(stats->min_value, int96(-2, 0));
  EXPECT_EQ(stats->max_value, int96(2450010, 0));
  // A filter between the day-ordered maximum and the instant one keeps the
  // row whose instant is later, pruning or not.
  ReadStats read;
  EXPECT_EQ(count_rows(file, "ts > TIMESTAMP '1995-10-10 00:00:00'", read), 1);
}

TEST(Int96Order, FiltersPruneRowGroupsAndPagesUnderTheOrderOnly) {
  const std::string file = write_file();
  // Rows 2500 .. 2519: day 250 and 251 after the epoch.
  const std::string where = "ts >= TIMESTAMP '1970-09-08 00:00:00' AND ts < TIMESTAMP '1970-09-10 00:00:00'";
  ReadStats pruned;
  EXPECT_EQ(count_rows(file, where, pruned), 20);
  EXPECT_EQ(pruned.row_groups_pruned_by_statistics, 3);
  EXPECT_GT(pruned.pages_pruned_by_index, 0);

  format::ColumnOrder type_order;
  type_order.TYPE_ORDER.emplace();
  format::ColumnOrder none;  // an order this reader does not know
  for (const format::ColumnOrder& order : {type_order, none}) {
    ReadStats unpruned;
    EXPECT_EQ(count_rows(with_order(file, order), where, unpruned), 20);
    EXPECT_EQ(unpruned.row_groups_pruned_by_statistics, 0);
    EXPECT_EQ(unpruned.pages_pruned_by_index, 0);
  }
}

}  // namespace
}  // namespace parq
