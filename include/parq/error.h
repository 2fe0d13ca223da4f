// parq::Error: the one exception type the library throws.
//
// Every failure that comes from the data (a corrupt footer, a truncated page, a
// hostile count), from the system (a file that cannot be opened or read) or
// from the caller (a bad argument, an unknown column) is reported as an Error
// with a kind, which says whose fault it is, and a location, which says where
// in which file. Callers branch on the kind (the Python package raises
// OSError, ValueError or NotImplementedError by it; the tool picks its exit
// code by it) and read the location's fields instead of parsing the message.
// what() is the location followed by the detail: "f.parquet: column a.b, row
// group 2, page 7 (offset 81920): <detail>". Hot loops never throw per value:
// decoders validate whole runs up front and raise once.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace parq {

enum class ErrorKind : uint8_t {
  kCorrupt,          // the bytes are not valid Parquet, or not what their metadata says
  kInvalidArgument,  // the caller asked for something that cannot be (unknown column, bad option or filter)
  kIo,               // the system failed: open, read, write, sync, rename
  kUnsupported,      // valid, but needs what parq does not have here (a key for an encrypted column)
  kLimit,            // a limit the caller set (ReadOptions::memory_limit) is too small for the data
};

// "corrupt", "invalid_argument", "io", "unsupported", "limit": the names the
// Python package gives its exceptions' `kind`.
const char* to_string(ErrorKind kind);

// Where an error happened; a field left at its default is unknown.
struct ErrorLocation {
  std::string file;
  int64_t row_group = -1;
  std::string column;   // the dotted path of a leaf or group
  int64_t page = -1;    // the page's ordinal in its column chunk
  int64_t offset = -1;  // a byte offset in the file

  bool empty() const { return file.empty() && row_group < 0 && column.empty() && page < 0 && offset < 0; }
  // "file: column c, row group r, page p (offset o)", the known parts only.
  std::string to_string() const;
  // This location with the fields it lacks taken from `outer`.
  ErrorLocation within(const ErrorLocation& outer) const;
};

class Error : public std::runtime_error {
 public:
  // A message that carries its own context, of the given kind.
  explicit Error(const std::string& message, ErrorKind kind = ErrorKind::kCorrupt);
  Error(ErrorKind kind, ErrorLocation location, const std::string& detail);

  ErrorKind kind() const noexcept { return info_->kind; }
  const ErrorLocation& location() const noexcept { return info_->location; }
  // The message without the location.
  const std::string& detail() const noexcept { return info_->detail; }

  // The same error (kind and detail kept) placed inside `outer`: the fields
  // this error's location lacks come from there. Layers that know more of the
  // location than the one that threw (the file, the row group) add it so.
  Error within(const ErrorLocation& outer) const;
  // The same error with `context` put before its detail ("dictionary page:
  // <detail>"), its location kept.
  Error with_context(const std::string& context) const;

 private:
  struct Info {
    ErrorKind kind;
    ErrorLocation location;
    std::string detail;
  };
  explicit Error(std::shared_ptr<const Info> info);
  static std::string message(const Info& info);

  // Shared, so that copying an exception never throws.
  std::shared_ptr<const Info> info_;
};

}  // namespace parq
