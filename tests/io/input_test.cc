// Inputs: read_ranges hands back each range's bytes (views of memory,
// copies from files), byte ranges stay valid when copied and moved, and a
// memory-mapped view maps only the pages that are read.
#include "parq/io/input.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

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
  EXPECT_TRUE(view.borrowed());
  EXPECT_TRUE(view_copy.borrowed());
  EXPECT_FALSE(copied.borrowed());
  EXPECT_FALSE(ByteRange().borrowed());
  std::filesystem::remove(path);
}

// The resident set (kB) of the mapping that holds `address`, from
// /proc/self/smaps; -1 when no mapping holds it.
long mapped_kb(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      return std::stol(line.substr(4));
    }
  }
  return -1;
}

TEST(MappedView, MapsOnlyThePagesRead) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  // Larger than the kernel's biggest page-cache folio (2 MiB) by far.
  std::vector<uint8_t> data(size_t{16} << 20);
  std::iota(data.begin(), data.end(), 0);
  const auto path = std::filesystem::temp_directory_path() / "parq_mapped_view_test.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  }
  auto file = open_file(path.string(), FileAccess::kMemoryMap);
  // A range that starts inside a page and ends inside another.
  const size_t offset = 3 * page + 5, n = 100 * page;
  std::vector<FileRange> ranges = {{offset, n}};
  ByteRange range = std::move(file->read_ranges(ranges)[0]);
  ASSERT_TRUE(range.borrowed());
  // Taking a view maps nothing: a read's memory follows what it decodes.
  EXPECT_EQ(mapped_kb(range.data()), 0);
  for (size_t k = 0; k < n; k += page) ASSERT_EQ(range.data()[k], static_cast<uint8_t>(offset + k));
  const long kb = mapped_kb(range.data());
  EXPECT_GE(kb, static_cast<long>(n / 1024));
  // A fault maps the pages around it, or the whole folio that holds it,
  // not the whole file.
  EXPECT_LT(kb, static_cast<long>(data.size() / 1024 / 2));
  file.reset();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace parq::io
