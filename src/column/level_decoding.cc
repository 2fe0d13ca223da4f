// Level decoding; see level_decoding.h.
#include "level_decoding.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "util/level_count.h"

namespace parq {
void PageLevels::Stream::restart(const Buffer& bytes) {
  if (hybrid) {
    runs.reset(bytes.data() + offset, size, bit_width);
  } else {
    packed.reset(bytes.data() + offset, size, bit_width);
  }
  decoded = 0;
}

void PageLevels::Stream::decode(int16_t* out, int64_t n, int64_t entries, bool check) {
  const auto want = static_cast<size_t>(n);
  const size_t got = hybrid ? runs.decode(out, want) : packed.decode(out, want);
  if (got != want)
    throw Error(std::string(what) + ": " + std::to_string(decoded + static_cast<int64_t>(got)) +
                " levels decoded where the page has " + std::to_string(entries) + " values");
  // A width whose every value is at most the maximum needs no look.
  if (check && max_level < (1 << bit_width) - 1) {
    int16_t highest = 0;
    for (int64_t i = 0; i < n; ++i) highest = std::max(highest, out[i]);
    check_max(highest);
  }
  decoded += n;
}

void PageLevels::Stream::check_max(int16_t highest) const {
  if (highest > max_level)
    throw Error(std::string(what) + ": level " + std::to_string(highest) + " exceeds the maximum " +
                std::to_string(max_level));
}

void PageLevels::Stream::skip(int64_t n) {
  const auto want = static_cast<size_t>(n);
  const size_t got = hybrid ? runs.skip(want) : packed.skip(want);
  if (got != want) throw Error(std::string(what) + ": too few levels to skip");
  decoded += n;
}

// Checks the next n levels (all the page's) and counts those equal to
// `value`, without a buffer of them: a repeat counts at once, other levels
// go through a piece at a time.
int64_t PageLevels::Stream::count(int16_t value, int64_t n, int16_t* first) {
  constexpr int64_t kPiece = 4096;
  int16_t piece[kPiece];
  int64_t matches = 0;
  int64_t done = 0;
  while (done < n) {
    uint32_t level = 0;
    const size_t repeat = hybrid ? runs.next_repeat(static_cast<size_t>(n - done), level) : 0;
    if (repeat > 0) {
      check_max(static_cast<int16_t>(std::min<uint32_t>(level, INT16_MAX)));
      if (first != nullptr && done == 0) *first = static_cast<int16_t>(level);
      if (level == static_cast<uint32_t>(value)) matches += static_cast<int64_t>(repeat);
      done += static_cast<int64_t>(repeat);
      continue;
    }
    // Levels of width 1 (a flat optional column's, say) are counted by
    // their set bits.
    size_t ones = 0;
    const size_t bits = hybrid && (first == nullptr || done > 0) && (value == 0 || value == 1)
                            ? runs.next_packed_bits(static_cast<size_t>(n - done), ones)
                            : 0;
    if (bits > 0) {
      matches += static_cast<int64_t>(value == 1 ? ones : bits - ones);
      done += static_cast<int64_t>(bits);
      continue;
    }
    const auto want = static_cast<size_t>(std::min(n - done, kPiece));
    const size_t got = hybrid ? runs.decode(piece, want) : packed.decode(piece, want);
    if (got != want)
      throw Error(std::string(what) + ": " + std::to_string(done + static_cast<int64_t>(got)) +
                  " levels decoded where the page has " + std::to_string(n) + " values");
    // One pass for both, in 16-bit lanes.
    int16_t highest = 0;
    uint32_t equal = 0;
    for (size_t i = 0; i < got; ++i) {
      highest = std::max(highest, piece[i]);
      equal += piece[i] == value;
    }
    check_max(highest);
    if (first != nullptr && done == 0) *first = piece[0];
    matches += equal;
    done += static_cast<int64_t>(got);
  }
  return matches;
}

// A v1 section at `at`: RLE (a 4-byte length, then hybrid runs) or
// BIT_PACKED (as many bytes as the page's entries take). Returns its end.
size_t PageLevels::locate_v1(format::Encoding encoding, std::span<const uint8_t> bytes, size_t at, int16_t max_level,
                             const char* what, Stream& stream) {
  stream.used = true;
  stream.max_level = max_level;
  stream.bit_width = encoding::bit_width_for(static_cast<uint64_t>(max_level));
  stream.what = what;
  if (encoding == format::Encoding::RLE) {
    const auto runs = encoding::read_length_prefix(bytes.subspan(at));
    stream.hybrid = true;
    stream.offset = at + 4;
    stream.size = runs.size();
    return at + 4 + runs.size();
  }
  if (encoding == format::Encoding::BIT_PACKED) {
    const size_t size = encoding::packed_size(static_cast<size_t>(entries_), stream.bit_width);
    if (size > bytes.size() - at) throw Error(std::string(what) + ": BIT_PACKED levels run past the end of the page");
    stream.hybrid = false;
    stream.offset = at;
    stream.size = size;
    return at + size;
  }
  throw Error(std::string(what) + ": unsupported level encoding " + format::to_string(encoding));
}

size_t PageLevels::reset(const format::PageHeader& header, std::span<const uint8_t> bytes, int16_t max_repetition,
                         int16_t max_definition, bool count_records) {
  rep_.used = def_.used = false;
  check_rep_in_windows_ = false;
  begin_ = end_ = 0;
  first_repetition_ = 0;
  size_t values_at = 0;
  if (header.type == format::PageType::DATA_PAGE_V2) {
    const auto& h = *header.data_page_header_v2;
    entries_ = h.num_values;
    const auto rep_bytes = static_cast<size_t>(h.repetition_levels_byte_length);
    const auto def_bytes = static_cast<size_t>(h.definition_levels_byte_length);
    if (rep_bytes > bytes.size() || def_bytes > bytes.size() - rep_bytes)
      throw Error("level lengths (" + std::to_string(rep_bytes + def_bytes) + " bytes) exceed the page");
    const auto v2_stream = [](Stream& s, size_t offset, size_t size, int16_t max_level, const char* what) {
      s = {.used = max_level > 0, .hybrid = true, .offset = offset, .size = size, .max_level = max_level};
      s.bit_width = encoding::bit_width_for(static_cast<uint64_t>(max_level));
      s.what = what;
    };
    v2_stream(rep_, 0, rep_bytes, max_repetition, "repetition levels");
    v2_stream(def_, rep_bytes, def_bytes, max_definition, "definition levels");
    values_at = rep_bytes + def_bytes;
  } else {
    const auto& h = *header.data_page_header;
    entries_ = h.num_values;
    if (max_repetition > 0)
      values_at = locate_v1(h.repetition_level_encoding, bytes, values_at, max_repetition, "repetition levels", rep_);
    if (max_definition > 0)
      values_at = locate_v1(h.definition_level_encoding, bytes, values_at, max_definition, "definition levels", def_);
  }
  bytes_.assign(bytes.data(), values_at);
  if (rep_.used) rep_.restart(bytes_);
  if (def_.used) def_.restart(bytes_);
  check_all(count_records);
  return values_at;
}

// Every level checked and counted. A page that fits a window is decoded
// into it; a longer one is counted run by run (a repeat at once) and its
// streams started again for cover().
void PageLevels::check_all(bool count_records) {
  non_null_ = records_ = entries_;
  // One RLE run of the maximum covering the page (how writers store a page
  // without nulls) is taken whole.
  const bool count_def =
      def_.used && !(def_.hybrid && entries_ > 0 && def_.runs.repeats(static_cast<uint32_t>(def_.max_level), entries_));
  const auto bytes = static_cast<size_t>(entries_) * sizeof(int16_t);
  if (entries_ > kWindow) {
    if (count_def) {
      non_null_ = def_.count(def_.max_level, entries_, nullptr);
      def_.restart(bytes_);
    }
    if (rep_.used && count_records) {
      records_ = rep_.count(0, entries_, &first_repetition_);
      rep_.restart(bytes_);
    } else if (rep_.used) {
      records_ = -1;
      check_rep_in_windows_ = true;
      cover(0, kWindow);
      first_repetition_ = rep(0)[0];
    }
    return;
  }
  if (rep_.used) {
    rep_window_.resize(bytes);
    int16_t* rep = rep_window_.data_as<int16_t>();
    rep_.decode(rep, entries_, entries_, true);
    records_ = count_levels_equal(rep, entries_, 0);
    if (entries_ > 0) first_repetition_ = rep[0];
  }
  if (count_def) {
    def_window_.resize(bytes);
    int16_t* def = def_window_.data_as<int16_t>();
    def_.decode(def, entries_, entries_, true);
    non_null_ = count_levels_equal(def, entries_, def_.max_level);
  }
  end_ = entries_;
}

void PageLevels::cover(int64_t from, int64_t to) {
  if (to <= end_) return;
  const bool need_def = def_.used && !all_defined();
  if (!need_def && !rep_.used) {
    begin_ = from;
    end_ = to;
    return;
  }
  int64_t keep = 0;
  if (from >= end_) {
    if (from > end_) {
      if (need_def) def_.skip(from - end_);
      if (rep_.used) rep_.skip(from - end_);
    }
  } else {
    keep = end_ - from;
    const auto shift = static_cast<size_t>(from - begin_) * sizeof(int16_t);
    const auto kept = static_cast<size_t>(keep) * sizeof(int16_t);
    if (need_def) std::memmove(def_window_.data(), def_window_.data() + shift, kept);
    if (rep_.used) std::memmove(rep_window_.data(), rep_window_.data() + shift, kept);
  }
  const int64_t want = std::max(to - from, std::min(kWindow, entries_ - from));
  const auto want_bytes = static_cast<size_t>(want) * sizeof(int16_t);
  if (need_def) {
    def_window_.resize(want_bytes);
    def_.decode(def_window_.data_as<int16_t>() + keep, want - keep, entries_, false);
  }
  if (rep_.used) {
    rep_window_.resize(want_bytes);
    rep_.decode(rep_window_.data_as<int16_t>() + keep, want - keep, entries_, check_rep_in_windows_);
  }
  begin_ = from;
  end_ = from + want;
}

}  // namespace parq
