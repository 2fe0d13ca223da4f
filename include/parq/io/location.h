// Opening a location, a local path or a URL, as one input: what the
// reader, datasets, the tool and the Python package call, so that every
// place that takes a file takes http://, https:// and s3:// too.
#pragma once

#include <memory>
#include <string>

#include "parq/io/input.h"
#include "parq/io/remote.h"

namespace parq::io {

struct LocationOptions {
  FileAccess access = FileAccess::kMemoryMap;  // local files
  RemoteOptions remote;                        // URLs
};

// open_url() for a URL (is_url), open_file() otherwise; throws as they do.
std::unique_ptr<RandomAccessInput> open_location(const std::string& location, const LocationOptions& options = {});

}  // namespace parq::io
