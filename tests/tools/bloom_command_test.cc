// `parq bloom`: values typed as `parq cat` prints them (integers, strings,
// dates, decimals, timestamps, UUIDs) are found in the filters of a file
// written with them, and values not written are reported absent; chunks
// without a filter say so; bad values and options exit 2 naming the option;
// a damaged filter exits 1 naming the column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/schema/field.h"
#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class BloomCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() / ("parq-bloom-" + std::to_string(::getpid()) + ".parquet");
    Schema schema = make_schema({Field::int64("id").required(), Field::string("name").required(),
                                 Field::date("day").required(), Field::decimal("price", 9, 2).required(),
                                 Field::timestamp("seen", TimeUnitKind::kMicros, false).required(),
                                 Field::uuid("key").required(), Field::int32("plain").required()});
    RecordBatch batch;
    batch.num_rows = 3;
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      Array a;
      a.name = schema.column(c).path.back();
      a.type = schema.column(c).type;
      a.length = 3;
      batch.columns.push_back(std::move(a));
    }
    const int64_t ids[] = {10, 20, 30};
    const char* names[] = {"alpha", "beta", "gamma"};
    const int32_t days[] = {18262, 18263, 0};               // 2020-01-01, 2020-01-02, 1970-01-01
    const int32_t prices[] = {1250, -5, 99999};             // 12.50, -0.05, 999.99
    const int64_t seen[] = {1580551200000000, 0, 1000000};  // 2020-02-01T10:00:00, epoch, +1 s
    batch.columns[1].offsets.append_value<int32_t>(0);
    for (int i = 0; i < 3; ++i) {
      batch.columns[0].values.append_value(ids[i]);
      batch.columns[1].values.append(names[i]);
      batch.columns[1].offsets.append_value(static_cast<int32_t>(batch.columns[1].values.size()));
      batch.columns[2].values.append_value(days[i]);
      batch.columns[3].values.append_value(prices[i]);
      batch.columns[4].values.append_value(seen[i]);
      uint8_t key[16];
      for (int b = 0; b < 16; ++b) key[b] = static_cast<uint8_t>(i * 16 + b);
      batch.columns[5].values.append(key, sizeof key);
      batch.columns[6].values.append_value(ids[i]);
    }
    WriteOptions options;
    for (const char* c : {"id", "name", "day", "price", "seen", "key"})
      options.columns[c].bloom_filter = BloomFilterOptions{};
    auto writer = FileWriter::open(path_.string(), schema, options);
    writer->write(batch);
    writer->close();
  }
  void TearDown() override { fs::remove(path_); }

  std::string ask(const std::string& column, std::initializer_list<const char*> values) {
    std::vector<std::string> args = {"bloom", path_.string(), "--column", column};
    for (const char* v : values) {
      args.push_back("--value");
      args.push_back(v);
    }
    CommandResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }

  fs::path path_;
};

TEST_F(BloomCommand, ValuesAreConvertedToTheColumnsType) {
  EXPECT_EQ(ask("id", {"20", "21"}),
            "row group 0, column id: bloom filter of 32 bytes\n  20: might be present\n  21: definitely absent\n");
  EXPECT_THAT(ask("name", {"gamma"}), HasSubstr("  gamma: might be present\n"));
  EXPECT_THAT(ask("name", {"delta"}), HasSubstr("  delta: definitely absent\n"));
  std::string days = ask("day", {"2020-01-02", "1970-01-01", "2020-01-03"});
  EXPECT_THAT(days, HasSubstr("2020-01-02: might be present"));
  EXPECT_THAT(days, HasSubstr("1970-01-01: might be present"));
  EXPECT_THAT(days, HasSubstr("2020-01-03: definitely absent"));
  std::string prices = ask("price", {"12.50", "-0.05", "999.99", "12.51"});
  EXPECT_THAT(prices, HasSubstr("12.50: might be present"));
  EXPECT_THAT(prices, HasSubstr("-0.05: might be present"));
  EXPECT_THAT(prices, HasSubstr("999.99: might be present"));
  EXPECT_THAT(prices, HasSubstr("12.51: definitely absent"));
  std::string seen = ask("seen", {"2020-02-01T10:00:00", "1970-01-01T00:00:01", "2020-02-01T10:00:01"});
  EXPECT_THAT(seen, HasSubstr("2020-02-01T10:00:00: might be present"));
  EXPECT_THAT(seen, HasSubstr("1970-01-01T00:00:01: might be present"));
  EXPECT_THAT(seen, HasSubstr("2020-02-01T10:00:01: definitely absent"));
  std::string keys = ask("key", {"10111213-1415-1617-1819-1a1b1c1d1e1f", "10111213-1415-1617-1819-1a1b1c1d1e10"});
  EXPECT_THAT(keys, HasSubstr("1e1f: might be present"));
  EXPECT_THAT(keys, HasSubstr("1e10: definitely absent"));
  EXPECT_EQ(ask("plain", {"10"}), "row group 0, column plain: no bloom filter\n");
}

TEST_F(BloomCommand, CorpusFilterWithoutLength) {
  CommandResult r = run_tool({"bloom", (corpus_dir() / "data/data_index_bloom_encoding_stats.parquet").string(),
                              "--column", "String", "--value", "the lazy", "--value", "nope", "--row-group", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "row group 0, column String: bloom filter of 1024 bytes\n  the lazy: might be present\n"
            "  nope: definitely absent\n");
}

TEST_F(BloomCommand, UsageErrorsNameTheOption) {
  const std::string f = path_.string();
  for (const auto& [args, option] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"bloom", f, "--value", "1"}, "--column"},
           {{"bloom", f, "--column", "id"}, "--value"},
           {{"bloom", f, "--column", "nope", "--value", "1"}, "--column"},
           {{"bloom", f, "--column", "id", "--value", "abc"}, "--value 'abc'"},
           {{"bloom", f, "--column", "day", "--value", "2020-13-01"}, "--value '2020-13-01'"},
           {{"bloom", f, "--column", "price", "--value", "1.234"}, "--value '1.234'"},
           {{"bloom", f, "--column", "id", "--value", "1", "--row-group", "1"}, "--row-group"}}) {
    CommandResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(option));
  }
  CommandResult help = run_tool({"bloom", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("usage: parq bloom FILE... --column C --value V"));
}

TEST_F(BloomCommand, DamagedFilterFailsNamingTheColumn) {
  auto file = FileReader::open(path_.string());
  const auto& md = *file->metadata().row_groups[0].columns[1].meta_data;
  ASSERT_TRUE(md.bloom_filter_offset.has_value());
  auto bytes = read_file_bytes(path_);
  std::fill_n(bytes.begin() + *md.bloom_filter_offset, 4, uint8_t{0xff});
  file.reset();
  std::ofstream(path_, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  CommandResult r = run_tool({"bloom", path_.string(), "--column", "name", "--value", "alpha"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("column name, row group 0"));
  EXPECT_THAT(r.err, HasSubstr("bloom filter"));
}

}  // namespace
}  // namespace parq::testing
