// The compaction kernels at every SIMD level against a plain loop: every
// element width, lengths around the vector blocks, flags of any non-zero
// value at every density; out of place (with only kCompactSlack bytes of
// room past the kept elements), in place and into a destination below an
// overlapping source. Then the keep-flag helpers, and keep_records at every
// level against a reference built entry by entry.
#include "encoding/compact_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parq/schema/schema_text.h"
#include "column/record_selection.h"
#include "simd_levels.h"

namespace parq {
namespace {

using encoding::compact_width;
using encoding::count_kept;
using encoding::for_each_keep_span;
using encoding::kCompactSlack;
using encoding::keep_bits;
using encoding::KeepSpan;

std::vector<uint8_t> flags(std::mt19937& rng, size_t n, int pattern) {
  std::vector<uint8_t> keep(n);
  for (size_t i = 0; i < n; ++i) {
    switch (pattern) {
      case 0:  // none
        keep[i] = 0;
        break;
      case 1:  // all, as any non-zero byte
        keep[i] = static_cast<uint8_t>(1 + rng() % 255);
        break;
      case 2:
        keep[i] = rng() % 100 == 0;
        break;
      case 3:
        keep[i] = rng() % 2 ? 0x80 : 0;
        break;
      case 4:
        keep[i] = rng() % 10 != 0;
        break;
      default:  // runs
        keep[i] = (i / (1 + pattern)) % 3 == 0 ? 0 : 0xff;
        break;
    }
  }
  return keep;
}

std::vector<uint8_t> reference(const std::vector<uint8_t>& src, size_t width, const std::vector<uint8_t>& keep) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < keep.size(); ++i)
    if (keep[i])
      out.insert(out.end(), src.begin() + static_cast<ptrdiff_t>(i * width),
                 src.begin() + static_cast<ptrdiff_t>((i + 1) * width));
  return out;
}

const size_t kLengths[] = {0, 1, 5, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 1000, 4099};

TEST(CompactKernels, MatchAPlainLoopAtEveryLevel) {
  std::mt19937 rng(7);
  for (SimdLevel level : testing::each_simd_level())
    for (size_t width : {1, 2, 3, 4, 5, 8, 12, 16})
      for (size_t n : kLengths)
        for (int pattern = 0; pattern < 8; ++pattern) {
          const std::string what = std::string(to_string(level)) + " width " + std::to_string(width) + " n " +
                                   std::to_string(n) + " pattern " + std::to_string(pattern);
          std::vector<uint8_t> src(n * width);
          for (auto& b : src) b = static_cast<uint8_t>(rng());
          const std::vector<uint8_t> keep = flags(rng, n, pattern);
          const std::vector<uint8_t> want = reference(src, width, keep);
          const size_t kept = want.size() / width;
          ASSERT_EQ(count_kept(keep.data(), n), kept) << what;

          // Out of place, with exactly the room the kernels may use.
          std::vector<uint8_t> out(want.size() + kCompactSlack);
          ASSERT_EQ(compact_width(src.data(), width, keep.data(), n, out.data()), kept) << what;
          ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin())) << what;

          // In place.
          std::vector<uint8_t> same = src;
          ASSERT_EQ(compact_width(same.data(), width, keep.data(), n, same.data()), kept) << what;
          ASSERT_TRUE(std::equal(want.begin(), want.end(), same.begin())) << what;

          // Below an overlapping source.
          const size_t shift = 1 + rng() % 40;
          std::vector<uint8_t> below(shift * width);
          below.insert(below.end(), src.begin(), src.end());
          ASSERT_EQ(compact_width(below.data() + shift * width, width, keep.data(), n, below.data()), kept) << what;
          ASSERT_TRUE(std::equal(want.begin(), want.end(), below.begin())) << what;
        }
}

TEST(CompactKernels, TypedEntryPointsAndLevels) {
  std::mt19937 rng(8);
  for (SimdLevel level : testing::each_simd_level()) {
    const size_t n = 777;
    const std::vector<uint8_t> keep = flags(rng, n, 3);
    std::vector<uint64_t> v8(n);
    std::vector<uint32_t> v4(n);
    std::vector<uint16_t> v2(n);
    std::vector<int16_t> levels(n);
    std::vector<uint8_t> v1(n);
    for (size_t i = 0; i < n; ++i) {
      v8[i] = rng() * 0x100000001ULL;
      v4[i] = static_cast<uint32_t>(rng());
      v2[i] = static_cast<uint16_t>(rng());
      levels[i] = static_cast<int16_t>(rng() % 3);
      v1[i] = static_cast<uint8_t>(rng());
    }
    std::vector<uint64_t> w8;
    std::vector<uint32_t> w4;
    std::vector<uint16_t> w2;
    std::vector<int16_t> wl;
    std::vector<uint8_t> w1;
    for (size_t i = 0; i < n; ++i)
      if (keep[i]) {
        w8.push_back(v8[i]);
        w4.push_back(v4[i]);
        w2.push_back(v2[i]);
        wl.push_back(levels[i]);
        w1.push_back(v1[i]);
      }
    const size_t k = w8.size();
    ASSERT_EQ(encoding::compact8(v8.data(), keep.data(), n, v8.data()), k) << to_string(level);
    ASSERT_EQ(encoding::compact4(v4.data(), keep.data(), n, v4.data()), k);
    ASSERT_EQ(encoding::compact2(v2.data(), keep.data(), n, v2.data()), k);
    ASSERT_EQ(encoding::compact_levels(levels.data(), keep.data(), n, levels.data()), k);
    ASSERT_EQ(encoding::compact1(v1.data(), keep.data(), n, v1.data()), k);
    v8.resize(k), v4.resize(k), v2.resize(k), levels.resize(k), v1.resize(k);
    EXPECT_EQ(v8, w8);
    EXPECT_EQ(v4, w4);
    EXPECT_EQ(v2, w2);
    EXPECT_EQ(levels, wl);
    EXPECT_EQ(v1, w1);
  }
}

TEST(KeepSpans, BitsAndSpansDescribeTheFlags) {
  std::mt19937 rng(9);
  for (size_t n : kLengths)
    for (int pattern = 0; pattern < 12; ++pattern) {
      const std::vector<uint8_t> keep = flags(rng, n, pattern == 11 ? 200 : pattern);
      for (size_t i = 0; i < n; i += 64) {
        const size_t len = std::min<size_t>(64, n - i);
        uint64_t want = 0;
        for (size_t j = 0; j < len; ++j) want |= static_cast<uint64_t>(keep[i + j] != 0) << j;
        ASSERT_EQ(keep_bits(keep.data() + i, len), want);
      }
      for (size_t max_some : {64, 128, 1024}) {
        std::vector<int> span_of(n, -1);  // 0 none, 1 all, 2 some
        size_t next = 0;
        for_each_keep_span(keep.data(), n, max_some, [&](KeepSpan kind, size_t begin, size_t count, size_t kept) {
          ASSERT_EQ(begin, next);
          ASSERT_GT(count, 0u);
          ASSERT_TRUE(begin % 64 == 0);
          ASSERT_EQ(kept, count_kept(keep.data() + begin, count));
          ASSERT_EQ(kind == KeepSpan::kNone, kept == 0);
          ASSERT_EQ(kind == KeepSpan::kAll, kept == count);
          if (kind != KeepSpan::kNone) {
            ASSERT_LE(count, max_some);
          }
          for (size_t i = begin; i < begin + count; ++i) span_of[i] = static_cast<int>(kind);
          next = begin + count;
        });
        ASSERT_EQ(next, n);
        // Every whole zero block in a run of kMinSkipBlocks of them is
        // skipped (within one window of 4096 flags).
        if (n > 4096) continue;
        for (size_t b = 0; b + encoding::kMinSkipBlocks <= n / 64; ++b) {
          bool run = true;
          for (size_t k = 0; k < encoding::kMinSkipBlocks * 64; ++k) run = run && keep[b * 64 + k] == 0;
          if (run) {
            for (size_t k = 0; k < encoding::kMinSkipBlocks * 64; ++k)
              ASSERT_EQ(span_of[b * 64 + k], 0) << "n " << n << " pattern " << pattern << " block " << b;
          }
        }
      }
    }
}

// ---- keep_records ----

const Schema& schema() {
  static const Schema s = parse_schema_text(R"(message m {
    required int64 a;
    optional int32 b;
    optional int96 t;
    optional binary s (STRING);
    optional fixed_len_byte_array(3) f;
    optional boolean z;
    optional group l (LIST) {
      repeated group list {
        optional int32 element;
      }
    }
  })");
  return s;
}

const ColumnDescriptor& col(const char* path) {
  return schema().column(static_cast<size_t>(schema().find_column(path)));
}

// A batch of `records` random records (lists of 0 to 3 elements for l) and
// the batch keep_records should leave of it, built entry by entry.
struct Case {
  LeafBatch batch, want;
};

Case make_case(std::mt19937& rng, const ColumnDescriptor& c, int64_t records, const std::vector<uint8_t>& keep,
               bool view) {
  Case k;
  const bool bytes = c.type.physical == format::Type::BYTE_ARRAY;
  const auto width = static_cast<size_t>(plain_width(c.type.physical, c.type.type_length));
  std::vector<int16_t> def, rep, want_def, want_rep;
  Buffer fixed, want_fixed;
  const bool nulls = c.max_definition_level > 0 && rng() % 4 != 0;
  for (int64_t r = 0; r < records; ++r) {
    const int64_t entries = c.max_repetition_level > 0 ? 1 + static_cast<int64_t>(rng() % 3) : 1;
    for (int64_t e = 0; e < entries; ++e) {
      const int16_t d = nulls ? static_cast<int16_t>(rng() % (c.max_definition_level + 1)) : c.max_definition_level;
      const int16_t rl = e == 0 ? 0 : c.max_repetition_level;
      def.push_back(d);
      rep.push_back(rl);
      if (keep[static_cast<size_t>(r)]) {
        want_def.push_back(d);
        want_rep.push_back(rl);
      }
      if (d != c.max_definition_level) continue;
      std::string v = bytes ? std::string(rng() % 40, static_cast<char>('a' + rng() % 26)) : std::string(width, 0);
      if (!bytes)
        for (auto& ch : v) ch = static_cast<char>(rng());
      if (bytes) {
        k.batch.values.bytes.append(v);
        if (keep[static_cast<size_t>(r)]) k.want.values.bytes.append(v);
      } else {
        fixed.append(v);
        if (keep[static_cast<size_t>(r)]) want_fixed.append(v);
      }
      ++k.batch.values.count;
      k.want.values.count += keep[static_cast<size_t>(r)] != 0;
    }
  }
  auto put = [](Buffer& b, const std::vector<int16_t>& v) { b.assign(v.data(), v.size() * sizeof(int16_t)); };
  if (nulls) {
    put(k.batch.def, def);
    put(k.want.def, want_def);
  }
  if (c.max_repetition_level > 0) {
    put(k.batch.rep, rep);
    put(k.want.rep, want_rep);
  }
  k.batch.num_entries = static_cast<int64_t>(def.size());
  k.want.num_entries = static_cast<int64_t>(want_def.size());
  if (view) {
    auto owner = std::make_shared<Buffer>(std::move(fixed));
    k.batch.values.fixed = Buffer::view(owner, owner->data(), owner->size());
  } else {
    k.batch.values.fixed = std::move(fixed);
  }
  k.want.values.fixed = std::move(want_fixed);
  return k;
}

void expect_same(const LeafBatch& got, const LeafBatch& want, const std::string& what) {
  EXPECT_EQ(got.num_entries, want.num_entries) << what;
  EXPECT_EQ(got.values.count, want.values.count) << what;
  EXPECT_EQ(got.def.view(), want.def.view()) << what;
  EXPECT_EQ(got.rep.view(), want.rep.view()) << what;
  EXPECT_EQ(got.values.fixed.view(), want.values.fixed.view()) << what;
  ASSERT_EQ(got.values.bytes.size(), want.values.bytes.size()) << what;
  for (size_t i = 0; i < got.values.bytes.size(); ++i)
    ASSERT_EQ(got.values.bytes.value(i), want.values.bytes.value(i)) << what << " value " << i;
}

TEST(KeepRecords, MatchesAnEntryByEntryReferenceAtEveryLevel) {
  std::mt19937 rng(10);
  for (SimdLevel level : testing::each_simd_level())
    for (const char* path : {"a", "b", "t", "s", "f", "z", "l.list.element"})
      for (int64_t records : {1, 7, 64, 65, 300, 5000, 9000})
        for (int pattern = 0; pattern < 8; ++pattern) {
          const std::vector<uint8_t> keep = flags(rng, static_cast<size_t>(records), pattern);
          const bool view = rng() % 2 == 0;
          Case k = make_case(rng, col(path), records, keep, view);
          keep_records(k.batch, col(path), keep.data(), records);
          // keep_records leaves an all-kept batch as it is, levels and all.
          expect_same(k.batch, k.want,
                      std::string(to_string(level)) + " " + path + " records " + std::to_string(records) + " pattern " +
                          std::to_string(pattern));
        }
}

}  // namespace
}  // namespace parq
