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

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "parq/error.h"
#include "parq/io/output.h"
#include "parq/util/thread_pool.h"

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

// Writes of whole aligned blocks that bypass the page cache (O_DIRECT), on
// a worker of their own with a few buffers in flight, so that the disk
// works while the caller fills the next buffer. Copying a large file into
// the page cache cost the writer a tenth to a fifth of its time, and varied
// several-fold between runs with the kernel's state (on a virtual machine
// each fresh page of cache may be a fault on the host too); a direct write
// costs the caller one copy into a buffer that stays in the CPU's caches.
// Only whole buffers go this way: the last partial one, and everything
// after a sync, are written through the page cache by the caller.
class DirectWriter {
 public:
  static constexpr size_t kAlignment = 4096;
  static constexpr size_t kBufferBytes = size_t{4} << 20;
  static constexpr size_t kBuffers = 4;

  // Null when the file system refuses O_DIRECT on `fd` or memory runs out.
  static std::unique_ptr<DirectWriter> open(int fd) {
#ifdef O_DIRECT
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) return nullptr;
    auto w = std::unique_ptr<DirectWriter>(new DirectWriter(fd));
    for (size_t i = 0; i < kBuffers; ++i) {
      void* b = std::aligned_alloc(kAlignment, kBufferBytes);
      if (b == nullptr) {
        w->leave_direct();
        return nullptr;
      }
      w->buffers_.emplace_back(static_cast<uint8_t*>(b), &std::free);
      w->free_.push_back(i);
    }
    return w;
#else
    (void)fd;
    return nullptr;
#endif
  }

  // Copies `n` bytes in; each full buffer goes to the worker. Returns the
  // worker's error message, empty when all is well.
  std::string write(const uint8_t* p, size_t n) {
    while (n > 0) {
      if (current_ == kNone) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !free_.empty() || !error_.empty(); });
        if (!error_.empty()) return error_;
        current_ = free_.back();
        free_.pop_back();
      }
      const size_t take = std::min(n, kBufferBytes - fill_);
      std::memcpy(buffers_[current_].get() + fill_, p, take);
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ == kBufferBytes) {
        std::string error = queue(current_);
        if (!error.empty()) return error;
        current_ = kNone;
        fill_ = 0;
      }
    }
    return {};
  }

  // Waits for the queued buffers and ends direct writing. Returns the
  // worker's error message, or empty and sets `written` to the bytes on
  // disk and `rest` to those still to write after them (valid while this
  // writer lives).
  std::string finish(uint64_t& written, std::span<const uint8_t>& rest) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return in_flight_ == 0 || !error_.empty(); });
    if (!error_.empty()) return error_;
    lock.unlock();
    leave_direct();
    written = offset_;
    if (current_ != kNone) rest = {buffers_[current_].get(), fill_};
    return {};
  }

 private:
  static constexpr size_t kNone = ~size_t{0};

  explicit DirectWriter(int fd) : fd_(fd) {}

  void leave_direct() {
#ifdef O_DIRECT
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT);
#endif
  }

  // Hands a full buffer to the worker (started with the first one, so that
  // small files never start it).
  std::string queue(size_t buffer) {
    if (pool_ == nullptr) {
      try {
        pool_ = std::make_unique<ThreadPool>(2);
      } catch (const std::exception& e) {
        return std::string("cannot start a thread to write with: ") + e.what();
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (!error_.empty()) return error_;
      ++in_flight_;
    }
    const uint64_t offset = offset_;
    offset_ += kBufferBytes;
    pool_->post([this, buffer, offset] {
      std::string error;
      try {
        error = write_block(buffers_[buffer].get(), offset);
      } catch (...) {
        error = "out of memory";  // short enough to need no allocation
      }
      std::lock_guard lock(mutex_);
      if (!error.empty() && error_.empty()) error_ = std::move(error);
      free_.push_back(buffer);
      --in_flight_;
      changed_.notify_all();
    });
    return {};
  }

  // On the worker; an output destroyed before finish() still has its queued
  // buffers written (to a temporary it then removes).
  std::string write_block(const uint8_t* p, uint64_t offset) {
    size_t n = kBufferBytes;
    while (n > 0) {
      ssize_t put = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
      if (put < 0 && errno == EINVAL && !fell_back_) {
        // Some file systems take the flag but not our alignment: write
        // through the page cache from here on.
        fell_back_ = true;
        leave_direct();
        continue;
      }
      if (put < 0) {
        if (errno == EINTR) continue;
        return system_error("write failed");
      }
      p += put;
      n -= static_cast<size_t>(put);
      offset += static_cast<uint64_t>(put);
    }
    return {};
  }

  const int fd_;
  std::vector<std::unique_ptr<uint8_t, decltype(&std::free)>> buffers_;
  // The caller's side: the buffer it fills and the file offset of the next
  // buffer it queues.
  size_t current_ = kNone;
  size_t fill_ = 0;
  uint64_t offset_ = 0;
  // Shared with the worker, under the mutex.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<size_t> free_;
  size_t in_flight_ = 0;
  std::string error_;
  bool fell_back_ = false;  // the worker's own
  // Last: destroyed first, running what is still queued while the buffers
  // and the mutex are alive.
  std::unique_ptr<ThreadPool> pool_;
};

// A descriptor written through a buffer (column chunks arrive as many small
// page writes).
class BufferedFileOutput : public OutputStream {
 public:
  ~BufferedFileOutput() override {
    direct_.reset();  // its thread stops before the descriptor closes
    if (fd_ >= 0) ::close(fd_);
  }

  void write(const void* data, size_t n) override {
    check_open();
    position_ += n;
    if (direct_ != nullptr) {
      std::string error = direct_->write(static_cast<const uint8_t*>(data), n);
      if (!error.empty()) fail_with(error);
      return;
    }
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

  [[noreturn]] void fail(const char* what) { fail_with(system_error(what)); }

  [[noreturn]] void fail_with(const std::string& message) {
    direct_.reset();  // its thread stops before the descriptor closes
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw Error(ErrorKind::kIo, {.file = path_}, message);
  }

  // Large files go to disk by direct writes where the file system allows.
  void try_direct() { direct_ = DirectWriter::open(fd_); }

  std::string path_;
  int fd_ = -1;

 private:
  void check_open() const {
    if (fd_ < 0)
      throw Error(ErrorKind::kInvalidArgument, {.file = path_}, "write after the output was committed or failed");
  }

  void drain() {
    if (direct_ != nullptr) end_direct();
    write_fully(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

  // Waits for the direct writes, then goes on through the page cache after
  // them with the bytes they left.
  void end_direct() {
    uint64_t written = 0;
    std::span<const uint8_t> rest;
    std::string error = direct_->finish(written, rest);
    if (!error.empty()) fail_with(error);
    buffer_.append(rest.data(), rest.size());
    direct_.reset();
    if (::lseek(fd_, static_cast<off_t>(written), SEEK_SET) < 0) fail("cannot seek");
    written_ = written;
    writeback_from_ = written;
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

  std::unique_ptr<DirectWriter> direct_;
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
    try_direct();
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
