// Where the tests find the shared corpus (../shared beside the checkout) and
// the built tool. A missing corpus is a test failure, never a silent skip.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace parq::testing {

std::filesystem::path shared_dir();
std::filesystem::path corpus_dir();  // shared/parquet-testing
std::filesystem::path golden_dir();  // shared/golden/parquet-testing
std::string tool_path();

// Every file below `dir` whose name contains ".parquet", sorted.
std::vector<std::filesystem::path> parquet_files(const std::filesystem::path& dir);

std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path);

// A fresh folder under the system's temporary one ("parq-TAG-XXXXXX"),
// removed with everything in it when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  // The path of `relative` inside the folder.
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

// Runs the tool with `args` (no shell), capturing stdout and stderr.
CommandResult run_tool(const std::vector<std::string>& args);

}  // namespace parq::testing
