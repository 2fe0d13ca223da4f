// Tests of PageLevels: a page's levels read window by window, in steps of
// any size and with jumps, are the levels written, for v1 RLE, v1
// BIT_PACKED and v2 pages, shorter and longer than a window; the counts are
// the page's; a bad level anywhere in the page fails when the page is set
// up; and what it holds follows the steps, not the page.
#include "column/level_decoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parq/encoding/bit_packed.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/error.h"

namespace parq {
namespace {

constexpr int16_t kMaxRep = 2;
constexpr int16_t kMaxDef = 3;

enum class Layout { kV1Rle, kV1BitPacked, kV2 };

std::string name(Layout layout) {
  return layout == Layout::kV1Rle ? "v1 RLE" : layout == Layout::kV1BitPacked ? "v1 BIT_PACKED" : "v2";
}

struct Page {
  format::PageHeader header;
  Buffer bytes;  // levels, then the values' stand-in
};

// Runs of equal levels (some long) between stretches of mixed ones.
std::vector<int16_t> levels_for(size_t n, int16_t max_level, std::mt19937& rng) {
  std::vector<int16_t> out;
  while (out.size() < n) {
    const size_t run = std::min<size_t>(n - out.size(), rng() % 3 == 0 ? rng() % 20000 : rng() % 40);
    const bool same = rng() % 2 == 0;
    const auto first = static_cast<int16_t>(rng() % (max_level + 1));
    for (size_t i = 0; i < run; ++i) out.push_back(same ? first : static_cast<int16_t>(rng() % (max_level + 1)));
  }
  return out;
}

void put_levels(Layout layout, const std::vector<int16_t>& levels, int16_t max_level, Buffer& out) {
  const int width = encoding::bit_width_for(static_cast<uint64_t>(max_level));
  if (layout == Layout::kV1BitPacked) {
    encoding::encode_bit_packed(levels.data(), levels.size(), width, out);
    return;
  }
  encoding::RleBitPackedEncoder encoder(width);
  encoder.put(levels.data(), levels.size());
  if (layout == Layout::kV1Rle) {
    encoder.flush_with_length_prefix(out);
  } else {
    encoder.flush(out);
  }
}

const std::string kValues = "values";

Page page_of(Layout layout, const std::vector<int16_t>& rep, const std::vector<int16_t>& def, int16_t max_rep = kMaxRep,
             int16_t max_def = kMaxDef) {
  Page page;
  const auto n = static_cast<int32_t>(def.size());
  if (layout == Layout::kV2) {
    page.header.type = format::PageType::DATA_PAGE_V2;
    format::DataPageHeaderV2 h;
    h.num_values = n;
    put_levels(layout, rep, max_rep, page.bytes);
    h.repetition_levels_byte_length = static_cast<int32_t>(page.bytes.size());
    put_levels(layout, def, max_def, page.bytes);
    h.definition_levels_byte_length = static_cast<int32_t>(page.bytes.size()) - h.repetition_levels_byte_length;
    page.header.data_page_header_v2 = h;
  } else {
    page.header.type = format::PageType::DATA_PAGE;
    format::DataPageHeader h;
    h.num_values = n;
    const auto encoding = layout == Layout::kV1Rle ? format::Encoding::RLE : format::Encoding::BIT_PACKED;
    h.repetition_level_encoding = h.definition_level_encoding = encoding;
    put_levels(layout, rep, max_rep, page.bytes);
    put_levels(layout, def, max_def, page.bytes);
    page.header.data_page_header = h;
  }
  page.bytes.append(kValues);
  return page;
}

// One RLE run of a value of at most 8 bits: varint(count << 1), the value.
void put_run(uint64_t count, uint8_t value, Buffer& out) {
  uint64_t header = count << 1;
  for (; header >= 0x80; header >>= 7) out.append_value(static_cast<uint8_t>(header | 0x80));
  out.append_value(static_cast<uint8_t>(header));
  out.append_value(value);
}

int64_t count(const std::vector<int16_t>& levels, int16_t value) {
  return std::count(levels.begin(), levels.end(), value);
}

TEST(PageLevels, StepsAndJumpsThroughWindowsGiveTheLevelsWritten) {
  std::mt19937 rng(11);
  const int64_t w = PageLevels::kWindow;
  // Widths 2 and 1 (levels of width 1 are counted by their set bits).
  for (auto [max_rep, max_def] : {std::pair{kMaxRep, kMaxDef}, std::pair<int16_t, int16_t>{1, 1}})
    for (Layout layout : {Layout::kV1Rle, Layout::kV1BitPacked, Layout::kV2})
      for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{777}, w, w + 1, 3 * w + 17}) {
        const std::string where =
            name(layout) + ", " + std::to_string(n) + " entries, maximum levels " + std::to_string(max_def);
        std::vector<int16_t> rep = levels_for(static_cast<size_t>(n), max_rep, rng);
        if (n > 0) rep[0] = 1;  // a page of a record that goes on from the page before
        const std::vector<int16_t> def = levels_for(static_cast<size_t>(n), max_def, rng);
        const Page page = page_of(layout, rep, def, max_rep, max_def);
        for (int trial = 0; trial < 4; ++trial) {
          // Half the trials count records, half leave the long pages'
          // repetition levels to be checked as they are covered.
          const bool count_records = trial % 2 == 0;
          PageLevels levels;
          const size_t values_at = levels.reset(page.header, page.bytes.span(), max_rep, max_def, count_records);
          ASSERT_EQ(values_at, page.bytes.size() - kValues.size()) << where;
          EXPECT_EQ(levels.entries(), n) << where;
          EXPECT_EQ(levels.non_null(), count(def, max_def)) << where;
          if (count_records || n <= w) {
            EXPECT_EQ(levels.records(), count(rep, 0)) << where;
          } else {
            EXPECT_EQ(levels.records(), -1) << where;
          }
          EXPECT_EQ(levels.first_repetition(), n > 0 ? 1 : 0) << where;
          int64_t at = 0;
          while (at < n) {
            // Short steps, steps past a window, and jumps over entries never covered.
            const uint32_t pick = rng() % 8;
            const int64_t step = std::min(
                n - at, pick == 0 ? w + static_cast<int64_t>(rng() % 1000) : 1 + static_cast<int64_t>(rng() % 3000));
            if (pick == 1) {
              at += step;
              continue;
            }
            levels.cover(at, at + step);
            for (int64_t i = 0; i < step; ++i) {
              // A page whose entries are all defined has no definition levels to read.
              const int16_t level = levels.all_defined() ? max_def : levels.def(at)[i];
              ASSERT_EQ(level, def[static_cast<size_t>(at + i)]) << where << " entry " << at + i;
              ASSERT_EQ(levels.rep(at)[i], rep[static_cast<size_t>(at + i)]) << where << " entry " << at + i;
            }
            // Covering part of it again, from further on, changes nothing.
            const int64_t later = at + step / 2;
            levels.cover(later, at + step);
            ASSERT_EQ(levels.rep(later)[0], rep[static_cast<size_t>(later)]) << where;
            at += step;
          }
        }
      }
}

TEST(PageLevels, APageWithoutNullsOrRepetitionNeedsNoWindow) {
  const int64_t n = 5 * PageLevels::kWindow;
  const std::vector<int16_t> def(static_cast<size_t>(n), kMaxDef);
  for (Layout layout : {Layout::kV1Rle, Layout::kV2}) {
    const Page page = page_of(layout, {}, def);
    // Written with repetition levels absent: the column has none.
    PageLevels levels;
    Page flat = page;
    if (layout == Layout::kV2) {
      flat.header.data_page_header_v2->repetition_levels_byte_length = 0;
    } else {
      flat.bytes.clear();
      put_levels(layout, def, kMaxDef, flat.bytes);
      flat.bytes.append(kValues);
    }
    levels.reset(flat.header, flat.bytes.span(), 0, kMaxDef);
    EXPECT_TRUE(levels.all_defined()) << name(layout);
    EXPECT_EQ(levels.records(), n);
    levels.cover(0, n);
    EXPECT_LT(levels.held_bytes(), 1024u) << name(layout);
  }
}

// A level above the maximum, or levels that end early, in the page's last
// window: the page fails when it is set up, before any entry is read.
TEST(PageLevels, ABadLevelAnywhereFailsWhenThePageIsSetUp) {
  std::mt19937 rng(4);
  const int64_t n = 2 * PageLevels::kWindow + 100;
  for (Layout layout : {Layout::kV1Rle, Layout::kV2}) {
    std::vector<int16_t> rep = levels_for(static_cast<size_t>(n), kMaxRep, rng);
    std::vector<int16_t> def = levels_for(static_cast<size_t>(n), kMaxDef, rng);
    rep[0] = 0;
    // Level 3 fits rep's 2-bit width but is above its maximum of 2.
    rep[static_cast<size_t>(n - 5)] = 3;
    Page page = page_of(layout, rep, def);
    PageLevels levels;
    try {
      levels.reset(page.header, page.bytes.span(), kMaxRep, kMaxDef);
      ADD_FAILURE() << name(layout) << ": a repetition level of 3 passed";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("repetition levels: level 3 exceeds the maximum 2"), std::string::npos)
          << e.what();
    }
    // Not counting records, the page sets up, and the level fails when a
    // cover reaches it.
    levels.reset(page.header, page.bytes.span(), kMaxRep, kMaxDef, /*count_records=*/false);
    try {
      for (int64_t at = 0; at < n; at += 1000) levels.cover(at, std::min(n, at + 1000));
      ADD_FAILURE() << name(layout) << ": a covered repetition level of 3 passed";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("repetition levels: level 3 exceeds the maximum 2"), std::string::npos)
          << e.what();
    }
    // The header claims more entries than the runs hold.
    rep[static_cast<size_t>(n - 5)] = 1;
    page = page_of(layout, rep, def);
    if (layout == Layout::kV2) {
      page.header.data_page_header_v2->num_values += 1000;
    } else {
      page.header.data_page_header->num_values += 1000;
    }
    try {
      levels.reset(page.header, page.bytes.span(), kMaxRep, kMaxDef);
      ADD_FAILURE() << name(layout) << ": too few levels passed";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("levels decoded where the page has " + std::to_string(n + 1000)),
                std::string::npos)
          << e.what();
    }
  }
}

// One RLE run can stand for billions of entries: a page of two billion null
// lists takes a few bytes, and going through it holds a window of levels.
TEST(PageLevels, AHugePageOfOneRunHoldsAWindowOfLevels) {
  const int32_t n = 2'000'000'000;
  for (Layout layout : {Layout::kV1Rle, Layout::kV2}) {
    Page page;
    Buffer rep, def;
    for (Buffer* buffer : {&rep, &def}) {
      if (layout == Layout::kV1Rle) buffer->append_value<uint32_t>(0);
      put_run(static_cast<uint64_t>(n), 0, *buffer);
      if (layout == Layout::kV1Rle) {
        const auto runs = static_cast<uint32_t>(buffer->size() - 4);
        std::memcpy(buffer->data(), &runs, 4);
      }
    }
    ASSERT_LT(rep.size() + def.size(), 32u);
    if (layout == Layout::kV2) {
      page.header.type = format::PageType::DATA_PAGE_V2;
      page.header.data_page_header_v2 =
          format::DataPageHeaderV2{.num_values = n,
                                   .definition_levels_byte_length = static_cast<int32_t>(def.size()),
                                   .repetition_levels_byte_length = static_cast<int32_t>(rep.size())};
    } else {
      page.header.type = format::PageType::DATA_PAGE;
      page.header.data_page_header = format::DataPageHeader{.num_values = n};
    }
    page.bytes.append(rep.data(), rep.size());
    page.bytes.append(def.data(), def.size());
    PageLevels levels;
    levels.reset(page.header, page.bytes.span(), kMaxRep, kMaxDef);
    EXPECT_EQ(levels.non_null(), 0);
    EXPECT_EQ(levels.records(), n);
    for (int64_t at : {int64_t{0}, int64_t{1000}, int64_t{n} / 2, int64_t{n} - 70000}) {
      levels.cover(at, at + 65536);
      EXPECT_EQ(levels.rep(at)[65535], 0);
      EXPECT_EQ(levels.def(at)[0], 0);
      // Both kinds' windows, each as long as the step or a window, and the
      // slack buffers keep to grow.
      const auto window = static_cast<size_t>(std::max<int64_t>(PageLevels::kWindow, 65536));
      EXPECT_LE(levels.held_bytes(), 3 * window * sizeof(int16_t)) << name(layout);
    }
  }
}

}  // namespace
}  // namespace parq
