// ByteArrayBatch writes its leading zero offset lazily: an empty batch, a
// cleared one and one whose offsets were moved out all read as empty with
// offsets()[0] == 0, and the first value or raw access starts the offsets.
#include "parq/encoding/byte_array_batch.h"

#include <gtest/gtest.h>

#include <utility>

namespace parq::encoding {
namespace {

TEST(ByteArrayBatch, EmptyBatchesHaveTheLeadingZeroOffset) {
  ByteArrayBatch fresh;
  EXPECT_EQ(fresh.size(), 0u);
  ASSERT_NE(fresh.offsets(), nullptr);
  EXPECT_EQ(fresh.offsets()[0], 0);
  EXPECT_EQ(fresh.data_size(), 0u);

  ByteArrayBatch filled;
  filled.append("ab");
  filled.append("");
  filled.append("cde");
  ASSERT_EQ(filled.size(), 3u);
  EXPECT_EQ(filled.offsets()[0], 0);
  EXPECT_EQ(filled.offsets()[3], 5);
  EXPECT_EQ(filled.value(0), "ab");
  EXPECT_EQ(filled.value(1), "");
  EXPECT_EQ(filled.value(2), "cde");
  filled.clear();
  EXPECT_EQ(filled.size(), 0u);
  EXPECT_EQ(filled.offsets()[0], 0);
  filled.append("x");
  EXPECT_EQ(filled.size(), 1u);
  EXPECT_EQ(filled.value(0), "x");

  // The assembler moves the offsets out: what is left reads as empty.
  Buffer taken = std::move(filled.offsets_buffer());
  EXPECT_EQ(taken.size(), 2 * sizeof(int32_t));
  EXPECT_EQ(filled.size(), 0u);
  EXPECT_EQ(filled.offsets()[0], 0);
}

TEST(ByteArrayBatch, RawAccessStartsTheOffsets) {
  ByteArrayBatch batch;
  Buffer& offsets = batch.offsets_buffer();
  ASSERT_EQ(offsets.size(), sizeof(int32_t));
  EXPECT_EQ(offsets.data_as<int32_t>()[0], 0);
  EXPECT_EQ(batch.size(), 0u);
  // A decoder's bulk fill: one more offset and its bytes.
  batch.data_buffer().append(std::string_view("hello"));
  offsets.append_value<int32_t>(5);
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch.value(0), "hello");
  // A second raw access does not add another leading zero.
  EXPECT_EQ(batch.offsets_buffer().size(), 2 * sizeof(int32_t));
}

}  // namespace
}  // namespace parq::encoding
