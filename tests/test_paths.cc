// Corpus locations and running the built tool from tests.
#include "test_paths.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

extern char** environ;

namespace parq::testing {

std::filesystem::path shared_dir() {
  std::filesystem::path dir = std::filesystem::path(PARQ_SOURCE_DIR) / ".." / "shared";
  if (const char* env = std::getenv("PARQ_SHARED_DIR")) dir = env;
  if (!std::filesystem::is_directory(dir / "parquet-testing"))
    throw std::runtime_error("shared corpus not found at " + dir.string() + " (set PARQ_SHARED_DIR)");
  return dir;
}

std::filesystem::path corpus_dir() { return shared_dir() / "parquet-testing"; }
std::filesystem::path golden_dir() { return shared_dir() / "golden" / "parquet-testing"; }
std::string tool_path() { return PARQ_TOOL_PATH; }

std::vector<std::filesystem::path> parquet_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (name.find(".parquet") != std::string::npos && name.find(".json") == std::string::npos)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

namespace {

std::string slurp_fd(int fd) {
  std::string s;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  return s;
}

std::string temp_path(const char* tag) {
  std::string p = (std::filesystem::temp_directory_path() / (std::string("parq-test-") + tag + "-XXXXXX")).string();
  int fd = ::mkstemp(p.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  ::close(fd);
  return p;
}

}  // namespace

CommandResult run_tool(const std::vector<std::string>& args) {
  // Output goes to temporary files so that large outputs cannot deadlock a pipe.
  std::string out_path = temp_path("out"), err_path = temp_path("err");
  std::vector<std::string> argv_s = {tool_path()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_TRUNC, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot run " + tool_path());
  int status = 0;
  ::waitpid(pid, &status, 0);

  CommandResult result;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  for (auto [path, dest] : {std::pair{&out_path, &result.out}, std::pair{&err_path, &result.err}}) {
    int fd = ::open(path->c_str(), O_RDONLY);
    *dest = slurp_fd(fd);
    ::close(fd);
    std::filesystem::remove(*path);
  }
  return result;
}

TempDir::TempDir(const std::string& tag) {
  std::string p = (std::filesystem::temp_directory_path() / ("parq-" + tag + "-XXXXXX")).string();
  if (::mkdtemp(p.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = p;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace parq::testing
