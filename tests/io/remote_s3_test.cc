// Remote inputs over s3:// against MinIO on loopback, which checks every
// request's SigV4 signature: ranged reads, a Parquet file read back, wrong
// credentials, missing keys and buckets, an object replaced during a read,
// listings past 1000 keys and under prefixes, credentials from the
// environment and the shared files.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/io/remote.h"
#include "parq/text/row_text.h"
#include "remote_servers.h"
#include "test_paths.h"

namespace parq::io {
namespace {

using namespace parq::testing::remote;
namespace fs = std::filesystem;

std::string rows_of(const FileReader& file) {
  auto source = read_batches(file);
  RecordBatch batch;
  std::string out;
  while (source->next(batch)) text::append_rows_jsonl(out, batch, 0, batch.num_rows);
  return out;
}

class RemoteS3 : public ::testing::Test {
 protected:
  // The server starts with the suite's first test, in SetUp: a server that
  // cannot start fails the test (in SetUpTestSuite gtest would skip it).
  void SetUp() override {
    if (server_ == nullptr) {
      server_ = new Minio();
      server_->create_bucket("data");
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static Minio* server_;
};
Minio* RemoteS3::server_ = nullptr;

TEST_F(RemoteS3, SignedRangedReads) {
  const auto data = random_bytes(3 << 20, 1);
  server_->put("data", "dir/blob.bin", data);
  auto input = open_url("s3://data/dir/blob.bin", server_->options());
  ASSERT_EQ(input->size(), data.size());
  EXPECT_EQ(input->name(), "s3://data/dir/blob.bin");
  EXPECT_EQ(remote_stats(*input)->requests, 1u);
  std::vector<FileRange> ranges;
  for (uint64_t i = 0; i < 50; ++i) ranges.push_back({i * 50000, 2000});
  ranges.push_back({data.size() - 10, 10});
  auto got = input->read_ranges(ranges);
  for (size_t i = 0; i < ranges.size(); ++i)
    EXPECT_EQ(bytes_of(got[i]), slice(data, ranges[i].offset, ranges[i].length)) << i;
  // 50 ranges of 2 KB, 48 KB apart: merging would fetch 24 times the bytes
  // asked for, so each is its own request (run concurrently); the last is
  // in the tail.
  EXPECT_EQ(remote_stats(*input)->requests, 51u);
  EXPECT_EQ(remote_stats(*input)->bytes_wasted, 0u);
  // 50 ranges of 2 KB, 100 bytes apart: one request.
  ranges.clear();
  for (uint64_t i = 0; i < 50; ++i) ranges.push_back({1000000 + i * 2100, 2000});
  got = input->read_ranges(ranges);
  for (size_t i = 0; i < ranges.size(); ++i)
    EXPECT_EQ(bytes_of(got[i]), slice(data, ranges[i].offset, ranges[i].length)) << i;
  EXPECT_EQ(remote_stats(*input)->requests, 52u);
}

TEST_F(RemoteS3, KeysWithCharactersToEncode) {
  const auto data = random_bytes(5000, 2);
  const std::string key = "odd dir/a+b=c&d~e%f(1)ü.bin";
  server_->put("data", key, data);
  auto input = open_url("s3://data/" + key, server_->options());
  ASSERT_EQ(input->size(), data.size());
  std::vector<uint8_t> out(data.size());
  input->read_at(0, out.size(), out.data());
  EXPECT_EQ(out, data);
}

TEST_F(RemoteS3, ParquetFileReadsTheSameAsLocally) {
  TempDir dir("s3-parquet");
  std::string csv = "id,city,score\n";
  for (int i = 0; i < 50000; ++i)
    csv += std::to_string(i) + ",city" + std::to_string(i % 977) + "," + std::to_string(i % 101 * 1.5) + "\n";
  std::ofstream(dir.path() / "rows.csv") << csv;
  const fs::path local = dir.path() / "rows.parquet";
  auto result = parq::testing::run_tool(
      {"convert", (dir.path() / "rows.csv").string(), local.string(), "--row-group-rows", "10000"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  server_->put("data", "tables/rows.parquet", parq::testing::read_file_bytes(local));

  auto remote = FileReader::open(open_url("s3://data/tables/rows.parquet", server_->options()));
  EXPECT_EQ(remote->metadata().row_groups.size(), 5u);
  EXPECT_EQ(rows_of(*remote), rows_of(*FileReader::open(local.string())));
  // One request per row group at most, besides the open and the leading magic.
  EXPECT_LE(remote_stats(remote->input())->requests, 2u + 5u);

  const fs::path cities = dir.path() / "cities.parquet";
  result = parq::testing::run_tool(
      {"convert", (fs::path(PARQ_SOURCE_DIR) / "examples" / "cities.csv").string(), cities.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  server_->put("data", "cities.parquet", parq::testing::read_file_bytes(cities));
  auto remote_cities = FileReader::open(open_url("s3://data/cities.parquet", server_->options()));
  EXPECT_EQ(rows_of(*remote_cities), rows_of(*FileReader::open(cities.string())));
  EXPECT_EQ(remote_stats(remote_cities->input())->requests, 1u);  // the whole file was in the tail
}

TEST_F(RemoteS3, WrongCredentialsAre403WithTheS3Error) {
  server_->put("data", "secret.bin", random_bytes(100, 3));
  RemoteOptions bad = server_->options();
  bad.secret_access_key = "not-the-secret";
  Error e = error_of([&] { open_url("s3://data/secret.bin", bad); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_EQ(e.location().file, "s3://data/secret.bin");
  EXPECT_NE(e.detail().find("403 Forbidden"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("SignatureDoesNotMatch"), std::string::npos) << e.what();

  bad.access_key_id = "NOSUCHKEY";
  e = error_of([&] { open_url("s3://data/secret.bin", bad); });
  EXPECT_NE(e.detail().find("InvalidAccessKeyId"), std::string::npos) << e.what();

  // Unsigned requests to a private bucket.
  RemoteOptions anonymous = server_->options();
  anonymous.anonymous = true;
  e = error_of([&] { open_url("s3://data/secret.bin", anonymous); });
  EXPECT_NE(e.detail().find("AccessDenied"), std::string::npos) << e.what();
}

TEST_F(RemoteS3, MissingKeyAndBucketAre404) {
  Error e = error_of([&] { open_url("s3://data/no/such/key.parquet", server_->options()); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("404 Not Found"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("NoSuchKey"), std::string::npos) << e.what();
  e = error_of([&] { open_url("s3://no-such-bucket/key.parquet", server_->options()); });
  EXPECT_NE(e.detail().find("NoSuchBucket"), std::string::npos) << e.what();
  e = error_of([&] { list_objects("s3://no-such-bucket/", server_->options()); });
  EXPECT_NE(e.detail().find("NoSuchBucket"), std::string::npos) << e.what();
}

TEST_F(RemoteS3, ObjectReplacedDuringTheReadIsAnError) {
  const auto data = random_bytes(1 << 20, 4);
  server_->put("data", "changing.bin", data);
  auto input = open_url("s3://data/changing.bin", server_->options());
  std::vector<uint8_t> out(1000);
  input->read_at(0, out.size(), out.data());
  EXPECT_EQ(out, slice(data, 0, 1000));
  server_->put("data", "changing.bin", random_bytes(1 << 20, 5));  // same size, new ETag
  Error e = error_of([&] { input->read_at(1000, out.size(), out.data()); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("changed during the read"), std::string::npos) << e.what();
}

TEST_F(RemoteS3, ListingFollowsContinuationTokensAndPrefixes) {
  server_->create_bucket("many");
  const std::vector<uint8_t> small = {1, 2, 3};
  // 1100 keys under a/ (more than one page of 1000), 5 under b/, a
  // directory marker, and a/ keys of several sizes.
  std::vector<std::string> keys;
  for (int i = 0; i < 1100; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "a/part-%05d.parquet", i);
    keys.push_back(name);
  }
  for (size_t i = 0; i < keys.size(); ++i) server_->put("many", keys[i], std::vector<uint8_t>(i % 7, 0));
  for (int i = 0; i < 5; ++i) server_->put("many", "b/x" + std::to_string(i), small);
  server_->put("many", "b/sub/", {});
  server_->put("many", "ab", small);

  auto all = list_objects("s3://many", server_->options());
  EXPECT_EQ(all.size(), 1100u + 5 + 1);
  auto a = list_objects("s3://many/a/", server_->options());
  ASSERT_EQ(a.size(), 1100u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].url, "s3://many/" + keys[i]);
    EXPECT_EQ(a[i].size, i % 7);
  }
  auto b = list_objects("s3://many/b/", server_->options());
  ASSERT_EQ(b.size(), 5u);  // the marker b/sub/ left out
  EXPECT_EQ(b[0].url, "s3://many/b/x0");
  EXPECT_EQ(b[0].size, 3u);
  // A prefix that is not a folder.
  auto part = list_objects("s3://many/a/part-0105", server_->options());
  ASSERT_EQ(part.size(), 10u);
  EXPECT_EQ(part.front().url, "s3://many/a/part-01050.parquet");
  EXPECT_TRUE(list_objects("s3://many/zzz", server_->options()).empty());

  Error e = error_of([&] { list_objects("http://127.0.0.1/x/"); });
  EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
  EXPECT_NE(e.detail().find("cannot list objects over HTTP"), std::string::npos);
}

TEST_F(RemoteS3, CredentialsAndEndpointFromTheEnvironmentAndSharedFiles) {
  const auto data = random_bytes(2000, 6);
  server_->put("data", "env.bin", data);
  TempDir dir("aws-files");
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  auto set = [&](const char* name, const std::string* value) {
    const char* old = std::getenv(name);
    saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  };
  const std::string key = Minio::kAccessKey, secret = Minio::kSecretKey, endpoint = server_->endpoint();
  const std::string credentials = (dir.path() / "credentials").string(), config = (dir.path() / "config").string();
  std::ofstream(credentials) << "[test]\naws_access_key_id = " << key << "\naws_secret_access_key = " << secret << "\n";
  std::ofstream(config) << "[profile test]\nregion = us-east-1\nendpoint_url = " << endpoint << "\n";
  const std::string profile = "test";
  for (const char* v : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION",
                        "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL_S3"})
    set(v, nullptr);
  set("AWS_ENDPOINT_URL", &endpoint);
  set("AWS_ACCESS_KEY_ID", &key);
  set("AWS_SECRET_ACCESS_KEY", &secret);
  {
    auto input = open_url("s3://data/env.bin");
    EXPECT_EQ(input->size(), data.size());
  }
  set("AWS_ACCESS_KEY_ID", nullptr);
  set("AWS_SECRET_ACCESS_KEY", nullptr);
  set("AWS_ENDPOINT_URL", nullptr);
  set("AWS_PROFILE", &profile);
  set("AWS_SHARED_CREDENTIALS_FILE", &credentials);
  set("AWS_CONFIG_FILE", &config);
  {
    auto input = open_url("s3://data/env.bin");
    std::vector<uint8_t> out(data.size());
    input->read_at(0, out.size(), out.data());
    EXPECT_EQ(out, data);
  }
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    if (it->second) {
      ::setenv(it->first.c_str(), it->second->c_str(), 1);
    } else {
      ::unsetenv(it->first.c_str());
    }
  }
}

TEST(RemoteS3Failures, ServerStoppedMidReadIsAClearError) {
  Minio server;
  server.create_bucket("stopping");
  server.put("stopping", "k", random_bytes(1 << 20, 7));
  RemoteOptions options = server.options();
  options.max_retries = 1;
  options.retry_base_ms = 20;
  auto input = open_url("s3://stopping/k", options);
  server.process().stop();
  std::vector<uint8_t> out(100);
  const auto start = std::chrono::steady_clock::now();
  Error e = error_of([&] { input->read_at(0, out.size(), out.data()); });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_NE(e.detail().find("cannot connect"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace parq::io
