// The file envelope: every way a footer can be malformed, and a written
// footer read back through both file access modes.
#include "parq/file/footer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "parq/error.h"
#include "parq/format/metadata_codec.h"
#include "test_paths.h"

namespace parq::file {
namespace {

using ::testing::HasSubstr;

format::FileMetaData small_metadata() {
  format::FileMetaData md;
  md.version = 1;
  format::SchemaElement root, leaf;
  root.name = "schema";
  root.num_children = 1;
  leaf.name = "x";
  leaf.type = format::Type::INT64;
  leaf.repetition_type = format::FieldRepetitionType::REQUIRED;
  md.schema = {root, leaf};
  md.num_rows = 0;
  md.created_by = "footer test";
  return md;
}

std::string file_bytes(const format::FileMetaData& md) {
  std::string out = "PAR1";
  append_footer(md, out);
  return out;
}

std::string footer_error(const std::string& bytes) {
  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "test.parquet");
  try {
    read_footer(*input);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Footer, WrittenFooterReadsBack) {
  std::string bytes = file_bytes(small_metadata());
  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  Footer f = read_footer(*input);
  EXPECT_EQ(f.metadata, small_metadata());
  EXPECT_EQ(f.metadata_offset, 4u);
  EXPECT_EQ(f.metadata_length, bytes.size() - 12);
}

TEST(Footer, LargeFooterNeedsASecondRead) {
  format::FileMetaData md = small_metadata();
  md.key_value_metadata = std::vector<format::KeyValue>{{"big", std::string(200000, 'v')}};
  std::string bytes = file_bytes(md);
  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  FooterOptions options;
  options.speculative_read_bytes = 1024;
  EXPECT_EQ(read_footer(*input, options).metadata, md);
}

TEST(Footer, TooSmall) {
  EXPECT_THAT(footer_error("PAR1PAR1"), HasSubstr("test.parquet: not a Parquet file: 8 bytes is too small"));
  EXPECT_THAT(footer_error(""), HasSubstr("0 bytes is too small"));
}

TEST(Footer, MissingLeadingMagic) {
  std::string bytes = file_bytes(small_metadata());
  bytes[0] = 'X';
  EXPECT_THAT(footer_error(bytes), HasSubstr("missing PAR1 magic at the start (found \"XAR1\")"));
}

TEST(Footer, MissingTrailingMagic) {
  std::string bytes = file_bytes(small_metadata());
  bytes.back() = '\0';
  EXPECT_THAT(footer_error(bytes), HasSubstr("missing PAR1 magic at the end (found \"PAR\\x00\")"));
}

TEST(Footer, EncryptedFooterNeedsAKey) {
  std::string bytes = file_bytes(small_metadata());
  bytes.replace(bytes.size() - 4, 4, "PARE");
  bytes.replace(0, 4, "PARE");
  EXPECT_THAT(footer_error(bytes),
              HasSubstr("encrypted file: its footer is encrypted (PARE magic), and no keys were given"));
}

TEST(Footer, LengthPastFileStart) {
  std::string bytes = file_bytes(small_metadata());
  uint32_t huge = static_cast<uint32_t>(bytes.size());  // 12 more than fits
  std::memcpy(bytes.data() + bytes.size() - 8, &huge, 4);
  EXPECT_THAT(footer_error(bytes), HasSubstr("metadata length " + std::to_string(huge) + " reaches past the start"));
  huge = 0xffffffffu;
  std::memcpy(bytes.data() + bytes.size() - 8, &huge, 4);
  EXPECT_THAT(footer_error(bytes), HasSubstr("reaches past the start"));
}

TEST(Footer, FooterLimit) {
  std::string bytes = file_bytes(small_metadata());
  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  FooterOptions options;
  options.max_footer_bytes = 4;
  EXPECT_THROW(read_footer(*input, options), Error);
}

TEST(Footer, CorruptThriftNamesTheFileAndOffset) {
  std::string bytes = file_bytes(small_metadata());
  bytes[4] = static_cast<char>(0x0d);  // first field header: invalid type nibble
  EXPECT_THAT(footer_error(bytes),
              HasSubstr("test.parquet: corrupt footer: thrift: unknown field type 13 at byte offset 4"));
}

TEST(Footer, ZeroLengthFooterIsCorrupt) {
  std::string bytes = "PAR1";
  bytes += std::string("\0\0\0\0", 4) + "PAR1";
  EXPECT_THAT(footer_error(bytes), HasSubstr("corrupt footer"));
}

TEST(FileInput, MemoryMapAndPreadAgree) {
  std::string bytes = file_bytes(small_metadata());
  auto path = std::filesystem::temp_directory_path() / "parq-footer-test.parquet";
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }
  auto mapped = io::open_file(path.string(), io::FileAccess::kMemoryMap);
  auto pread = io::open_file(path.string(), io::FileAccess::kPread);
  EXPECT_FALSE(mapped->view(0, 4).empty());
  EXPECT_TRUE(pread->view(0, 4).empty());
  EXPECT_EQ(read_footer(*mapped).metadata, small_metadata());
  EXPECT_EQ(read_footer(*pread).metadata, small_metadata());
  uint8_t b[4];
  EXPECT_THROW(pread->read_at(bytes.size() - 2, 4, b), Error);
  std::filesystem::remove(path);
}

TEST(FileInput, OpenErrorsNameThePath) {
  try {
    io::open_file("/nonexistent/x.parquet");
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/x.parquet: cannot open: No such file or directory"));
  }
  try {
    io::open_file(std::filesystem::temp_directory_path().string());
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory"));
  }
}

TEST(FileInput, CountsBytesRead) {
  std::string bytes = file_bytes(small_metadata());
  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  EXPECT_EQ(input->bytes_read(), 0u);
  read_footer(*input);
  EXPECT_GT(input->bytes_read(), 0u);
  EXPECT_LE(input->bytes_read(), bytes.size() + 4);
}

}  // namespace
}  // namespace parq::file
