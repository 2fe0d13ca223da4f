// File inputs: a memory map where the system allows it (zero-copy views for
// the reader), pread otherwise (pipes are refused: Parquet needs random access).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "parq/error.h"
#include "parq/io/input.h"

namespace parq::io {
namespace {

std::string system_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

class PreadInput : public RandomAccessInput {
 public:
  PreadInput(std::unique_ptr<FileDescriptor> fd, uint64_t size, std::string path)
      : fd_(std::move(fd)), size_(size), path_(std::move(path)) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override {
    while (n > 0) {
      ssize_t got = ::pread(fd_->get(), out, n, static_cast<off_t>(offset));
      if (got < 0) {
        if (errno == EINTR) continue;
        throw Error(ErrorKind::kIo, {.file = path_, .offset = static_cast<int64_t>(offset)},
                    system_error("read failed"));
      }
      if (got == 0)
        throw Error(ErrorKind::kIo, {.file = path_, .offset = static_cast<int64_t>(offset)},
                    "the file shrank while being read (it ends here)");
      out += got;
      offset += static_cast<uint64_t>(got);
      n -= static_cast<size_t>(got);
    }
  }

 private:
  std::unique_ptr<FileDescriptor> fd_;
  uint64_t size_;
  std::string path_;
};

class MappedInput : public RandomAccessInput {
 public:
  MappedInput(const uint8_t* data, uint64_t size, std::string path)
      : data_(data), size_(size), path_(std::move(path)) {}
  ~MappedInput() override { ::munmap(const_cast<uint8_t*>(data_), size_); }
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  std::span<const uint8_t> view(uint64_t offset, size_t n) const override {
    if (offset > size_ || n > size_ - offset)
      throw Error(ErrorKind::kCorrupt, {.file = path_, .offset = static_cast<int64_t>(offset)},
                  "a range of " + std::to_string(n) + " bytes is past the end of the file (" + std::to_string(size_) +
                      " bytes)");
    count_view(n);
    return {data_ + offset, n};
  }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override {
    if (n != 0) std::memcpy(out, data_ + offset, n);
  }

 private:
  const uint8_t* data_;
  uint64_t size_;
  std::string path_;
};

}  // namespace

std::unique_ptr<RandomAccessInput> open_file(const std::string& path, FileAccess access) {
  int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) throw Error(ErrorKind::kIo, {.file = path}, system_error("cannot open"));
  auto fd = std::make_unique<FileDescriptor>(raw);
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) throw Error(ErrorKind::kIo, {.file = path}, system_error("cannot stat"));
  if (S_ISDIR(st.st_mode)) throw Error(ErrorKind::kIo, {.file = path}, "is a directory");
  if (!S_ISREG(st.st_mode))
    throw Error(ErrorKind::kIo, {.file = path}, "not a regular file (Parquet needs random access)");
  auto size = static_cast<uint64_t>(st.st_size);
  if (access == FileAccess::kMemoryMap && size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd->get(), 0);
    if (p != MAP_FAILED) return std::make_unique<MappedInput>(static_cast<const uint8_t*>(p), size, path);
  }
  return std::make_unique<PreadInput>(std::move(fd), size, path);
}

}  // namespace parq::io
