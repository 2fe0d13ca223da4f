// open_location: a path or a URL; see location.h.
#include "parq/io/location.h"

namespace parq::io {

std::unique_ptr<RandomAccessInput> open_location(const std::string& location, const LocationOptions& options) {
  if (is_url(location)) return open_url(location, options.remote);
  return open_file(location, options.access);
}

}  // namespace parq::io
