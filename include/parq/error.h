// parq::Error: the one exception type the library throws.
//
// Every failure that comes from the data (a corrupt footer, a truncated page, a
// hostile count) or from the caller (a bad argument, a missing file) is reported
// as an Error whose message names what is wrong and where (byte offset, column,
// row group). Hot loops never throw per value: decoders validate whole runs up
// front and raise once.
#pragma once

#include <stdexcept>
#include <string>

namespace parq {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace parq
