// parq's snappy decoder against libsnappy: the library compresses, and for
// hand-built and mutated streams the library's decoder is the reference for
// both the output and whether the stream is valid at all. Every case runs
// at every SIMD level the CPU has (scalar and shuffled pattern copies, the
// AVX2 and AVX-512 register windows).
#include "compression/snappy_decompressor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <snappy.h>

#include <bit>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::compression {
namespace {

using ::testing::HasSubstr;
using Bytes = std::vector<uint8_t>;

// libsnappy's reading of a stream: the bytes, or nothing when it rejects it.
std::optional<Bytes> library_decode(const Bytes& in) {
  size_t n = 0;
  if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(in.data()), in.size(), &n)) return std::nullopt;
  if (n > (1u << 24)) return std::nullopt;
  Bytes out(n);
  if (!snappy::RawUncompress(reinterpret_cast<const char*>(in.data()), in.size(), reinterpret_cast<char*>(out.data())))
    return std::nullopt;
  return out;
}

// parq's reading, the output sized exactly (so ASan sees any overrun).
std::optional<Bytes> parq_decode(const Bytes& in, std::string* error = nullptr) {
  std::optional<size_t> n = snappy_uncompressed_length(in);
  if (!n) return std::nullopt;
  if (*n > (1u << 24)) return std::nullopt;
  auto out = std::make_unique<uint8_t[]>(*n);
  try {
    snappy_decompress(in, out.get(), *n);
  } catch (const Error& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
  return Bytes(out.get(), out.get() + *n);
}

Bytes compress(const Bytes& raw) {
  std::string c;
  snappy::Compress(reinterpret_cast<const char*>(raw.data()), raw.size(), &c);
  return Bytes(c.begin(), c.end());
}

// Kinds 4 and 5 are the pages of the wide benchmark file: random int64
// below 10^6 and doubles n / 7.0, whose copies change type at random.
constexpr int kSampleKinds = 6;

Bytes sample(size_t n, int kind, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes v(n);
  uint64_t value = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % 8 == 0 && kind == 4) value = rng() % 1'000'000;
    if (i % 8 == 0 && kind == 5) value = std::bit_cast<uint64_t>(static_cast<double>(rng() % 1'000'000) / 7.0);
    switch (kind) {
      case 0:
        v[i] = static_cast<uint8_t>(rng());
        break;  // incompressible
      case 1:
        v[i] = static_cast<uint8_t>(i % 8 == 0 ? i / 8 : 0);
        break;  // sequential int64
      case 2:
        v[i] = static_cast<uint8_t>("snappy page "[(i + rng() % 2) % 12]);
        break;  // text
      case 3:
        v[i] = static_cast<uint8_t>(rng() % 7 == 0 ? rng() % 3 : 0);
        break;  // byte runs
      default:
        v[i] = static_cast<uint8_t>(value >> (8 * (i % 8)));
        break;
    }
  }
  return v;
}

// A stream builder for elements libsnappy's compressor never emits (long
// copies with 4-byte offsets, literals with 4 length bytes, any offset).
struct StreamBuilder {
  Bytes body;
  size_t produced = 0;

  void literal(const Bytes& bytes) {
    size_t n = bytes.size() - 1;
    if (n < 60) {
      body.push_back(static_cast<uint8_t>(n << 2));
    } else {
      int extra = n < (1u << 8) ? 1 : n < (1u << 16) ? 2 : n < (1u << 24) ? 3 : 4;
      body.push_back(static_cast<uint8_t>((59 + extra) << 2));
      for (int i = 0; i < extra; ++i) body.push_back(static_cast<uint8_t>(n >> (8 * i)));
    }
    body.insert(body.end(), bytes.begin(), bytes.end());
    produced += bytes.size();
  }
  // A literal whose length takes `extra` bytes after the tag, however short
  // (libsnappy writes lengths of at least 61 so).
  void literal_long_form(const Bytes& bytes, int extra) {
    body.push_back(static_cast<uint8_t>((59 + extra) << 2));
    for (int i = 0; i < extra; ++i) body.push_back(static_cast<uint8_t>((bytes.size() - 1) >> (8 * i)));
    body.insert(body.end(), bytes.begin(), bytes.end());
    produced += bytes.size();
  }
  void copy1(size_t offset, size_t len) {  // len 4..11, offset < 2048
    body.push_back(static_cast<uint8_t>(1 | (len - 4) << 2 | (offset >> 8) << 5));
    body.push_back(static_cast<uint8_t>(offset));
    produced += len;
  }
  void copy2(size_t offset, size_t len) {  // len 1..64
    body.push_back(static_cast<uint8_t>(2 | (len - 1) << 2));
    body.push_back(static_cast<uint8_t>(offset));
    body.push_back(static_cast<uint8_t>(offset >> 8));
    produced += len;
  }
  void copy4(size_t offset, size_t len) {
    body.push_back(static_cast<uint8_t>(3 | (len - 1) << 2));
    for (int i = 0; i < 4; ++i) body.push_back(static_cast<uint8_t>(offset >> (8 * i)));
    produced += len;
  }
  Bytes stream(size_t claimed) const {
    Bytes out;
    for (size_t v = claimed;; v >>= 7) {
      out.push_back(static_cast<uint8_t>((v & 0x7F) | (v >= 0x80 ? 0x80 : 0)));
      if (v < 0x80) break;
    }
    out.insert(out.end(), body.begin(), body.end());
    return out;
  }
  Bytes stream() const { return stream(produced); }
};

// How a hand-built stream starts, and so which fast loop decodes it (the
// decoder samples elements 256 to 383): 400 copies from 8 bytes back take
// a register-window loop (64 bytes with AVX-512, 16 with AVX2); 400 far copies that alternate
// between 1- and 2-byte offsets take the loop that reads copy tags through
// a table; no opening, the loop that branches on them.
enum class Opening { kNone, kNear, kMixed };
constexpr Opening kOpenings[] = {Opening::kNone, Opening::kNear, Opening::kMixed};

const char* to_string(Opening opening) {
  return opening == Opening::kNone ? "no opening" : opening == Opening::kNear ? "near opening" : "mixed opening";
}

void open_stream(StreamBuilder& b, Opening opening) {
  if (opening == Opening::kNear) {
    b.literal(sample(8, 0, 11));
    for (int i = 0; i < 400; ++i) b.copy1(8, 4);
  } else if (opening == Opening::kMixed) {
    b.literal(sample(2048, 0, 12));
    for (size_t i = 0; i < 200; ++i) {
      b.copy1(100 + i * 37 % 1900, 4 + i % 8);
      b.copy2(40 + i * 53 % 2000, 1 + i % 64);
    }
  }
}

// A stream libsnappy accepts: parq decodes it to the same bytes.
void expect_library_output(const Bytes& stream, const std::string& context) {
  std::optional<Bytes> want = library_decode(stream);
  ASSERT_TRUE(want) << context;
  std::optional<Bytes> got = parq_decode(stream);
  ASSERT_TRUE(got) << context;
  EXPECT_EQ(*got, *want) << context;
}

TEST(SnappyDecompressor, RoundTripsLibraryStreams) {
  for (SimdLevel level : testing::each_simd_level()) {
    for (int kind = 0; kind < kSampleKinds; ++kind) {
      for (size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 79, 80, 81, 200, 4095, 65536, 65537, 300000}) {
        const Bytes raw = sample(n, kind, static_cast<uint32_t>(n + kind));
        std::optional<Bytes> got = parq_decode(compress(raw));
        ASSERT_TRUE(got) << "kind " << kind << " size " << n << " level " << to_string(level);
        EXPECT_EQ(*got, raw) << "kind " << kind << " size " << n << " level " << to_string(level);
      }
    }
  }
}

// Every offset below 140 (pattern paths, window copies up to 16 or 64 back,
// memory copies beyond) with every copy length, each after literals of
// every short length (which shift into a window), placed both well inside
// the stream (the fast loops: the window loops after the near opening) and
// at its end (the careful loop).
TEST(SnappyDecompressor, EveryShortOffsetAndLength) {
  for (SimdLevel level : testing::each_simd_level()) {
    for (Opening opening : kOpenings) {
      for (size_t offset = 1; offset < 140; ++offset) {
        StreamBuilder b;
        open_stream(b, opening);
        b.literal(sample(200, 0, static_cast<uint32_t>(offset)));
        for (size_t len = 1; len <= 64; ++len) {
          b.literal(sample(1 + (len * 7 + offset) % 60, 0, static_cast<uint32_t>(len)));
          b.copy2(offset, len);
        }
        for (size_t len = 4; len <= 11; ++len) b.copy1(offset, len);
        for (size_t len = 1; len <= 64; len += 9) b.copy4(offset, len);
        expect_library_output(
            b.stream(), "offset " + std::to_string(offset) + ", " + to_string(opening) + ", level " + to_string(level));
      }
    }
  }
}

TEST(SnappyDecompressor, LongLiteralsAndFarCopies) {
  for (SimdLevel level : testing::each_simd_level()) {
    StreamBuilder b;
    for (size_t len : {60, 61, 64, 255, 256, 257, 65536, 65537, 70000})
      b.literal(sample(len, 0, static_cast<uint32_t>(len)));
    b.copy4(70000, 64);
    b.copy2(65535, 33);
    b.copy1(2047, 11);
    for (int i = 0; i < 200; ++i) b.copy2(1000 + static_cast<size_t>(i), 64);
    b.literal(sample(3, 0, 9));
    expect_library_output(b.stream(), to_string(level));
  }
}

// 4-byte offsets (which block compressors never write) among the copies
// of a stream that takes the table loop: it reads them apart from the
// table, as the branching loop does.
TEST(SnappyDecompressor, FourByteOffsetsInTheTableLoop) {
  for (SimdLevel level : testing::each_simd_level()) {
    StreamBuilder b;
    open_stream(b, Opening::kMixed);
    for (size_t i = 0; i < 100; ++i) {
      b.copy4(16 + i * 19 % 2000, 1 + i % 64);
      b.copy1(100 + i * 37 % 1900, 4 + i % 8);
      b.copy2(40 + i * 53 % 2000, 1 + i % 64);
    }
    b.literal(sample(100, 2, 6));
    expect_library_output(b.stream(), to_string(level));
  }
}

// The window after each long literal (61..64 bytes shift in, longer ones
// reload it) serves the near copies that follow.
TEST(SnappyDecompressor, NearCopiesAfterLongLiterals) {
  for (SimdLevel level : testing::each_simd_level()) {
    StreamBuilder b;
    open_stream(b, Opening::kNear);
    for (size_t len : {17, 60, 61, 62, 63, 64, 65, 255, 256, 70000}) {
      b.literal(sample(len, 0, static_cast<uint32_t>(len)));
      b.copy1(3, 11);
      b.copy2(40, 64);
      b.copy2(64, 20);
    }
    for (int i = 0; i < 40; ++i) b.copy1(8, 4);  // the careful loop's share
    expect_library_output(b.stream(), to_string(level));
  }
}

// Short literals written in the long form (a length byte after the tag
// says 1..70) among near copies: each fast loop takes the literal's bytes
// into its window, however long the form says it is.
TEST(SnappyDecompressor, ShortLiteralsInTheLongForm) {
  for (SimdLevel level : testing::each_simd_level()) {
    for (Opening opening : kOpenings) {
      StreamBuilder b;
      open_stream(b, opening);
      b.literal(sample(16, 0, 5));
      for (size_t len = 1; len <= 70; ++len) {
        b.literal_long_form(sample(len, 0, static_cast<uint32_t>(len)), 1 + static_cast<int>(len % 4));
        b.copy1(1 + len % 16, 4 + len % 8);
      }
      for (int i = 0; i < 40; ++i) b.copy1(8, 4);  // the careful loop's share
      expect_library_output(b.stream(), std::string(to_string(opening)) + ", level " + to_string(level));
    }
  }
}

void expect_error(const Bytes& stream, const std::string& what) {
  for (SimdLevel level : testing::each_simd_level()) {
    std::string error;
    EXPECT_FALSE(parq_decode(stream, &error)) << what;
    EXPECT_THAT(error, HasSubstr(what)) << to_string(level);
    EXPECT_FALSE(library_decode(stream)) << "libsnappy accepts what parq rejects: " << what;
  }
}

// Each fault both early in a long stream (each fast loop, by its opening)
// and in a short one.
TEST(SnappyDecompressor, NamesEachFault) {
  for (Opening opening : kOpenings) {
    for (size_t lead : {0, 500}) {
      auto start = [&] {
        StreamBuilder b;
        open_stream(b, opening);
        b.literal(sample(lead + 1, 2, 3));
        return b;
      };
      const Bytes tail = sample(300, 2, 4);
      {
        StreamBuilder b = start();
        b.copy2(0, 5);
        b.literal(tail);
        expect_error(b.stream(), "a copy with offset 0");
      }
      {
        StreamBuilder b = start();
        b.copy2(b.produced + 1, 5);
        b.literal(tail);
        expect_error(b.stream(), "a copy reaches before the start of the output");
      }
      {
        StreamBuilder b = start();
        b.literal(tail);  // a long literal, decoded by a fast loop when lead is 500
        b.literal(tail);
        expect_error(b.stream(b.produced - 400), "more bytes than its length header says");
      }
      {
        StreamBuilder b = start();
        b.literal(tail);
        b.copy1(1, 4);
        expect_error(b.stream(b.produced - 1), "more bytes than its length header says");
      }
      {
        StreamBuilder b = start();
        b.literal(tail);
        expect_error(b.stream(b.produced + 1), "fewer than its length header says");
      }
      {
        StreamBuilder b = start();
        b.literal(tail);
        Bytes s = b.stream();
        s.pop_back();
        expect_error(s, "a literal runs past the end of the input");
      }
      {
        StreamBuilder b = start();
        b.body.push_back(2);  // a copy with 2-byte offset, and only one byte of it
        b.body.push_back(1);
        expect_error(b.stream(b.produced + 1), "a copy's offset runs past the end of the input");
      }
      {
        StreamBuilder b = start();
        b.body.push_back(63 << 2);  // a literal with 4 length bytes, and only two
        b.body.push_back(1);
        b.body.push_back(1);
        expect_error(b.stream(b.produced + 1), "a literal's length runs past the end of the input");
      }
    }
  }
}

// A literal length field of 2^32 - 1 means 2^32 bytes, more than any
// output holds. libsnappy wraps it to an empty literal and reads on; parq
// rejects it wherever it stands (fuzz/snappy_fuzz.cc allows that one
// difference).
TEST(SnappyDecompressor, RejectsALiteralOfTwoToThe32Bytes) {
  for (SimdLevel level : testing::each_simd_level()) {
    for (Opening opening : kOpenings) {
      for (size_t lead : {0, 500}) {
        StreamBuilder b;
        open_stream(b, opening);
        b.literal(sample(lead + 1, 2, 3));
        for (uint8_t byte : {uint8_t{63 << 2}, uint8_t{0xFF}, uint8_t{0xFF}, uint8_t{0xFF}, uint8_t{0xFF}})
          b.body.push_back(byte);
        b.literal(sample(300, 2, 4));
        std::string error;
        EXPECT_FALSE(parq_decode(b.stream(), &error))
            << to_string(level) << " " << to_string(opening) << " lead " << lead;
        EXPECT_THAT(error, HasSubstr("a literal runs past the end of the input")) << to_string(level);
        EXPECT_TRUE(library_decode(b.stream())) << "libsnappy no longer wraps the length";
      }
    }
  }
}

TEST(SnappyDecompressor, RejectsBadPreambles) {
  EXPECT_FALSE(snappy_uncompressed_length(Bytes{}));
  EXPECT_FALSE(snappy_uncompressed_length(Bytes{0x80, 0x80}));
  EXPECT_FALSE(snappy_uncompressed_length(Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0x1F}));  // 2^36 - 1
  EXPECT_FALSE(snappy_uncompressed_length(Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(snappy_uncompressed_length(Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}), std::optional<size_t>(UINT32_MAX));
  uint8_t out[4];
  try {
    snappy_decompress(Bytes{3, 0}, out, 4);
    FAIL() << "a length mismatch was accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("decompresses to 3 bytes, the page header says 4"));
  }
}

// Truncations and random byte changes of real streams: parq accepts exactly
// what libsnappy accepts, with the same output.
TEST(SnappyDecompressor, AgreesWithTheLibraryOnDamagedStreams) {
  std::mt19937 rng(7);
  for (SimdLevel level : testing::each_simd_level()) {
    StreamBuilder mixed;
    open_stream(mixed, Opening::kMixed);
    mixed.literal(sample(100, 2, 5));
    for (int kind = 0; kind <= kSampleKinds; ++kind) {
      // The last: a stream for the table loop.
      const Bytes stream =
          kind == kSampleKinds ? mixed.stream() : compress(sample(3000, kind, static_cast<uint32_t>(kind)));
      for (size_t cut = 0; cut < stream.size(); cut += 7) {
        Bytes s(stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(cut));
        EXPECT_EQ(parq_decode(s).has_value(), library_decode(s).has_value())
            << "cut " << cut << " " << to_string(level);
      }
      for (int trial = 0; trial < 400; ++trial) {
        Bytes s = stream;
        for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k)
          s[1 + rng() % (s.size() - 1)] = static_cast<uint8_t>(rng());
        std::optional<Bytes> want = library_decode(s);
        std::optional<Bytes> got = parq_decode(s);
        ASSERT_EQ(got.has_value(), want.has_value())
            << "kind " << kind << " trial " << trial << " " << to_string(level);
        if (got) {
          EXPECT_EQ(*got, *want);
        }
      }
    }
  }
}

// Pairs: every combination of kinds and sizes (so that either stream may
// run out first, or have no fast loop at all) decodes to what each decodes
// to alone, at every level (with AVX-512, streams of near copies take the
// window loop alone instead).
TEST(SnappyDecompressor, PairsDecodeAsEachAlone) {
  for (SimdLevel level : testing::each_simd_level()) {
    for (int kind_a = 0; kind_a < kSampleKinds; ++kind_a) {
      for (int kind_b = 0; kind_b < kSampleKinds; ++kind_b) {
        for (auto [n_a, n_b] : {std::pair<size_t, size_t>{70000, 70000}, {300000, 4095}, {17, 65537}, {0, 200}}) {
          const Bytes raw_a = sample(n_a, kind_a, 1), raw_b = sample(n_b, kind_b, 2);
          const Bytes in_a = compress(raw_a), in_b = compress(raw_b);
          auto out_a = std::make_unique<uint8_t[]>(n_a + 1), out_b = std::make_unique<uint8_t[]>(n_b + 1);
          snappy_decompress_pair({in_a, out_a.get(), n_a}, {in_b, out_b.get(), n_b});
          const std::string context = "kinds " + std::to_string(kind_a) + "/" + std::to_string(kind_b) + " sizes " +
                                      std::to_string(n_a) + "/" + std::to_string(n_b) + " " + to_string(level);
          EXPECT_EQ(Bytes(out_a.get(), out_a.get() + n_a), raw_a) << context;
          EXPECT_EQ(Bytes(out_b.get(), out_b.get() + n_b), raw_b) << context;
        }
      }
    }
  }
}

// A damaged stream in a pair: the pair throws exactly when libsnappy
// rejects either stream, and otherwise writes what libsnappy does.
TEST(SnappyDecompressor, PairsAgreeWithTheLibraryOnDamagedStreams) {
  std::mt19937 rng(11);
  StreamBuilder mixed;
  open_stream(mixed, Opening::kMixed);
  mixed.literal(sample(100, 2, 5));
  const Bytes good = compress(sample(20000, 4, 3));
  for (SimdLevel level : testing::each_simd_level()) {
    int decoded = 0;  // trials whose damaged length fits the test's bound
    for (int trial = 0; trial < 600; ++trial) {
      Bytes damaged = trial % 2 ? mixed.stream() : compress(sample(20000, trial % kSampleKinds, 4));
      for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k)
        damaged[1 + rng() % (damaged.size() - 1)] = static_cast<uint8_t>(rng());
      std::optional<Bytes> want = library_decode(damaged);
      std::optional<size_t> n = snappy_uncompressed_length(damaged);
      if (!n || *n > (1u << 24)) continue;
      ++decoded;
      auto out_good = std::make_unique<uint8_t[]>(20000);
      auto out_damaged = std::make_unique<uint8_t[]>(*n + 1);
      const bool damaged_first = trial % 3 == 0;
      const DecompressJob job_good{good, out_good.get(), 20000}, job_damaged{damaged, out_damaged.get(), *n};
      bool threw = false;
      try {
        if (damaged_first) {
          snappy_decompress_pair(job_damaged, job_good);
        } else {
          snappy_decompress_pair(job_good, job_damaged);
        }
      } catch (const Error&) {
        threw = true;
      }
      ASSERT_EQ(threw, !want.has_value()) << "trial " << trial << " " << to_string(level);
      if (!threw) {
        EXPECT_EQ(Bytes(out_damaged.get(), out_damaged.get() + *n), *want) << "trial " << trial;
        EXPECT_EQ(Bytes(out_good.get(), out_good.get() + 20000), sample(20000, 4, 3)) << "trial " << trial;
      }
    }
    EXPECT_GT(decoded, 500) << to_string(level);
  }
}

}  // namespace
}  // namespace parq::compression
