#include "parq/error.h"

namespace parq {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kCorrupt:
      return "corrupt";
    case ErrorKind::kInvalidArgument:
      return "invalid_argument";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kUnsupported:
      return "unsupported";
    case ErrorKind::kLimit:
      return "limit";
  }
  return "?";
}

std::string ErrorLocation::to_string() const {
  std::string out = file;
  std::string parts;
  auto add = [&parts](const std::string& part) {
    if (!parts.empty()) parts += ", ";
    parts += part;
  };
  if (!column.empty()) add("column " + column);
  if (row_group >= 0) add("row group " + std::to_string(row_group));
  if (page >= 0) add("page " + std::to_string(page));
  if (offset >= 0) {
    if (page >= 0) {
      parts += " (offset " + std::to_string(offset) + ")";
    } else {
      add("offset " + std::to_string(offset));
    }
  }
  if (!out.empty() && !parts.empty()) out += ": ";
  return out + parts;
}

ErrorLocation ErrorLocation::within(const ErrorLocation& outer) const {
  ErrorLocation l = *this;
  if (l.file.empty()) l.file = outer.file;
  if (l.row_group < 0) l.row_group = outer.row_group;
  if (l.column.empty()) l.column = outer.column;
  if (l.page < 0) l.page = outer.page;
  if (l.offset < 0) l.offset = outer.offset;
  return l;
}

std::string Error::message(const Info& info) {
  if (info.location.empty()) return info.detail;
  return info.location.to_string() + ": " + info.detail;
}

Error::Error(const std::string& message, ErrorKind kind)
    : std::runtime_error(message), info_(std::make_shared<const Info>(Info{kind, {}, message})) {}

Error::Error(ErrorKind kind, ErrorLocation location, const std::string& detail)
    : Error(std::make_shared<const Info>(Info{kind, std::move(location), detail})) {}

Error::Error(std::shared_ptr<const Info> info) : std::runtime_error(message(*info)), info_(std::move(info)) {}

Error Error::within(const ErrorLocation& outer) const {
  return Error(std::make_shared<const Info>(Info{kind(), location().within(outer), detail()}));
}

Error Error::with_context(const std::string& context) const {
  return Error(std::make_shared<const Info>(Info{kind(), location(), context + ": " + detail()}));
}

}  // namespace parq
