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

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

// Runs the tool with `args` (no shell), capturing stdout and stderr.
CommandResult run_tool(const std::vector<std::string>& args);

}  // namespace parq::testing
