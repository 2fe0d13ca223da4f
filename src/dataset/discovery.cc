// Finding a dataset's files; see discovery.h.
#include "discovery.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "parq/error.h"

namespace parq::dataset {
namespace fs = std::filesystem;
namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// '[...]' at pattern[p] (p at '['): whether `c` is in the class; `p` moves
// past it. A '[' without its ']' is a literal.
bool match_class(std::string_view pattern, size_t& p, char c, bool& is_class) {
  size_t q = p + 1;
  bool negate = q < pattern.size() && (pattern[q] == '!' || pattern[q] == '^');
  if (negate) ++q;
  size_t close = pattern.find(']', q + 1);  // a ']' first in the class is one of its characters
  if (close == std::string_view::npos) {
    is_class = false;
    return false;
  }
  is_class = true;
  bool found = false;
  for (size_t i = q; i < close; ++i) {
    if (i + 2 < close && pattern[i + 1] == '-') {
      found |= pattern[i] <= c && c <= pattern[i + 2];
      i += 2;
    } else {
      found |= pattern[i] == c;
    }
  }
  p = close + 1;
  return found != negate;
}

// One component against one component pattern (no '/'); iterative, with
// one backtracking point for the last '*', so no pattern is exponential.
bool match_component(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_n = n;
      continue;
    }
    if (p < pattern.size()) {
      if (pattern[p] == '?') {
        ++p;
        ++n;
        continue;
      }
      if (pattern[p] == '[') {
        size_t q = p;
        bool is_class = false;
        bool in = match_class(pattern, q, name[n], is_class);
        if (is_class) {
          if (in) {
            p = q;
            ++n;
            continue;
          }
        } else if (name[n] == '[') {
          ++p;
          ++n;
          continue;
        }
      } else if (pattern[p] == name[n]) {
        ++p;
        ++n;
        continue;
      }
    }
    if (star == std::string_view::npos) return false;
    p = star + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool match_parts(const std::vector<std::string_view>& pattern, size_t p, const std::vector<std::string_view>& path,
                 size_t n) {
  // '**' components make this a search; memoize on (p, n) to stay
  // polynomial.
  std::vector<std::vector<int8_t>> memo(pattern.size() + 1, std::vector<int8_t>(path.size() + 1, -1));
  auto go = [&](auto& self, size_t i, size_t j) -> bool {
    int8_t& m = memo[i][j];
    if (m >= 0) return m != 0;
    bool r;
    if (i == pattern.size()) {
      r = j == path.size();
    } else if (pattern[i] == "**") {
      r = self(self, i + 1, j) || (j < path.size() && self(self, i, j + 1));
    } else {
      r = j < path.size() && match_component(pattern[i], path[j]) && self(self, i + 1, j + 1);
    }
    m = r ? 1 : 0;
    return r;
  };
  return go(go, p, n);
}

bool hidden(std::string_view component) {
  return !component.empty() && (component.front() == '.' || component.front() == '_');
}

std::string join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out += '/';
  out += b;
  return out;
}

// Every regular file below `root`, relative paths with '/'; `skip_hidden`
// leaves out components starting with '.' or '_'.
std::vector<std::pair<std::string, uint64_t>> walk(const std::string& root, bool skip_hidden) {
  std::vector<std::pair<std::string, uint64_t>> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  if (ec) throw Error(ErrorKind::kIo, {.file = root}, "cannot list the folder: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw Error(ErrorKind::kIo, {.file = root}, "cannot list the folder: " + ec.message());
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    if (skip_hidden && hidden(name)) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(ec)) continue;
    // Lexically: fs::relative resolves symlinks, which would give every
    // link to one file the target's path (and one location).
    std::string rel = entry.path().lexically_relative(root).generic_string();
    if (rel.empty() || rel.rfind("..", 0) == 0) rel = entry.path().filename().string();
    out.emplace_back(std::move(rel), static_cast<uint64_t>(entry.file_size(ec)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool has_glob(std::string_view text) { return text.find_first_of("*?[") != std::string_view::npos; }

bool glob_match(std::string_view pattern, std::string_view path) {
  return match_parts(split_path(pattern), 0, split_path(path), 0);
}

bool is_summary_file(std::string_view location) {
  const size_t slash = location.rfind('/');
  std::string_view name = slash == std::string_view::npos ? location : location.substr(slash + 1);
  return name == "_metadata";
}

namespace {

std::vector<FoundFile> find_objects(const std::string& url, const io::RemoteOptions& remote) {
  std::vector<FoundFile> out;
  const size_t scheme = url.find("://") + 3;
  // The listing's prefix: up to the first component with a glob character
  // (or all of a folder's URL); the rest is matched against the keys.
  size_t glob_at = url.find_first_of("*?[", scheme);
  std::string prefix, pattern;
  if (glob_at == std::string::npos) {
    if (url.back() != '/') {
      const size_t slash = url.rfind('/');
      out.push_back({url, 0, url.substr(slash + 1)});
      return out;
    }
    prefix = url;
  } else {
    const size_t slash = url.rfind('/', glob_at);
    prefix = url.substr(0, slash + 1);
    pattern = url.substr(slash + 1);
  }
  for (io::ObjectInfo& o : io::list_objects(prefix, remote)) {
    if (o.url.compare(0, prefix.size(), prefix) != 0) continue;
    std::string rel = o.url.substr(prefix.size());
    if (pattern.empty()) {
      bool skip = false;
      for (std::string_view part : split_path(rel)) skip |= hidden(part);
      if (skip) continue;
    } else if (!match_parts(split_path(pattern), 0, split_path(rel), 0)) {
      continue;
    }
    out.push_back({std::move(o.url), o.size, std::move(rel)});
  }
  std::sort(out.begin(), out.end(), [](const FoundFile& a, const FoundFile& b) { return a.location < b.location; });
  if (out.empty())
    throw Error(ErrorKind::kInvalidArgument, {.file = url},
                pattern.empty() ? "no object under the prefix" : "no object matches the glob");
  return out;
}

}  // namespace

std::vector<FoundFile> find_files(const std::string& location, const io::RemoteOptions& remote) {
  if (io::is_url(location)) return find_objects(location, remote);
  std::vector<FoundFile> out;
  if (!has_glob(location)) {
    std::error_code ec;
    fs::file_status st = fs::status(location, ec);
    if (ec || !fs::exists(st)) throw Error(ErrorKind::kIo, {.file = location}, "no such file or folder");
    if (fs::is_directory(st)) {
      for (auto& [rel, size] : walk(location, true)) out.push_back({join(location, rel), size, rel});
      if (out.empty()) throw Error(ErrorKind::kInvalidArgument, {.file = location}, "the folder holds no data file");
      return out;
    }
    const size_t slash = location.rfind('/');
    out.push_back({location, static_cast<uint64_t>(fs::file_size(location, ec)),
                   slash == std::string::npos ? location : location.substr(slash + 1)});
    return out;
  }
  // The root: the components before the first with a glob character.
  const bool absolute = location.front() == '/';
  std::vector<std::string_view> parts = split_path(location);
  std::string root = absolute ? "/" : "";
  size_t first = 0;
  for (; first < parts.size() && !has_glob(parts[first]); ++first) root = join(root, parts[first]);
  std::vector<std::string_view> rest(parts.begin() + static_cast<std::ptrdiff_t>(first), parts.end());
  const std::string walk_root = root.empty() ? "." : root;
  std::error_code ec;
  if (!fs::is_directory(walk_root, ec))
    throw Error(ErrorKind::kIo, {.file = location}, "the glob's folder '" + walk_root + "' does not exist");
  for (auto& [rel, size] : walk(walk_root, false)) {
    if (!match_parts(rest, 0, split_path(rel), 0)) continue;
    out.push_back({join(root, rel), size, rel});
  }
  if (out.empty()) throw Error(ErrorKind::kInvalidArgument, {.file = location}, "no file matches the glob");
  return out;
}

}  // namespace parq::dataset
