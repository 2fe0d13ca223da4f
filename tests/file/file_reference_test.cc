// FILE references: the spec's resolution table, the group's schema rules
// (the writer refuses what the spec forbids), checksums against published
// test vectors, and a file whose rows refer to inline bytes, to blobs
// written into the file itself and to an external file, each read back.
#include "parq/file/file_reference.h"

#include <gtest/gtest.h>

#include <fstream>

#include "json_batch.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/schema_text.h"
#include "simd_levels.h"
#include "test_paths.h"

namespace parq {
namespace {

using Kind = ResolvedReference::Kind;

FileReference ref(std::optional<std::string> uri, std::optional<int64_t> offset, std::optional<int64_t> size) {
  FileReference r;
  r.uri = std::move(uri);
  r.offset = offset;
  r.size = size;
  return r;
}

TEST(FileReference, ResolutionFollowsTheSpecTable) {
  FileReference in;
  in.inline_bytes = "abc";
  in.uri = "ignored";  // locators beside inline are provenance only
  EXPECT_EQ(resolve(in).kind, Kind::kInline);
  EXPECT_EQ(resolve(ref("s3://b/k", std::nullopt, std::nullopt)).kind, Kind::kExternalWhole);
  EXPECT_EQ(resolve(ref("s3://b/k", 5, std::nullopt)).kind, Kind::kInvalid);
  const ResolvedReference head = resolve(ref("s3://b/k", std::nullopt, 7));
  EXPECT_EQ(head.kind, Kind::kExternalRange);
  EXPECT_EQ(head.offset, 0);
  EXPECT_EQ(head.size, 7);
  const ResolvedReference range = resolve(ref("s3://b/k", 3, 7));
  EXPECT_EQ(range.kind, Kind::kExternalRange);
  EXPECT_EQ(range.offset, 3);
  EXPECT_EQ(resolve(ref(std::nullopt, 3, std::nullopt)).kind, Kind::kInvalid);
  EXPECT_EQ(resolve(ref(std::nullopt, std::nullopt, 3)).kind, Kind::kInvalid);
  EXPECT_EQ(resolve(ref(std::nullopt, 3, 0)).kind, Kind::kSelf);
  EXPECT_EQ(resolve(ref(std::nullopt, std::nullopt, std::nullopt)).kind, Kind::kInvalid);
  EXPECT_EQ(resolve(ref(std::nullopt, -1, 4)).kind, Kind::kInvalid);
  EXPECT_EQ(resolve(ref("x", 0, -4)).kind, Kind::kInvalid);
  EXPECT_FALSE(resolve(ref(std::nullopt, 3, std::nullopt)).problem.empty());
}

TEST(FileReference, ChecksumsMatchPublishedVectors) {
  EXPECT_EQ(file_checksum("MD5", ""), "MD5:d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(file_checksum("SHA-256", "abc"),
            "SHA-256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(file_checksum("CRC32", "123456789"), "CRC32:cbf43926");
  const std::string long_text(1000, 'q');
  std::string crc32c_long;
  for (SimdLevel level : testing::EachSimdLevel()) {
    EXPECT_EQ(file_checksum("CRC32C", "123456789"), "CRC32C:e3069283") << to_string(level);
    EXPECT_EQ(file_checksum("CRC32C", ""), "CRC32C:00000000") << to_string(level);
    if (crc32c_long.empty()) crc32c_long = file_checksum("CRC32C", long_text + "x");
    EXPECT_EQ(file_checksum("CRC32C", long_text + "x"), crc32c_long) << to_string(level);
  }
  EXPECT_THROW(file_checksum("ETAG", "x"), Error);
}

const char* kSchema =
    "message m { required int64 id; optional group f (FILE) { optional binary uri (STRING);"
    " optional int64 offset; optional int64 size; optional binary content_type (STRING);"
    " optional binary checksum (STRING); optional binary inline; } }";

std::string write_with(const std::string& schema_text, const std::vector<std::string>& rows) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), parse_schema_text(schema_text), {});
  writer->write(testing::batch_from_json(parse_schema_text(schema_text), rows));
  writer->close();
  return std::string(sink->take().view());
}

TEST(FileReference, WriterRefusesGroupsTheSpecForbids) {
  EXPECT_NO_THROW(write_with(kSchema, {R"({"id":1,"f":{"inline":"x"}})"}));
  // A group need only define the fields it uses.
  EXPECT_NO_THROW(write_with("message m { optional group f (FILE) { optional binary uri (STRING); } }",
                             {R"({"f":{"uri":"a.png"}})"}));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"message m { optional group f (FILE) { optional binary uri (STRING); optional int64 mtime; } }", "mtime"},
      {"message m { optional group f (FILE) { optional int32 offset; } }", "offset"},
      {"message m { optional group f (FILE) { optional binary uri; } }", "uri"},
      {"message m { optional group f (FILE) { required binary uri (STRING); } }", "optional"},
  };
  for (const auto& [schema, named] : bad) {
    try {
      write_with(schema, {});
      ADD_FAILURE() << schema;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("FILE group f"), std::string::npos) << e.what();
    }
  }
}

TEST(FileReference, InlineSelfAndExternalReferencesReadBack) {
  testing::TempDir dir("file-reference");
  const std::string external = "external bytes: 0123456789";
  std::ofstream(dir / "blob.bin", std::ios::binary) << external;

  const Schema schema = parse_schema_text(kSchema);
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, {});
  const std::string first = "a blob written into the Parquet file", second = "and another";
  const int64_t at_first = writer->append_bytes(first);
  writer->write(testing::batch_from_json(schema, {R"({"id":0,"f":{"inline":"inline bytes"}})"}));
  writer->flush_row_group();
  const int64_t at_second = writer->append_bytes(second);
  auto self = [](int64_t offset, size_t size, const std::string& extra) {
    return "{\"offset\":" + std::to_string(offset) + ",\"size\":" + std::to_string(size) + extra + "}";
  };
  const std::vector<std::string> rows = {
      R"({"id":1,"f":)" + self(at_first, first.size(), ",\"checksum\":\"" + file_checksum("SHA-256", first) + "\"") +
          "}",
      R"({"id":2,"f":)" + self(at_second, second.size(), ",\"checksum\":\"CRC32:00000000\"") + "}",
      R"({"id":3,"f":{"uri":"blob.bin","offset":9,"size":5,"checksum":")" + file_checksum("CRC32C", "bytes") + R"("}})",
      R"({"id":4,"f":{"uri":"blob.bin","content_type":"application/octet-stream"}})",
      R"({"id":5,"f":{"offset":4}})",  // offset without size: invalid, read as null
      R"({"id":6,"f":null})",
      R"({"id":7,"f":{"uri":"","offset":0,"size":99999}})",  // an empty uri is not set: a self-reference
  };
  writer->write(testing::batch_from_json(schema, rows));
  writer->close();
  const Buffer bytes = sink->take();
  const std::string file(bytes.view());

  auto input = io::memory_input({reinterpret_cast<const uint8_t*>(file.data()), file.size()});
  auto reader = FileReader::open(io::memory_input({reinterpret_cast<const uint8_t*>(file.data()), file.size()}));
  auto source = read_batches(*reader);
  std::vector<std::optional<FileReference>> refs;
  RecordBatch batch, last;
  while (source->next(batch)) {
    auto part = file_references(batch.columns[1]);
    refs.insert(refs.end(), part.begin(), part.end());
    last = batch;
  }
  ASSERT_EQ(refs.size(), 8u);
  ReferenceSources sources;
  sources.this_file = input.get();
  sources.base = dir / "data.parquet";
  ASSERT_TRUE(refs[0]);
  EXPECT_EQ(read_referenced_bytes(*refs[0], sources), "inline bytes");
  ASSERT_TRUE(refs[1]);
  EXPECT_EQ(read_referenced_bytes(*refs[1], sources), first);
  ASSERT_TRUE(refs[2]);
  try {
    read_referenced_bytes(*refs[2], sources);
    ADD_FAILURE() << "a wrong CRC32 passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CRC32"), std::string::npos) << e.what();
  }
  sources.verify_checksum = false;
  EXPECT_EQ(read_referenced_bytes(*refs[2], sources), second);
  sources.verify_checksum = true;
  ASSERT_TRUE(refs[3]);
  EXPECT_EQ(read_referenced_bytes(*refs[3], sources), "bytes");
  ASSERT_TRUE(refs[4]);
  EXPECT_EQ(refs[4]->content_type, "application/octet-stream");
  EXPECT_EQ(read_referenced_bytes(*refs[4], sources), external);
  EXPECT_FALSE(refs[5]);
  EXPECT_FALSE(refs[6]);
  ASSERT_TRUE(refs[7]);
  EXPECT_FALSE(refs[7]->uri);
  EXPECT_THROW(read_referenced_bytes(*refs[7], sources), Error);  // past the end of the file
  // Without the file it is in, a self-reference cannot be read.
  EXPECT_THROW(read_referenced_bytes(*refs[1], ReferenceSources{}), Error);
  // Columns that are not a FILE group's are refused by name.
  ASSERT_EQ(last.columns.size(), 2u);
  EXPECT_THROW(file_references(last.columns[0]), Error);  // id, a leaf
  Array odd = last.columns[1];
  odd.children[0].name = "mtime";
  try {
    file_references(odd);
    ADD_FAILURE() << "a field the spec does not define passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f.mtime"), std::string::npos) << e.what();
  }
  // The blobs are not part of any column chunk: the file reads as usual.
  EXPECT_EQ(reader->metadata().num_rows, 8);
}

}  // namespace
}  // namespace parq
