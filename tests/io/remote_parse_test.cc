// The remote inputs' pure parts, without a server: HTTP header parsing,
// the S3 XML reader, range coalescing, SigV4 against AWS's published
// example, and where credentials and endpoints come from.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/http_parse.h"
#include "io/range_coalescing.h"
#include "io/s3_config.h"
#include "io/s3_signing.h"
#include "io/s3_xml.h"
#include "parq/error.h"
#include "parq/io/remote.h"

namespace parq::io {
namespace {

TEST(RemoteParse, IsUrl) {
  EXPECT_TRUE(is_url("http://h/x"));
  EXPECT_TRUE(is_url("HTTPS://h/x"));
  EXPECT_TRUE(is_url("s3://bucket/key"));
  EXPECT_FALSE(is_url("/tmp/x.parquet"));
  EXPECT_FALSE(is_url("file:///tmp/x"));
  EXPECT_FALSE(is_url("s3:/bucket"));
  EXPECT_FALSE(is_url("data/http://x"));
}

TEST(RemoteParse, ContentRange) {
  auto r = http::parse_content_range("bytes 0-99/1000");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has_range);
  EXPECT_EQ(r->first, 0u);
  EXPECT_EQ(r->last, 99u);
  EXPECT_EQ(r->total, 1000u);
  r = http::parse_content_range("bytes 5-9/*");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->total.has_value());
  r = http::parse_content_range("bytes */0");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->has_range);
  EXPECT_EQ(r->total, 0u);
  for (const char* bad : {"", "bytes", "items 0-1/2", "bytes 9-5/10", "bytes 0-10/10", "bytes 0-1", "bytes */*",
                          "bytes -1-2/3", "bytes 0-99999999999999999999/1", "bytes 0x1-2/3", "bytes 1-2/3x"})
    EXPECT_FALSE(http::parse_content_range(bad)) << bad;
}

TEST(RemoteParse, RetryAfterSecondsOrDate) {
  using http::parse_retry_after;
  EXPECT_EQ(parse_retry_after("120", 0), 120u);
  EXPECT_EQ(parse_retry_after(" 0 ", 0), 0u);
  // 1445412480 is Wed, 21 Oct 2015 07:28:00 GMT.
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412480 - 30), 30u);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1445412480 + 5), 0u);  // past
  EXPECT_EQ(parse_retry_after("Thu, 29 Feb 2024 23:59:59 GMT", 1709251199 - 1), 1u);
  EXPECT_EQ(parse_retry_after("Sat, 01 Jan 2000 00:00:00 GMT", 946684800 - 3600), 3600u);
  for (const char* bad : {"", "-5", "1.5", "soon", "Wed, 21 Oct 2015 07:28:00 UTC", "Wed, 21 Foo 2015 07:28:00 GMT",
                          "Wed, 32 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 24:28:00 GMT", "99999999999999999999"})
    EXPECT_FALSE(parse_retry_after(bad, 0)) << bad;
}

TEST(RemoteParse, StatusAndHeaderLines) {
  EXPECT_EQ(http::parse_status_line("HTTP/1.1 206 Partial Content\r\n"), 206);
  EXPECT_EQ(http::parse_status_line("HTTP/2 200\r\n"), 200);
  EXPECT_FALSE(http::parse_status_line("ETag: \"x\"\r\n"));
  EXPECT_FALSE(http::parse_status_line("HTTP/1.1 2x6 Oops"));
  std::string_view name, value;
  ASSERT_TRUE(http::parse_header_line("ETag:   \"abc\" \r\n", name, value));
  EXPECT_EQ(name, "ETag");
  EXPECT_EQ(value, "\"abc\"");
  EXPECT_FALSE(http::parse_header_line("\r\n", name, value));
  EXPECT_TRUE(http::is_strong_etag("\"abc\""));
  EXPECT_FALSE(http::is_strong_etag("W/\"abc\""));
  EXPECT_FALSE(http::is_strong_etag("abc"));
  EXPECT_NE(http::describe_status(403).find("access denied"), std::string::npos);
  EXPECT_NE(http::describe_status(404).find("no such object"), std::string::npos);
  EXPECT_TRUE(http::is_retryable_status(503));
  EXPECT_TRUE(http::is_retryable_status(429));
  EXPECT_FALSE(http::is_retryable_status(404));
}

TEST(RemoteParse, ListPage) {
  const std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>d/</Prefix>
<KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
<Contents><Key>d/a&amp;b.parquet</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>
<ETag>&quot;x&quot;</ETag><Size>123</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key><![CDATA[d/<c>.parquet]]></Key><Size>0</Size><Owner><ID>1</ID></Owner></Contents>
<!-- a comment --><NextContinuationToken>tok&#x2F;1&#65;</NextContinuationToken></ListBucketResult>)";
  s3::ListPage page = s3::parse_list_page(xml);
  ASSERT_EQ(page.objects.size(), 2u);
  EXPECT_EQ(page.objects[0].key, "d/a&b.parquet");
  EXPECT_EQ(page.objects[0].size, 123u);
  EXPECT_EQ(page.objects[1].key, "d/<c>.parquet");
  EXPECT_TRUE(page.truncated);
  EXPECT_EQ(page.next_continuation_token, "tok/1A");
}

TEST(RemoteParse, HostileXmlIsRefused) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "<a>";
  const std::vector<std::string> bad = {
      "",
      "<ListBucketResult>",
      "<ListBucketResult></Other>",
      "<Other></Other>",
      R"(<!DOCTYPE lolz [<!ENTITY lol "lol">]><ListBucketResult>&lol;</ListBucketResult>)",
      "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
      "<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
      "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
      "<ListBucketResult><IsTruncated>maybe</IsTruncated></ListBucketResult>",
      "<ListBucketResult>&#0;</ListBucketResult>",
      "<ListBucketResult>&#xD800;</ListBucketResult>",
      "<ListBucketResult>&bogus;</ListBucketResult>",
      "<ListBucketResult a=b></ListBucketResult>",
      "<ListBucketResult/><Second/>",
      "text<ListBucketResult/>",
      "<ListBucketResult><![CDATA[x</ListBucketResult>",
      "<ListBucketResult>" + std::string(70000, 'x') + "</ListBucketResult>",
      deep,
  };
  for (const std::string& xml : bad) {
    try {
      s3::parse_list_page(xml);
      ADD_FAILURE() << "accepted: " << xml.substr(0, 80);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    }
  }
  // Attributes with '>' inside quotes, empty elements, namespace prefixes.
  s3::ListPage ok = s3::parse_list_page(
      "<s3:ListBucketResult x='a>b'><s3:Contents><s3:Key>k</s3:Key><s3:Size>7</s3:Size><Empty/></s3:Contents>"
      "</s3:ListBucketResult>");
  ASSERT_EQ(ok.objects.size(), 1u);
  EXPECT_EQ(ok.objects[0].size, 7u);
}

TEST(RemoteParse, ErrorDocument) {
  auto doc = s3::parse_error(
      "<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code><Message>Access Denied.</Message>"
      "<Resource>/b/k</Resource></Error>");
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->code, "AccessDenied");
  EXPECT_EQ(doc->message, "Access Denied.");
  EXPECT_FALSE(s3::parse_error("<html>Forbidden</html>"));
  EXPECT_FALSE(s3::parse_error("not xml"));
  EXPECT_FALSE(s3::parse_error(""));
}

// The ranges each request carries, flattened: (range, offset, length, dest_offset).
std::vector<std::vector<uint64_t>> pieces(const std::vector<PlannedRequest>& plan) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& r : plan)
    for (const auto& p : r.pieces) out.push_back({p.range, p.offset, p.length, p.dest_offset});
  return out;
}

TEST(RemoteCoalescing, MergesNearRangesAndKeepsFarOnesApart) {
  const std::vector<FileRange> ranges = {{1000, 100}, {0, 100}, {150, 50}, {5000, 10}, {1100, 0}};
  auto plan = coalesce_ranges(ranges, {.gap = 100, .max_request = 1 << 20});
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].bytes, (FileRange{0, 200}));  // 100..150 is a gap of 50 < 100
  EXPECT_EQ(plan[1].bytes, (FileRange{1000, 100}));
  EXPECT_EQ(plan[2].bytes, (FileRange{5000, 10}));
  EXPECT_EQ(pieces(plan),
            (std::vector<std::vector<uint64_t>>{{1, 0, 100, 0}, {2, 150, 50, 0}, {0, 1000, 100, 0}, {3, 5000, 10, 0}}));
}

TEST(RemoteCoalescing, GapsStayWithinAnEighthOfTheBytesAsked) {
  // A projection's chunks (64 KiB) between skipped columns' (100 KiB): under
  // a 1 MiB gap, yet merging would fetch 2.5 times what was asked.
  std::vector<FileRange> ranges;
  for (uint64_t i = 0; i < 10; ++i) ranges.push_back({i * (164 << 10), 64 << 10});
  auto apart = coalesce_ranges(ranges, {.gap = 1 << 20, .max_request = 8 << 20});
  EXPECT_EQ(apart.size(), 10u);
  // Large chunks with small gaps between them merge, the gaps an eighth at most.
  ranges.clear();
  for (uint64_t i = 0; i < 10; ++i) ranges.push_back({i * (1100 << 10), 1 << 20});
  auto merged = coalesce_ranges(ranges, {.gap = 1 << 20, .max_request = 64 << 20});
  ASSERT_EQ(merged.size(), 1u);
  uint64_t asked = 0;
  for (const auto& r : ranges) asked += r.length;
  EXPECT_LE((merged[0].bytes.length - asked) * 8, asked);
  // Gaps of a few KiB always merge (a request's own cost is about that).
  ranges = {{0, 100}, {4196, 100}, {8292, 100}};
  EXPECT_EQ(coalesce_ranges(ranges, {.gap = 1 << 20, .max_request = 8 << 20}).size(), 1u);
}

TEST(RemoteCoalescing, SplitsLargeRangesAndCapsMergedRequests) {
  const std::vector<FileRange> ranges = {{0, 25}, {25, 5}, {40, 3}};
  auto plan = coalesce_ranges(ranges, {.gap = 100, .max_request = 10});
  std::vector<FileRange> extents;
  for (auto& r : plan) extents.push_back(r.bytes);
  EXPECT_EQ(extents, (std::vector<FileRange>{{0, 10}, {10, 10}, {20, 10}, {40, 3}}));
  EXPECT_EQ(pieces(plan), (std::vector<std::vector<uint64_t>>{
                              {0, 0, 10, 0}, {0, 10, 10, 10}, {0, 20, 5, 20}, {1, 25, 5, 0}, {2, 40, 3, 0}}));
}

TEST(RemoteCoalescing, OverlappingRangesShareBytes) {
  const std::vector<FileRange> ranges = {{0, 100}, {50, 100}, {60, 10}};
  auto plan = coalesce_ranges(ranges, {.gap = 0, .max_request = 1000});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].bytes, (FileRange{0, 150}));
  EXPECT_EQ(pieces(plan), (std::vector<std::vector<uint64_t>>{{0, 0, 100, 0}, {1, 50, 100, 0}, {2, 60, 10, 0}}));
  // With a cap, the overlap is not fetched twice.
  plan = coalesce_ranges(ranges, {.gap = 0, .max_request = 120});
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].bytes, (FileRange{0, 100}));
  EXPECT_EQ(plan[1].bytes, (FileRange{100, 50}));
}

// Every byte of every range lands where it belongs, whatever the limits.
TEST(RemoteCoalescing, RandomRangesAreCoveredExactly) {
  uint64_t seed = 7;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<FileRange> ranges(1 + next() % 20);
    for (auto& r : ranges) r = {next() % 5000, next() % 700};
    CoalescingLimits limits{.gap = next() % 300, .max_request = 1 + next() % 900};
    auto plan = coalesce_ranges(ranges, limits);
    std::vector<uint64_t> covered(ranges.size(), 0);
    for (size_t r = 0; r < plan.size(); ++r) {
      EXPECT_LE(plan[r].bytes.length, limits.max_request);
      if (r > 0) {
        EXPECT_GE(plan[r].bytes.offset, plan[r - 1].bytes.end());
      }
      for (const auto& p : plan[r].pieces) {
        EXPECT_GE(p.offset, plan[r].bytes.offset);
        EXPECT_LE(p.offset + p.length, plan[r].bytes.end());
        EXPECT_EQ(p.offset - ranges[p.range].offset, p.dest_offset);
        EXPECT_EQ(p.dest_offset, covered[p.range]);  // pieces in order, contiguous
        covered[p.range] += p.length;
      }
    }
    for (size_t i = 0; i < ranges.size(); ++i) EXPECT_EQ(covered[i], ranges[i].length);
  }
}

// AWS's worked example "GET Bucket (List Objects)" from the SigV4 header
// documentation (examplebucket, 2013-05-24).
TEST(RemoteSigning, MatchesAwsExample) {
  s3::Credentials creds{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
  std::tm tm{};
  tm.tm_year = 2013 - 1900;
  tm.tm_mon = 4;
  tm.tm_mday = 24;
  const std::time_t when = timegm(&tm);
  auto sig = s3::sign_request(creds, "us-east-1", "GET", "examplebucket.s3.amazonaws.com", "/",
                              {{"max-keys", "2"}, {"prefix", "J"}}, when);
  ASSERT_FALSE(sig.lines.empty());
  EXPECT_EQ(sig.lines[0],
            "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  EXPECT_EQ(s3::uri_encode("a b/c~d+e", true), "a%20b/c~d%2Be");
  EXPECT_EQ(s3::uri_encode("a/b", false), "a%2Fb");
  EXPECT_EQ(s3::canonical_query({{"prefix", "a b"}, {"list-type", "2"}}), "list-type=2&prefix=a%20b");
}

// Sets environment variables for one test and restores them after.
class ScopedEnv {
 public:
  void set(const char* name, const std::string& value) {
    save(name);
    ::setenv(name, value.c_str(), 1);
  }
  void unset(const char* name) {
    save(name);
    ::unsetenv(name);
  }
  ~ScopedEnv() {
    for (auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  void save(const char* name) {
    const char* v = std::getenv(name);
    saved_.emplace_back(name, v != nullptr ? std::optional<std::string>(v) : std::nullopt);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(RemoteConfig, CredentialsRegionAndEndpointFromEachSource) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("parq-aws-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "credentials") << "[default]\naws_access_key_id = DEFKEY\naws_secret_access_key = DEFSECRET\n"
                                     << "[other]\naws_access_key_id=OTHERKEY\naws_secret_access_key=OTHERSECRET\n"
                                     << "aws_session_token = OTHERTOKEN\n";
  std::ofstream(dir / "config") << "[default]\nregion = eu-west-1\n[profile other]\nregion=ap-south-1\n"
                                << "endpoint_url = http://other.example:9000\n";
  ScopedEnv env;
  for (const char* v : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION",
                        "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"})
    env.unset(v);
  env.set("AWS_SHARED_CREDENTIALS_FILE", (dir / "credentials").string());
  env.set("AWS_CONFIG_FILE", (dir / "config").string());

  s3::Target t = s3::resolve("bucket", {});
  EXPECT_EQ(t.credentials.access_key_id, "DEFKEY");
  EXPECT_EQ(t.credentials.secret_access_key, "DEFSECRET");
  EXPECT_EQ(t.region, "eu-west-1");
  EXPECT_EQ(t.base_url, "https://bucket.s3.eu-west-1.amazonaws.com");  // virtual host on AWS
  EXPECT_EQ(t.path_prefix, "");

  env.set("AWS_PROFILE", "other");
  t = s3::resolve("bucket", {});
  EXPECT_EQ(t.credentials.access_key_id, "OTHERKEY");
  EXPECT_EQ(t.credentials.session_token, "OTHERTOKEN");
  EXPECT_EQ(t.region, "ap-south-1");
  EXPECT_EQ(t.base_url, "http://other.example:9000");  // custom endpoint: path style
  EXPECT_EQ(t.path_prefix, "/bucket");

  env.set("AWS_ACCESS_KEY_ID", "ENVKEY");
  env.set("AWS_SECRET_ACCESS_KEY", "ENVSECRET");
  env.set("AWS_REGION", "us-west-2");
  env.set("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000/");
  t = s3::resolve("bucket", {});
  EXPECT_EQ(t.credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(t.credentials.session_token, "");
  EXPECT_EQ(t.region, "us-west-2");
  EXPECT_EQ(t.base_url, "http://127.0.0.1:9000");
  EXPECT_EQ(t.host, "127.0.0.1:9000");

  RemoteOptions o;
  o.access_key_id = "OPTKEY";
  o.secret_access_key = "OPTSECRET";
  o.region = "eu-central-1";
  o.endpoint = "https://minio.example";
  o.path_style = false;
  t = s3::resolve("bucket", o);
  EXPECT_EQ(t.credentials.access_key_id, "OPTKEY");
  EXPECT_EQ(t.region, "eu-central-1");
  EXPECT_EQ(t.base_url, "https://bucket.minio.example");

  o.anonymous = true;
  EXPECT_TRUE(s3::resolve("bucket", o).credentials.empty());
  // A bucket with dots goes path style on AWS (its name cannot be a TLS wildcard's label).
  EXPECT_EQ(s3::resolve("my.bucket", RemoteOptions{.region = "us-east-1", .endpoint = "https://s3.amazonaws.com"})
                .path_prefix,
            "/my.bucket");
  fs::remove_all(dir);
}

TEST(RemoteConfig, BadUrlsAreInvalidArguments) {
  for (const char* url : {"s3://", "s3:///key", "s3://bad bucket/k", "ftp://host/x", "http:///x", "http://h/a b"}) {
    try {
      open_url(url);
      ADD_FAILURE() << "opened " << url;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument) << url << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace parq::io
