// Tests of file outputs: large writes that go to disk by direct writes
// from a few buffers on a thread (whole buffers, then the rest through the
// page cache) land byte for byte, in any mix of write sizes and syncs; an
// output abandoned mid-way leaves nothing at the target; a failing disk
// write is an error naming the file.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/io/output.h"

namespace parq::io {
namespace {

namespace fs = std::filesystem;

class FileOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parq_file_output_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::vector<uint8_t> pattern(size_t n) {
    std::vector<uint8_t> v(n);
    uint32_t x = 12345;
    for (auto& b : v) {
      x = x * 1103515245 + 12345;
      b = static_cast<uint8_t>(x >> 16);
    }
    return v;
  }

  static std::vector<uint8_t> read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Files in the folder other than the target: temporaries left behind.
  size_t files_in_folder() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++n;
    return n;
  }

  fs::path dir_;
};

// Sizes around the direct buffers (4 MiB, four of them in flight) and the
// block alignment: written in pieces of awkward sizes, with and without a
// sync part way.
TEST_F(FileOutputTest, LargeWritesLandByteForByte) {
  constexpr size_t kMiB = size_t{1} << 20;
  for (size_t total : {size_t{4096}, 4 * kMiB, 4 * kMiB + 1, 16 * kMiB, 16 * kMiB + 4095, 37 * kMiB + 123}) {
    for (size_t piece : {size_t{1000}, 3 * kMiB + 7, 9 * kMiB}) {
      for (bool sync_midway : {false, true}) {
        const std::vector<uint8_t> data = pattern(total);
        const std::string target = path("out.bin");
        auto out = create_file(target);
        size_t at = 0;
        bool synced = false;
        while (at < total) {
          const size_t n = std::min(piece, total - at);
          out->write(data.data() + at, n);
          at += n;
          ASSERT_EQ(out->position(), at);
          if (sync_midway && !synced && at >= total / 2) {
            out->sync();
            synced = true;
          }
        }
        out->commit();
        ASSERT_EQ(read(target), data) << "total " << total << " piece " << piece << " sync " << sync_midway;
        EXPECT_EQ(files_in_folder(), 1u);
        fs::remove(target);
      }
    }
  }
}

TEST_F(FileOutputTest, AbandonedLargeWriteLeavesNothing) {
  const std::vector<uint8_t> data = pattern(size_t{30} << 20);
  {
    auto out = create_file(path("never.bin"));
    out->write(data.data(), data.size());
    // Destroyed with buffers still queued for the disk.
  }
  EXPECT_FALSE(fs::exists(path("never.bin")));
  EXPECT_EQ(files_in_folder(), 0u);
}

// A file size limit makes the disk write fail (EFBIG) past it, as a full
// disk would: the error names the file, and the target never appears.
TEST_F(FileOutputTest, FailedDiskWriteIsAnErrorNamingTheFile) {
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = old;
  limited.rlim_cur = rlim_t{6} << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const std::vector<uint8_t> data = pattern(size_t{24} << 20);
  const std::string target = path("limited.bin");
  bool threw = false;
  try {
    auto out = create_file(target);
    for (size_t at = 0; at < data.size(); at += size_t{1} << 20) out->write(data.data() + at, size_t{1} << 20);
    out->commit();
  } catch (const Error& e) {
    threw = true;
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find("write failed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("limited.bin"), std::string::npos) << e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  EXPECT_TRUE(threw);
  EXPECT_FALSE(fs::exists(target));
}

}  // namespace
}  // namespace parq::io
