// Every corpus file with a golden dump, rewritten by the FileWriter under
// several option sets, reads back to the same canonical rows, and the files
// written are well-formed (footer, page index and bloom filter offsets
// inside the file, every page's CRC valid).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "parq/column/page_reader.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/text/row_text.h"
#include "rows_text.h"
#include "test_paths.h"

namespace parq {
namespace {

using testing::rows_of;

std::vector<std::string> golden_files() {
  std::ifstream index(testing::golden_dir() / "INDEX.tsv");
  std::vector<std::string> out;
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::string path = line.substr(0, line.find('\t'));
    // Unreadable on purpose (its README accepts a clean failure), and
    // 1 GiB map keys (large_string_map_test.cc rewrites it, release only).
    if (path == "data/nation.dict-malformed.parquet" || path == "data/large_string_map.brotli.parquet") continue;
    out.push_back(path);
  }
  return out;
}

ReadOptions read_options(const std::string& path) {
  ReadOptions o;
  o.pages.verify_crc = path.find("corrupt-checksum") == std::string::npos;
  return o;
}

Buffer rewrite(const FileReader& in, const ReadOptions& read, const WriteOptions& options) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), in.schema(), options);
  auto source = read_batches(in, read);
  writer->write_all(*source);
  writer->close();
  return sink->take();
}

// Walks every page of every chunk with CRC verification on.
void check_pages(const FileReader& file) {
  const auto& meta = file.metadata();
  for (size_t g = 0; g < meta.row_groups.size(); ++g)
    for (size_t c = 0; c < meta.row_groups[g].columns.size(); ++c) {
      PageReader pages(file.input(), meta, g, c, "c");
      PageInfo page;
      int64_t values = 0;
      while (pages.next(page)) {
        EXPECT_NE(page.crc, CrcStatus::kInvalid);
        pages.decompress(page);
        if (page.header.data_page_header) values += page.header.data_page_header->num_values;
        if (page.header.data_page_header_v2) values += page.header.data_page_header_v2->num_values;
      }
      EXPECT_EQ(values, meta.row_groups[g].columns[c].meta_data->num_values);
    }
}

struct OptionSet {
  const char* name;
  WriteOptions options;
};

std::vector<OptionSet> option_sets() {
  std::vector<OptionSet> sets;
  sets.push_back({"defaults", WriteOptions{}});
  WriteOptions v2;
  v2.page_version = 2;
  v2.codec = {format::CompressionCodec::ZSTD, 3};
  v2.page_rows = 7;  // many pages, so rows spread over pages and slices
  v2.row_group_rows = 1000;
  sets.push_back({"v2 zstd small pages", v2});
  WriteOptions plain;
  plain.dictionary = false;
  plain.codec = {format::CompressionCodec::GZIP, compression::kDefaultLevel};
  plain.page_bytes = 100;
  sets.push_back({"plain gzip tiny pages", plain});
  WriteOptions fallback;
  fallback.dictionary_limits.max_entries = 3;  // every dictionary falls back early
  fallback.codec = {format::CompressionCodec::LZ4, compression::kDefaultLevel};
  fallback.page_version = 2;
  sets.push_back({"fallback lz4 v2", fallback});
  return sets;
}

TEST(FileWriterCorpus, RewrittenFilesReadBackIdentically) {
  auto files = golden_files();
  ASSERT_GT(files.size(), 150u);
  size_t checked = 0;
  for (const std::string& name : files) {
    const auto path = (testing::corpus_dir() / name).string();
    SCOPED_TRACE(name);
    auto in = FileReader::open(path);
    const ReadOptions read = read_options(name);
    const std::string expected = rows_of(*in, read);
    for (const OptionSet& set : option_sets()) {
      SCOPED_TRACE(set.name);
      Buffer bytes;
      try {
        bytes = rewrite(*in, read, set.options);
      } catch (const Error& e) {
        ADD_FAILURE() << e.what();
        continue;
      }
      auto back = FileReader::open(io::memory_input(bytes.span(), "rewritten"));
      EXPECT_EQ(rows_of(*back), expected);
      // The rows read, not the source footer's count (repeated_no_annotation's says 0).
      EXPECT_EQ(back->metadata().num_rows, std::count(expected.begin(), expected.end(), '\n'));
      check_pages(*back);
    }
    ++checked;
  }
  EXPECT_EQ(checked, files.size());
}

}  // namespace
}  // namespace parq
