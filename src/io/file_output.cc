// File output through a temporary sibling, renamed into place on commit,
// or (for checkpointed writing) into the target itself.
//
// The temporary is created with mkstemp in the target's folder (a rename
// across file systems would not be atomic), written through a buffer of a
// few MiB (column chunks arrive as many small page writes), fsync'ed, renamed
// over the target, and the folder fsync'ed so the new name survives a crash.
// Writeback of what has been written starts every few MiB (Linux's
// sync_file_range), so that the disk works while the writer encodes and the
// closing fsync waits for the last stretch only, not the whole file.
// Until the rename the target is untouched; the destructor of an output
// that was not committed unlinks the temporary.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "parq/error.h"
#include "parq/io/output.h"

namespace parq::io {
namespace {

constexpr size_t kWriteBuffer = size_t{4} << 20;
// Written bytes between two starts of writeback.
constexpr uint64_t kWritebackBytes = uint64_t{8} << 20;

std::string system_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

std::string folder_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A descriptor written through a buffer (column chunks arrive as many small
// page writes).
class BufferedFileOutput : public OutputStream {
 public:
  ~BufferedFileOutput() override {
    if (fd_ >= 0) ::close(fd_);
  }

  void write(const void* data, size_t n) override {
    check_open();
    position_ += n;
    if (buffer_.size() + n <= kWriteBuffer) {
      buffer_.append(data, n);
      return;
    }
    drain();
    if (n >= kWriteBuffer) {
      write_fully(static_cast<const uint8_t*>(data), n);
    } else {
      buffer_.append(data, n);
    }
  }

  uint64_t position() const override { return position_; }

  void sync() override {
    check_open();
    drain();
    if (::fdatasync(fd_) != 0) fail("cannot flush to disk");
  }

  const std::string& name() const override { return path_; }

 protected:
  explicit BufferedFileOutput(const std::string& path) : path_(path) {
    if (path.empty() || path.back() == '/') throw Error(ErrorKind::kInvalidArgument, {.file = path}, "not a file path");
    buffer_.reserve(kWriteBuffer);
  }

  // Drains, syncs and closes the descriptor.
  void finish() {
    check_open();
    drain();
    if (::fsync(fd_) != 0) fail("cannot flush to disk");
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail("cannot close");
    }
    fd_ = -1;
  }

  void sync_folder() {
    int dir = ::open(folder_of(path_).c_str(), O_RDONLY | O_DIRECTORY);
    if (dir < 0) return;  // the name exists; its durability is best effort here
    ::fsync(dir);
    ::close(dir);
  }

  [[noreturn]] void fail(const char* what) {
    std::string message = system_error(what);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw Error(ErrorKind::kIo, {.file = path_}, message);
  }

  std::string path_;
  int fd_ = -1;

 private:
  void check_open() const {
    if (fd_ < 0)
      throw Error(ErrorKind::kInvalidArgument, {.file = path_}, "write after the output was committed or failed");
  }

  void drain() {
    write_fully(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

  // Asks the kernel to start writing the pages written since the last call,
  // without waiting for them; a failure here only leaves the work to fsync.
  void start_writeback() {
#ifdef __linux__
    if (written_ - writeback_from_ < kWritebackBytes) return;
    ::sync_file_range(fd_, static_cast<off_t>(writeback_from_), static_cast<off_t>(written_ - writeback_from_),
                      SYNC_FILE_RANGE_WRITE);
    writeback_from_ = written_;
#endif
  }

  void write_fully(const uint8_t* p, size_t n) {
    while (n > 0) {
      ssize_t put = ::write(fd_, p, n);
      if (put < 0) {
        if (errno == EINTR) continue;
        fail("write failed");
      }
      p += put;
      n -= static_cast<size_t>(put);
      written_ += static_cast<uint64_t>(put);
    }
    start_writeback();
  }

  uint64_t position_ = 0;
  uint64_t written_ = 0;         // bytes handed to the descriptor
  uint64_t writeback_from_ = 0;  // where the next writeback starts
  Buffer buffer_;
};

class AtomicFileOutput final : public BufferedFileOutput {
 public:
  explicit AtomicFileOutput(const std::string& path) : BufferedFileOutput(path) {
    size_t slash = path.rfind('/');
    std::string prefix = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    temp_path_ = prefix + "." + base_of(path) + ".parq-XXXXXX";
    fd_ = ::mkstemp(temp_path_.data());
    if (fd_ < 0)
      throw Error(ErrorKind::kIo, {.file = folder_of(path)},
                  system_error("cannot create a temporary file in this folder"));
    // mkstemp makes 0600; a finished file should get the usual permissions.
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
  }

  ~AtomicFileOutput() override {
    if (!committed_) ::unlink(temp_path_.c_str());
  }

  void commit() override {
    finish();
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail("cannot rename the finished file into place");
    committed_ = true;
    sync_folder();
  }

 private:
  std::string temp_path_;
  bool committed_ = false;
};

class InPlaceFileOutput final : public BufferedFileOutput {
 public:
  explicit InPlaceFileOutput(const std::string& path) : BufferedFileOutput(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) throw Error(ErrorKind::kIo, {.file = path}, system_error("cannot create the file"));
    sync_folder();  // a checkpoint is worth little if the name itself can be lost
  }

  void commit() override { finish(); }
};

}  // namespace

std::unique_ptr<OutputStream> create_file(const std::string& path) { return std::make_unique<AtomicFileOutput>(path); }

std::unique_ptr<OutputStream> create_file_in_place(const std::string& path) {
  return std::make_unique<InPlaceFileOutput>(path);
}

}  // namespace parq::io
