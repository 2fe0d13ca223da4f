// Inputs: read_ranges hands back each range's bytes (views of memory,
// copies from files), and byte ranges stay valid when copied and moved.
#include "parq/io/input.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "parq/error.h"

namespace parq::io {
namespace {

std::vector<uint8_t> bytes_0_to_255() {
  std::vector<uint8_t> v(256);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(ReadRanges, MemoryViewsAndFileCopies) {
  const std::vector<uint8_t> data = bytes_0_to_255();
  const auto path = std::filesystem::temp_directory_path() / "parq_read_ranges_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  }
  const std::vector<FileRange> ranges = {{10, 5}, {200, 56}, {0, 0}, {11, 1}};
  std::vector<std::unique_ptr<RandomAccessInput>> inputs;
  inputs.push_back(memory_input(data));
  inputs.push_back(open_file(path.string(), FileAccess::kPread));
  for (auto& input : inputs) {
    const uint64_t before = input->bytes_read();
    std::vector<ByteRange> got = input->read_ranges(ranges);
    ASSERT_EQ(got.size(), ranges.size());
    for (size_t i = 0; i < ranges.size(); ++i) {
      ASSERT_EQ(got[i].size(), ranges[i].length);
      for (size_t k = 0; k < got[i].size(); ++k) EXPECT_EQ(got[i].data()[k], ranges[i].offset + k);
    }
    EXPECT_EQ(input->bytes_read() - before, 62u);
    const std::vector<FileRange> past = {{250, 7}};
    EXPECT_THROW(input->read_ranges(past), Error);
  }
  std::filesystem::remove(path);
}

TEST(ByteRange, CopiesAndMovesKeepTheirBytes) {
  const std::vector<uint8_t> data = bytes_0_to_255();
  const auto path = std::filesystem::temp_directory_path() / "parq_byte_range_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  }
  auto file = open_file(path.string(), FileAccess::kPread);
  auto owned = std::make_unique<ByteRange>(ByteRange::read(*file, 100, 20));  // a copy out of the file
  ByteRange copied(*owned);
  ByteRange assigned;
  assigned = *owned;
  ByteRange moved(std::move(*owned));
  owned.reset();
  for (const ByteRange* r : {&copied, &assigned, &moved}) {
    ASSERT_EQ(r->size(), 20u);
    for (size_t k = 0; k < 20; ++k) EXPECT_EQ(r->data()[k], 100 + k);
  }
  auto memory = memory_input(data);
  ByteRange view = ByteRange::read(*memory, 3, 4);
  ByteRange view_copy(view);
  EXPECT_EQ(view_copy.data(), data.data() + 3);  // a view stays a view
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace parq::io
