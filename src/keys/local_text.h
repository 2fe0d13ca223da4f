// Small local text files of the key tools: KMS configs and external key
// material.
//
// Private to the library (src/).
#pragma once

#include <string>

namespace parq::keys {

// The whole of `path`; throws parq::Error (kIo, naming the file and `what`
// it is) when it cannot be read, kCorrupt when it is too large to be `what`.
std::string read_local_text(const std::string& path, const std::string& what);

}  // namespace parq::keys
