// Real servers on loopback for the remote input tests: nginx (HTTP ranges),
// MinIO (S3 with SigV4, installed by scripts/install-remote-servers.sh) and
// tests/io/flaky_http_server.py (failures on cue). Each is started by the
// test on a free port from a temporary directory, waited for, and stopped
// when it goes out of scope. A server that cannot start is a test failure
// (thrown as std::runtime_error), never a skip.
#pragma once

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/s3_signing.h"
#include "parq/error.h"
#include "parq/io/remote.h"
#include "test_paths.h"

extern char** environ;

namespace parq::testing::remote {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using parq::testing::TempDir;

// Bytes the remote tests serve: `n` pseudo-random bytes from `seed`.
inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> out(n);
  std::mt19937 rng(seed);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

inline std::vector<uint8_t> slice(const std::vector<uint8_t>& v, uint64_t offset, uint64_t n) {
  return {v.begin() + static_cast<ptrdiff_t>(offset), v.begin() + static_cast<ptrdiff_t>(offset + n)};
}

inline std::vector<uint8_t> bytes_of(const io::ByteRange& r) { return {r.data(), r.data() + r.size()}; }

// Runs `f`, which must throw parq::Error; returns it.
template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return Error("none");
}

inline int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot bind a loopback port");
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// The status of `GET path` over a fresh connection, or 0 when nothing answers.
inline int raw_get_status(int port, const std::string& path) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  int status = 0;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string req = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
      char buf[64] = {};
      ssize_t n = ::recv(fd, buf, sizeof buf - 1, 0);
      if (n > 12 && std::string(buf, 5) == "HTTP/") status = std::atoi(buf + 9);
    }
  }
  ::close(fd);
  return status;
}

inline void write_file(const fs::path& path, const std::vector<uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A child process; killed (SIGTERM, then SIGKILL) when destroyed.
class Process {
 public:
  Process(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env, const fs::path& log) {
    std::vector<std::string> env_s;
    for (char** e = environ; *e != nullptr; ++e) env_s.emplace_back(*e);
    env_s.insert(env_s.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> args, envp;
    std::vector<std::string> argv_s = argv;
    for (auto& a : argv_s) args.push_back(a.data());
    args.push_back(nullptr);
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    int rc = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  ~Process() { stop(); }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  bool running() {
    if (pid_ <= 0) return false;
    int status;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || r < 0) {
      pid_ = -1;
      return false;
    }
    return true;
  }
  // Waits for the process to end; its exit status (-1 when killed).
  int wait() {
    int status = 0;
    if (pid_ <= 0 || ::waitpid(pid_, &status, 0) != pid_) return -1;
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void signal(int sig) {
    if (pid_ > 0) ::kill(pid_, sig);
  }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && running(); ++i) std::this_thread::sleep_for(50ms);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

 private:
  pid_t pid_ = -1;
};

// Waits until GET `path` on `port` answers `want` (any status when 0).
inline void wait_ready(Process& p, int port, const std::string& path, int want, const fs::path& log,
                       const std::string& what) {
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!p.running()) throw std::runtime_error(what + " exited at start:\n" + read_text(log));
    int status = raw_get_status(port, path);
    if (status != 0 && (want == 0 || status == want)) return;
    std::this_thread::sleep_for(50ms);
  }
  throw std::runtime_error(what + " not ready after 30 s:\n" + read_text(log));
}

// Runs a command to its end; throws when it fails.
inline void run_command(const std::vector<std::string>& argv, const fs::path& log) {
  Process p(argv, {}, log);
  if (p.wait() != 0) throw std::runtime_error(argv[0] + " failed:\n" + read_text(log));
}

// nginx serving root() on 127.0.0.1:port(), one process, access log kept;
// over TLS with a self-signed certificate for 127.0.0.1 (cert()) when `tls`.
class Nginx {
 public:
  explicit Nginx(bool tls = false) : dir_("nginx"), port_(free_port()) {
    fs::create_directories(root());
    const fs::path d = dir_.path();
    std::string listen = "127.0.0.1:" + std::to_string(port_);
    if (tls) {
      run_command(
          {"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", (d / "key.pem").string(), "-out",
           cert().string(), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"},
          d / "openssl.log");
      listen +=
          " ssl;\n    ssl_certificate " + cert().string() + ";\n    ssl_certificate_key " + (d / "key.pem").string();
    }
    std::ofstream conf(d / "nginx.conf");
    conf << "daemon off;\nmaster_process off;\nworker_processes 1;\npid " << (d / "nginx.pid").string() << ";\n"
         << "error_log " << (d / "error.log").string() << " info;\n"
         << "events { worker_connections 512; }\n"
         << "http {\n"
         << "  log_format ranges '$status \"$http_range\" $body_bytes_sent $connection $uri';\n"
         << "  access_log " << (d / "access.log").string() << " ranges;\n"
         << "  client_body_temp_path " << (d / "tmp").string() << ";\n"
         << "  proxy_temp_path " << (d / "tmp").string() << ";\n"
         << "  fastcgi_temp_path " << (d / "tmp").string() << ";\n"
         << "  uwsgi_temp_path " << (d / "tmp").string() << ";\n"
         << "  scgi_temp_path " << (d / "tmp").string() << ";\n"
         << "  keepalive_requests 100000;\n"
         << "  server {\n    listen " << listen << ";\n    root " << root().string() << ";\n  }\n}\n";
    conf.close();
    const std::string nginx = fs::exists("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
    process_ = std::make_unique<Process>(std::vector<std::string>{nginx, "-e", (d / "error.log").string(), "-p",
                                                                  d.string(), "-c", (d / "nginx.conf").string()},
                                         std::vector<std::string>{}, d / "stdout.log");
    wait_ready(*process_, port_, "/", 0, d / "error.log", "nginx");
  }
  fs::path root() const { return dir_.path() / "www"; }
  fs::path cert() const { return dir_.path() / "cert.pem"; }
  int port() const { return port_; }
  std::string url(const std::string& name) const { return "http://127.0.0.1:" + std::to_string(port_) + "/" + name; }
  std::string https_url(const std::string& name) const {
    return "https://127.0.0.1:" + std::to_string(port_) + "/" + name;
  }
  struct LogLine {
    int status = 0;
    std::string range;  // the Range header ("bytes=0-3"), "-" when none
    uint64_t bytes = 0;
    std::string connection;
  };
  // The access log's lines for /name, once there are at least `want` of
  // them (nginx writes a line just after the response, so a client can be
  // faster than the log); waits at most 5 s.
  std::vector<LogLine> access_log(const std::string& name, size_t want = 0) const {
    std::vector<LogLine> lines;
    auto deadline = std::chrono::steady_clock::now() + 5s;
    do {
      lines.clear();
      std::istringstream in(read_text(dir_.path() / "access.log"));
      for (std::string line; std::getline(in, line);) {
        LogLine l;
        std::istringstream f(line);
        std::string range, uri;
        f >> l.status >> std::quoted(l.range) >> l.bytes >> l.connection >> uri;
        if (uri == "/" + name) lines.push_back(l);
      }
      if (lines.size() >= want) break;
      std::this_thread::sleep_for(10ms);
    } while (std::chrono::steady_clock::now() < deadline);
    return lines;
  }
  Process& process() { return *process_; }

 private:
  TempDir dir_;
  int port_;
  std::unique_ptr<Process> process_;
};

inline fs::path server_bin_dir() {
  if (const char* d = std::getenv("PARQ_REMOTE_SERVERS_DIR")) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') return fs::path(x) / "parq" / "bin";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : "/root") / ".cache" / "parq" / "bin";
}

// MinIO on 127.0.0.1:port(): a real S3 server that checks SigV4.
class Minio {
 public:
  static constexpr const char* kAccessKey = "parqtestadmin";
  static constexpr const char* kSecretKey = "parq-test-secret-key";

  Minio() : dir_("minio"), port_(free_port()) {
    const fs::path binary = server_bin_dir() / "minio";
    if (!fs::exists(binary))
      throw std::runtime_error("MinIO not found at " + binary.string() +
                               ": run scripts/install-remote-servers.sh (or set PARQ_REMOTE_SERVERS_DIR)");
    const int console = free_port();
    process_ = std::make_unique<Process>(
        std::vector<std::string>{binary.string(), "server", (dir_.path() / "data").string(), "--address",
                                 "127.0.0.1:" + std::to_string(port_), "--console-address",
                                 "127.0.0.1:" + std::to_string(console), "--quiet"},
        std::vector<std::string>{std::string("MINIO_ROOT_USER=") + kAccessKey,
                                 std::string("MINIO_ROOT_PASSWORD=") + kSecretKey, "MINIO_BROWSER=off",
                                 "MINIO_UPDATE=off", "MINIO_CI_CD=1", "HOME=" + dir_.path().string()},
        dir_.path() / "minio.log");
    wait_ready(*process_, port_, "/minio/health/ready", 200, dir_.path() / "minio.log", "MinIO");
  }

  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  Process& process() { return *process_; }
  io::RemoteOptions options() const {
    io::RemoteOptions o;
    o.endpoint = endpoint();
    o.access_key_id = kAccessKey;
    o.secret_access_key = kSecretKey;
    o.region = "us-east-1";
    return o;
  }

  void create_bucket(const std::string& bucket) { request("PUT", "/" + bucket, {}, 200); }
  void put(const std::string& bucket, const std::string& key, const std::vector<uint8_t>& bytes) {
    request("PUT", "/" + bucket + "/" + io::s3::uri_encode(key, true), bytes, 200);
  }

 private:
  static size_t discard(char*, size_t size, size_t n, void*) { return size * n; }
  struct Body {
    const std::vector<uint8_t>* bytes;
    size_t pos = 0;
  };
  static size_t read_body(char* out, size_t size, size_t n, void* user) {
    auto* b = static_cast<Body*>(user);
    size_t k = std::min(size * n, b->bytes->size() - b->pos);
    std::memcpy(out, b->bytes->data() + b->pos, k);
    b->pos += k;
    return k;
  }

  // A signed request with a body, on a handle kept for its connection;
  // a server still starting (503) is asked again for up to 10 s.
  void request(const std::string& method, const std::string& path, const std::vector<uint8_t>& body, long want) {
    for (int attempt = 0;; ++attempt) {
      long status = request_once(method, path, body);
      if (status == want) return;
      if (status != 503 || attempt >= 100)
        throw std::runtime_error(method + " " + path + " to MinIO: HTTP " + std::to_string(status) + " (0: no answer)");
      std::this_thread::sleep_for(100ms);
    }
  }
  long request_once(const std::string& method, const std::string& path, const std::vector<uint8_t>& body) {
    if (easy_ == nullptr) easy_.reset(curl_easy_init());
    CURL* e = easy_.get();
    curl_easy_reset(e);
    const std::string host = "127.0.0.1:" + std::to_string(port_);
    const std::string payload(reinterpret_cast<const char*>(body.data()), body.size());
    io::s3::SignedHeaders sig = io::s3::sign_request({kAccessKey, kSecretKey, ""}, "us-east-1", method, host, path, {},
                                                     std::time(nullptr), io::s3::sha256_hex(payload));
    curl_slist* headers = nullptr;
    for (const auto& line : sig.lines) headers = curl_slist_append(headers, line.c_str());
    const std::string url = endpoint() + path;
    Body b{&body};
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(e, CURLOPT_READFUNCTION, read_body);
    curl_easy_setopt(e, CURLOPT_READDATA, &b);
    curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(e);
    long status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    return rc == CURLE_OK ? status : 0;
  }

  struct EasyCleanup {
    void operator()(CURL* e) const { curl_easy_cleanup(e); }
  };
  TempDir dir_;
  int port_;
  std::unique_ptr<Process> process_;
  std::unique_ptr<CURL, EasyCleanup> easy_;
};

// A Python script under tests/io/ that prints its port on its first line.
class ScriptServer {
 public:
  ScriptServer(const std::string& script, const std::vector<std::string>& args) : dir_("script") {
    std::vector<std::string> argv = {"python3", (fs::path(PARQ_SOURCE_DIR) / "tests" / "io" / script).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    process_ = std::make_unique<Process>(argv, std::vector<std::string>{}, dir_.path() / "out.log");
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (port_ == 0) {
      std::string out = read_text(dir_.path() / "out.log");
      if (out.find('\n') != std::string::npos) port_ = std::atoi(out.c_str());
      if (port_ != 0) break;
      if (!process_->running() || std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error(script + " did not start:\n" + out);
      std::this_thread::sleep_for(20ms);
    }
  }
  int port() const { return port_; }

 private:
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<Process> process_;
};

// tests/io/flaky_http_server.py serving `file`: the first `fail_first`
// requests after `skip_first` fail as `mode` says.
class FlakyServer : public ScriptServer {
 public:
  FlakyServer(const fs::path& file, const std::string& mode, int fail_first, int skip_first = 0, int status = 503,
              const std::string& retry_after = "")
      : ScriptServer("flaky_http_server.py", {"--file", file.string(), "--mode", mode, "--fail-first",
                                              std::to_string(fail_first), "--skip-first", std::to_string(skip_first),
                                              "--status", std::to_string(status), "--retry-after", retry_after}) {}
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port()) + "/file"; }
};

// tests/io/latency_proxy.py in front of `target_port`: `delay_ms` each way.
class LatencyProxy : public ScriptServer {
 public:
  LatencyProxy(int target_port, double delay_ms)
      : ScriptServer("latency_proxy.py",
                     {"--target-port", std::to_string(target_port), "--delay-ms", std::to_string(delay_ms)}) {}
  std::string url(const std::string& name) const { return "http://127.0.0.1:" + std::to_string(port()) + "/" + name; }
};

}  // namespace parq::testing::remote
