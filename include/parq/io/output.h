// Sequential output: where the writer puts its bytes.
//
// A file is written to a temporary sibling of the target ("." + name +
// ".parq-XXXXXX" in the same folder, so the final rename cannot cross file
// systems) and renamed over the target only by commit(), after the footer is
// written and the data reached the disk. A writer that fails, is destroyed
// without commit(), or whose process dies leaves the target as it was: an
// existing file is never damaged, and no file that looks whole appears.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "parq/util/buffer.h"

namespace parq::io {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Appends; throws parq::Error naming the output when the write fails.
  virtual void write(const void* data, size_t n) = 0;
  void write(std::span<const uint8_t> bytes) { write(bytes.data(), bytes.size()); }
  // Bytes written so far: the file offset of the next byte.
  virtual uint64_t position() const = 0;
  // Makes everything written so far durable (a checkpoint); later writes
  // may follow. Outputs without a disk behind them do nothing.
  virtual void sync() {}
  // Makes everything written durable and visible under the final name. No
  // write may follow.
  virtual void commit() = 0;
  // A name for error messages (the target path, or "<memory>").
  virtual const std::string& name() const = 0;
};

// Writes `path` through a temporary file in its folder (see above). Throws
// parq::Error naming the folder when the temporary cannot be created.
std::unique_ptr<OutputStream> create_file(const std::string& path);

// Writes `path` itself, from its first byte (an existing file is replaced):
// for a writer that checkpoints (WriteOptions::checkpoint), whose partial
// file is what a crash leaves to recover. Destroyed without commit(), the
// partial file stays.
std::unique_ptr<OutputStream> create_file_in_place(const std::string& path);

// Collects the bytes in memory; commit() is a no-op.
class BufferOutput final : public OutputStream {
 public:
  void write(const void* data, size_t n) override { buffer_.append(data, n); }
  uint64_t position() const override { return buffer_.size(); }
  void commit() override {}
  const std::string& name() const override { return name_; }

  const Buffer& buffer() const { return buffer_; }
  Buffer take() { return std::move(buffer_); }

 private:
  Buffer buffer_;
  std::string name_ = "<memory>";
};

}  // namespace parq::io
