// A data page's repetition and definition levels, checked against the
// column's maximum levels and decoded a window at a time.
//
// A page's entry count comes from its header, and one RLE run can stand for
// billions of entries in a few bytes: a reader that decoded the whole page
// at once would hold memory sized by that count, not by its batch. Here the
// levels are decoded as a reader goes through the page front to back, in a
// window of about kWindow entries (more when a caller asks for more at once:
// a batch's entries, a long record's). The definition levels are checked
// and counted when the page is set up (a repeat at once, however long), so
// that a bad page fails where it starts and the values it holds are known
// before any is read; so are the repetition levels, unless the caller needs
// no record count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "parq/encoding/bit_packed.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/format/metadata.h"
#include "parq/util/buffer.h"

namespace parq {

class PageLevels {
 public:
  // Pages of at most this many entries are decoded in one pass; longer ones
  // are checked and counted in a first pass and decoded as they are read.
  static constexpr int64_t kWindow = 128 * 1024;

  // Sets up a data page's levels, v1 or v2 as its header says, from its
  // decompressed bytes (copied: the bytes may be reused once this returns).
  // Returns where the values start in `bytes`. The caller has checked that
  // the header is the page type's and its count is not negative.
  // `count_records` false: records() is not asked for, and the repetition
  // levels of a page longer than a window are checked as cover() decodes
  // them rather than in a pass of their own.
  size_t reset(const format::PageHeader& header, std::span<const uint8_t> bytes, int16_t max_repetition,
               int16_t max_definition, bool count_records = true);

  int64_t entries() const { return entries_; }
  // Entries at the maximum definition level: those with a value.
  int64_t non_null() const { return non_null_; }
  // Entries that start a record (repetition level 0); -1 when reset() was
  // told not to count them.
  int64_t records() const { return records_; }
  // The page's first repetition level (0 without repetition or entries).
  int16_t first_repetition() const { return first_repetition_; }
  // Every entry is at the maximum definition level: def() is not to be asked for.
  bool all_defined() const { return non_null_ == entries_; }

  // Makes entries [from, to) readable through def() and rep(). `from` may
  // not go back before an earlier call's `from` since reset(); entries
  // passed over are skipped without being decoded.
  void cover(int64_t from, int64_t to);
  // Where what the last cover() made readable ends (it may reach past
  // what was asked).
  int64_t covered_end() const { return end_; }
  // Entry `at` on, within what the last cover() made readable.
  const int16_t* def(int64_t at) const { return def_window_.data_as<int16_t>() + (at - begin_); }
  const int16_t* rep(int64_t at) const { return rep_window_.data_as<int16_t>() + (at - begin_); }

  size_t held_bytes() const { return bytes_.capacity() + def_window_.capacity() + rep_window_.capacity(); }

 private:
  // One kind of level: hybrid runs (v1 RLE without its length prefix, v2)
  // or v1's deprecated BIT_PACKED.
  struct Stream {
    bool used = false;
    bool hybrid = true;
    size_t offset = 0;  // in bytes_
    size_t size = 0;
    int16_t max_level = 0;
    int bit_width = 0;
    const char* what = "";
    int64_t decoded = 0;
    encoding::RleBitPackedDecoder runs;
    encoding::BitPackedDecoder packed;

    void restart(const Buffer& bytes);
    // The next n levels, checked when `check` (a later pass over the same
    // bytes gives the same levels).
    void decode(int16_t* out, int64_t n, int64_t entries, bool check);
    void skip(int64_t n);
    int64_t count(int16_t value, int64_t n, int16_t* first);
    void check_max(int16_t highest) const;
  };

  size_t locate_v1(format::Encoding encoding, std::span<const uint8_t> bytes, size_t at, int16_t max_level,
                   const char* what, Stream& stream);
  void check_all(bool count_records);

  Buffer bytes_;  // the page's level sections
  Stream rep_;
  Stream def_;
  int64_t entries_ = 0;
  int64_t non_null_ = 0;
  int64_t records_ = 0;
  int16_t first_repetition_ = 0;
  bool check_rep_in_windows_ = false;
  // The window holds entries [begin_, end_); the streams stand at end_.
  int64_t begin_ = 0;
  int64_t end_ = 0;
  Buffer def_window_;
  Buffer rep_window_;
};

}  // namespace parq
