// Finding a dataset's files: folders walked, globs matched, listings of
// object stores, each file with the root its partition folders are read
// below.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parq/io/remote.h"

namespace parq::dataset {

struct FoundFile {
  std::string location;
  uint64_t size = 0;
  // The part of `location` below the dataset's root (folders and name),
  // where partition folders are looked for.
  std::string relative;
};

// Whether a path component or path holds glob characters.
bool has_glob(std::string_view text);

// Glob matching of a '/'-separated path against a pattern: '*' and '?'
// within a component, '[abc]' / '[a-z]' / '[!a]' classes, '**' as a whole
// component for any number (zero included) of components.
bool glob_match(std::string_view pattern, std::string_view path);

// The files one location names, sorted by location: a file (its relative
// part is its name alone), a folder (every file below it, hidden and
// underscore components left out), or a glob. URLs likewise, an object
// store's prefix ending in '/' being its folder (listed with `remote`);
// a URL without either is one object. Throws parq::Error
// (kInvalidArgument) when nothing exists there or nothing matches.
std::vector<FoundFile> find_files(const std::string& location, const io::RemoteOptions& remote = {});

// Whether the path's last component is a summary file.
bool is_summary_file(std::string_view location);

}  // namespace parq::dataset
