// LeafReader; see leaf_reader.h.
#include "leaf_reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

#include "../encoding/compact_kernels.h"
#include "level_decoding.h"
#include "parq/encoding/byte_array_batch.h"
#include "parq/error.h"
#include "record_selection.h"
#include "util/level_count.h"
#include "util/varint.h"

namespace parq {

using format::PageType;

namespace {

int64_t group_rows(const format::FileMetaData& file, size_t row_group) {
  return row_group < file.row_groups.size() ? file.row_groups[row_group].num_rows : -1;
}

}  // namespace

LeafReader::LeafReader(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group,
                       const ColumnDescriptor& column, const PageReaderOptions& options)
    : column_(column),
      pages_(input, file, row_group, static_cast<size_t>(column.column_index), column.dotted_path(), options),
      values_(column.type.physical, column.type.type_length, column.dotted_path()),
      group_rows_(group_rows(file, row_group)) {}

LeafReader::LeafReader(ChunkBytes bytes, const std::string& input_name, const format::FileMetaData& file,
                       size_t row_group, const ColumnDescriptor& column, const PageReaderOptions& options)
    : column_(column),
      pages_(std::move(bytes), input_name, file, row_group, static_cast<size_t>(column.column_index),
             column.dotted_path(), options),
      values_(column.type.physical, column.type.type_length, column.dotted_path()),
      group_rows_(group_rows(file, row_group)) {}

ErrorLocation LeafReader::location() const { return pages_.location(page_); }

// Decoders name the encoding and the byte; this adds file, column, row
// group and page, where the error does not have them already.
void LeafReader::with_context(const Error& e) const {
  // A full batch keeps its type: the reader's caller reads fewer rows.
  if (dynamic_cast<const encoding::ByteArrayBatchFull*>(&e) != nullptr)
    throw encoding::ByteArrayBatchFull(e.within(location()));
  throw e.within(location());
}

void LeafReader::load_dictionary(const PageInfo& page) {
  if (!page.header.dictionary_page_header)
    throw Error(ErrorKind::kCorrupt, location(), "DICTIONARY_PAGE without its header");
  int32_t n = page.header.dictionary_page_header->num_values;
  if (n < 0) throw Error(ErrorKind::kCorrupt, location(), "negative dictionary size " + std::to_string(n));
  auto bytes = pages_.decompress(page);
  dictionary_bytes_ = static_cast<int64_t>(bytes.size());
  try {
    values_.set_dictionary(bytes.data(), bytes.size(), static_cast<size_t>(n));
  } catch (const Error& e) {
    throw e.with_context("dictionary page").within(location());
  }
}

// The page's levels are decoded: count its values and hand the values
// section to the value reader.
void LeafReader::begin_values(format::Encoding encoding, std::span<const uint8_t> values, int64_t num_values) {
  const int64_t non_null = levels_.non_null();
  values_.begin_page(encoding, values.data(), values.size(), static_cast<size_t>(non_null));
  page_entries_ = num_values;
  page_non_null_ = non_null;
  page_all_defined_ = non_null == num_values;
}

size_t LeafReader::decode_levels(const PageInfo& page, std::span<const uint8_t> bytes) {
  return levels_.reset(page.header, bytes, column_.max_repetition_level, column_.max_definition_level,
                       /*count_records=*/false);
}

void LeafReader::begin_page_values(const PageInfo& page, std::span<const uint8_t> values) {
  begin_values(data_page_encoding(page), values, data_page_values(page));
}

format::Encoding LeafReader::data_page_encoding(const PageInfo& page) {
  return page.header.type == PageType::DATA_PAGE_V2 ? page.header.data_page_header_v2->encoding
                                                    : page.header.data_page_header->encoding;
}

int64_t LeafReader::data_page_values(const PageInfo& page) {
  return page.header.type == PageType::DATA_PAGE_V2 ? page.header.data_page_header_v2->num_values
                                                    : page.header.data_page_header->num_values;
}

// PLAIN numbers of a column without repetition: what batches view in the
// page, so that the page goes into the page reader's value stream, where
// the next page can follow it.
bool LeafReader::streamable(const PageInfo& page) const {
  using format::Type;
  const Type t = column_.type.physical;
  return column_.max_repetition_level == 0 && data_page_encoding(page) == format::Encoding::PLAIN &&
         t != Type::BOOLEAN && t != Type::BYTE_ARRAY && t != Type::FIXED_LEN_BYTE_ARRAY;
}

// Moves to the next data page, loading dictionary pages on the way and
// passing over others; false at the end of the chunk.
bool LeafReader::next_data_page() {
  // The page before is used up: let its buffer go back to the page
  // reader, unless arrays still view it.
  values_.set_page_owner(nullptr);
  while (pages_.next(page_)) {
    try {
      switch (page_.header.type) {
        case PageType::DICTIONARY_PAGE:
          load_dictionary(page_);
          continue;
        case PageType::DATA_PAGE:
          if (!page_.header.data_page_header)
            throw Error(ErrorKind::kCorrupt, location(), "DATA_PAGE without its header");
          if (page_.header.data_page_header->num_values < 0)
            throw Error(ErrorKind::kCorrupt, location(), "negative value count");
          check_page_counts(page_);
          return true;
        case PageType::DATA_PAGE_V2: {
          if (!page_.header.data_page_header_v2)
            throw Error(ErrorKind::kCorrupt, location(), "DATA_PAGE_V2 without its header");
          const auto& h = *page_.header.data_page_header_v2;
          if (h.num_values < 0 || h.num_nulls < 0 || h.num_nulls > h.num_values)
            throw Error(ErrorKind::kCorrupt, location(), "inconsistent value and null counts");
          check_page_counts(page_);
          return true;
        }
        default:
          continue;  // index pages and types from the future carry no values
      }
    } catch (const Error& e) {
      with_context(e);
    }
  }
  return false;
}

// A page's levels are decoded into buffers sized by its count of values,
// so the count is held to what the footer says before anything is sized
// by it. Footers may say less than the pages hold, of a chunk's values or
// of a row group's rows, and such files read what the footer says (see
// WildFiles): the bound is the larger of the two.
void LeafReader::check_page_counts(const PageInfo& page) const {
  const int64_t values = data_page_values(page);
  const int64_t bound = std::max(pages_.metadata().num_values, group_rows_);
  if (values > bound)
    throw Error(ErrorKind::kCorrupt, location(),
                "the page holds " + std::to_string(values) + " values, more than its column chunk (" +
                    std::to_string(pages_.metadata().num_values) + " values) and row group (" +
                    std::to_string(group_rows_) + " rows) hold");
}

// Where a v1 page's values start when its definition levels are one RLE
// run (no nulls: what most pages of optional columns are): the 4-byte
// length, the run's header and its value. 0 when there is no guessing
// (repetition levels, which vary in length).
size_t LeafReader::expected_values_at(const PageInfo& page) const {
  if (page.header.type != PageType::DATA_PAGE || column_.max_repetition_level > 0 || column_.max_definition_level == 0)
    return 0;
  const size_t header = varint_size(static_cast<uint64_t>(page.header.data_page_header->num_values) << 1);
  const size_t value_bytes = (std::bit_width(static_cast<uint16_t>(column_.max_definition_level)) + 7) / 8;
  return 4 + header + value_bytes;
}

bool LeafReader::stage_page(PageDecompression& task) {
  task = PageDecompression{};
  if (staged_ || held_ || page_pos_ < page_entries_ || !next_data_page()) return false;
  if (page_.first_row >= 0 && page_.first_row != row_) {
    held_ = true;  // the next call is a skip to it
    return false;
  }
  try {
    staged_bytes_ = pages_.prepare_decompression(page_, task, expected_values_at(page_), streamable(page_));
  } catch (const Error& e) {
    with_context(e);
  }
  staged_ = true;
  return task.reader != nullptr;
}

// The rows a data page holds when its header tells them: one per level
// entry without repetition, num_rows of a v2 page (which starts and ends on
// record boundaries) with it. -1 otherwise.
int64_t LeafReader::page_rows(const PageInfo& page) const {
  if (page.header.type == PageType::DATA_PAGE)
    return column_.max_repetition_level == 0 ? page.header.data_page_header->num_values : -1;
  const auto& h = *page.header.data_page_header_v2;
  return column_.max_repetition_level == 0 ? h.num_values : h.num_rows;
}

// Moves to the next data page with entries and decodes its levels; false at
// the end of the chunk. Pages wholly inside the next `pass_over_rows` rows
// are passed over on their headers, adding their rows to `passed_rows`; once
// they use those rows up, it stops (false) before the page after them.
bool LeafReader::load_data_page(int64_t pass_over_rows, int64_t& passed_rows, const Buffer* view) {
  for (;;) {
    std::span<const uint8_t> bytes;
    // Set when the page's values come apart from its levels, behind `view`.
    std::optional<std::span<const uint8_t>> values;
    if (staged_) {
      staged_ = false;
      bytes = staged_bytes_;
    } else {
      if (held_) {
        held_ = false;
      } else if (!next_data_page()) {
        return false;
      }
      if (page_.first_row >= 0) {
        // Rows before the page whose pages were not fetched: a skip passes
        // over them; a read there is the caller's error.
        const int64_t gap = page_.first_row - (row_ + passed_rows);
        if (gap < 0)
          throw Error(ErrorKind::kCorrupt, location(),
                      "the page starts at row " + std::to_string(page_.first_row) + ", before row " +
                          std::to_string(row_ + passed_rows) + " that the column has reached");
        // A read (pass_over_rows 0) stops before such a page: its rows
        // are not the ones asked for.
        const int64_t take = std::min(gap, pass_over_rows - passed_rows);
        passed_rows += take;
        if (take < gap || (gap > 0 && passed_rows == pass_over_rows)) {
          held_ = true;
          return false;
        }
      }
      const int64_t rows = page_rows(page_);
      if (rows > 0 && rows <= pass_over_rows - passed_rows) {
        passed_rows += rows;
        ++counters_.pages_skipped;
        counters_.values_skipped += data_page_values(page_);
        first_entry_ = false;
        if (passed_rows == pass_over_rows) return false;
        continue;
      }
      try {
        const bool stream = streamable(page_);
        if (view != nullptr && view->is_view() && stream) {
          values = pages_.decompress_after(page_, expected_values_at(page_), view->data() + view->size(), view->size(),
                                           [&](std::span<const uint8_t> page) { return decode_levels(page_, page); });
        } else {
          bytes = pages_.decompress(page_, expected_values_at(page_), stream);
        }
      } catch (const Error& e) {
        with_context(e);
      }
    }
    values_.set_page_owner(pages_.page_owner());
    try {
      if (!values) values = bytes.subspan(decode_levels(page_, bytes));
      begin_page_values(page_, *values);
    } catch (const Error& e) {
      with_context(e);
    }
    // Values the decoder can view (aligned as it asks, which values after
    // levels of an unexpected length may not be). Only streamable pages
    // go into the stream.
    const int32_t width = plain_width(column_.type.physical, column_.type.type_length);
    page_in_stream_ = pages_.in_stream() && reinterpret_cast<uintptr_t>(values->data()) % (width % 8 == 0 ? 8 : 4) == 0;
    ++counters_.pages_decompressed;
    page_pos_ = 0;
    if (page_entries_ == 0) continue;
    if (column_.max_repetition_level > 0 && first_entry_ && levels_.first_repetition() != 0)
      throw Error(
          ErrorKind::kCorrupt, location(),
          "the first repetition level of the column is " + std::to_string(levels_.first_repetition()) + ", not 0");
    first_entry_ = false;
    return true;
  }
}

// The levels of the page's entries [from, to), decoded (and, in a page
// longer than a window, their repetition levels checked) as reads reach them.
void LeafReader::cover_levels(int64_t from, int64_t to) {
  try {
    levels_.cover(from, to);
  } catch (const Error& e) {
    with_context(e);
  }
}

// How many of the current page's remaining entries make up at most `wanted`
// records; sets `entries` and returns the records they start. With
// repetition, at most `max_entries` entries (the last record may go on past
// them): a skip need not hold the levels of all it passes.
int64_t LeafReader::take_records(int64_t wanted, int64_t& entries, int64_t max_entries) {
  const int64_t left = page_entries_ - page_pos_;
  if (column_.max_repetition_level == 0) {
    entries = std::min(wanted, left);
    return entries;
  }
  const int64_t last = std::min(left, max_entries);
  int64_t started = 0, i = 0;
  while (i < last) {
    // The levels decoded ahead first; then a window more, or twice what
    // the records so far took.
    if (page_pos_ + i >= levels_.covered_end())
      cover_levels(page_pos_, page_pos_ + std::min(last, std::max(2 * i, PageLevels::kWindow)));
    const int64_t upto = std::min(last, levels_.covered_end() - page_pos_);
    const int16_t* rep = levels_.rep(page_pos_);
    for (; i < upto; ++i) {
      if (rep[i] == 0) {
        if (started == wanted) {
          entries = i;
          return started;
        }
        ++started;
      }
    }
  }
  entries = i;
  return started;
}

// Room for `entries` more definition levels in `out`.
int16_t* LeafReader::extend_def(LeafBatch& out, int64_t entries) const {
  if (out.def.empty() && out.num_entries > 0) {
    // Earlier pages of this batch were all defined and left their levels
    // out; write them now that some entry is not.
    int16_t* fill = reinterpret_cast<int16_t*>(out.def.extend(static_cast<size_t>(out.num_entries) * 2));
    std::fill_n(fill, out.num_entries, column_.max_definition_level);
  }
  return reinterpret_cast<int16_t*>(out.def.extend(static_cast<size_t>(entries) * sizeof(int16_t)));
}

void LeafReader::append(int64_t entries, LeafBatch& out) {
  const size_t bytes = static_cast<size_t>(entries) * sizeof(int16_t);
  int64_t non_null = entries;
  if (column_.max_repetition_level > 0 || !page_all_defined_) cover_levels(page_pos_, page_pos_ + entries);
  if (column_.max_definition_level > 0 && !(page_all_defined_ && out.def.empty())) {
    const int16_t* def = page_all_defined_ ? nullptr : levels_.def(page_pos_);
    int16_t* out_def = extend_def(out, entries);
    if (page_all_defined_) {
      std::fill_n(out_def, entries, column_.max_definition_level);  // the levels may be undecoded
    } else {
      std::memcpy(out_def, def, bytes);
    }
    // A take of the whole page reuses the count begin_values made.
    const bool whole_page = page_pos_ == 0 && entries == page_entries_;
    non_null = page_all_defined_ ? entries
               : whole_page      ? page_non_null_
                                 : count_levels_equal(def, entries, column_.max_definition_level);
  }
  if (column_.max_repetition_level > 0) std::memcpy(out.rep.extend(bytes), levels_.rep(page_pos_), bytes);
  const size_t bytes_before = out.values.bytes.data_size();
  try {
    values_.read(static_cast<size_t>(non_null), out.values);
  } catch (const Error& e) {
    with_context(e);
  }
  byte_array_bytes_ += static_cast<int64_t>(out.values.bytes.data_size() - bytes_before);
  byte_array_values_ += non_null;
  out.num_entries += entries;
  page_pos_ += entries;
  counters_.values_decoded += entries;
}

// append() without the output: the values are passed over, and not even
// that when the skip runs to the end of the page, whose decoder the next
// page resets.
void LeafReader::skip_entries(int64_t entries) {
  if (page_pos_ + entries < page_entries_) {
    int64_t non_null = entries;
    if (column_.max_definition_level > 0 && !page_all_defined_) {
      // A window at a time: a long skip holds no more levels than a read.
      non_null = 0;
      for (int64_t at = page_pos_, end = page_pos_ + entries; at < end;) {
        const int64_t n = std::min(end - at, PageLevels::kWindow);
        cover_levels(at, at + n);
        non_null += count_levels_equal(levels_.def(at), n, column_.max_definition_level);
        at += n;
      }
    }
    try {
      values_.skip(static_cast<size_t>(non_null));
    } catch (const Error& e) {
      with_context(e);
    }
  }
  page_pos_ += entries;
  counters_.values_skipped += entries;
}

// Room for a flat column's batch of `records` values up front: a batch
// takes values from several pages, and a buffer grown page by page copies
// what it holds each time. Byte arrays by the mean length of the values
// read so far (none yet: metadata_byte_array_mean), within the batch's
// byte limit.
void LeafReader::reserve(int64_t records, LeafValues& out) const {
  const auto n = static_cast<size_t>(records);
  const int32_t width = plain_width(column_.type.physical, column_.type.type_length);
  if (width > 0) {
    out.fixed.reserve(n * static_cast<size_t>(width));
    return;
  }
  out.bytes.offsets_buffer().reserve((n + 1) * sizeof(int32_t));
  const double mean = byte_array_values_ > 0
                          ? static_cast<double>(byte_array_bytes_) / static_cast<double>(byte_array_values_)
                          : metadata_byte_array_mean();
  if (mean <= 0) return;
  // Up to 32 bytes a value, as the PLAIN decoder's fast loop asks room
  // for, but not past twice the mean: short values would hold far more
  // than they fill.
  const double per_value = std::max(mean * 1.0625, std::min(32.0, 2 * mean));
  const double wanted =
      std::min(per_value * static_cast<double>(n), static_cast<double>(encoding::kMaxByteArrayBatchBytes));
  size_t bytes = static_cast<size_t>(wanted);
  while (bytes > 0 && !out.bytes.fits(bytes)) bytes /= 2;
  out.bytes.data_buffer().reserve(bytes);
}

namespace {
constexpr double kMaxMetadataMean = 64;
}  // namespace

// Bytes a byte-array entry holds by the chunk's metadata, 0 when it does
// not tell: reserve()'s estimate until append() has read values, without
// which a chunk's first batch across pages grew its buffer by doubling. The
// writer's count of the values' bytes where it gave one; else the chunk's
// uncompressed size less the 4-byte length of each PLAIN value, which
// overstates what PLAIN values hold by their pages' headers and levels
// and understates what dictionary indices stand for (no worse than no
// estimate). Per entry, nulls too, as reserve() asks room per record. The
// sizes are the file's word: capped, a false one cannot make a batch
// reserve much.
double LeafReader::metadata_byte_array_mean() const {
  const format::ColumnMetaData& md = pages_.metadata();
  if (md.num_values <= 0) return 0;
  int64_t bytes = 0;
  if (md.size_statistics && md.size_statistics->unencoded_byte_array_data_bytes) {
    bytes = *md.size_statistics->unencoded_byte_array_data_bytes;
  } else {
    // Under 5 bytes an entry: dictionary indices or empty values, nothing
    // to go by.
    if (md.total_uncompressed_size / 5 < md.num_values) return 0;
    bytes = md.total_uncompressed_size - 4 * md.num_values;
  }
  if (bytes <= 0) return 0;
  return std::min(kMaxMetadataMean, static_cast<double>(bytes) / static_cast<double>(md.num_values));
}

int64_t LeafReader::read_records(int64_t records, LeafBatch& out) {
  int64_t done = 0;
  for (;;) {
    int64_t passed = 0;
    // A batch that views its values in a page of the value stream has
    // the next page put behind them.
    if (page_pos_ == page_entries_ && !load_data_page(0, passed, out.num_entries > 0 ? &out.values.fixed : nullptr))
      break;
    // Only a batch that goes on past the page it starts in grows its
    // buffers; one inside it is decoded (or viewed, PLAIN fixed-width) in
    // one go. Asked once the page is loaded, so that a batch starting
    // with a page that holds it whole is not taken for one that spans.
    // One that views a page of the value stream grows its view instead.
    if (out.num_entries == 0 && column_.max_repetition_level == 0 && page_entries_ - page_pos_ < records &&
        !page_in_stream_) {
      reserve(records, out.values);
      out.values.spans_pages = true;
    }
    int64_t entries = 0;
    int64_t started = take_records(records - done, entries, page_entries_);
    if (entries == 0) break;  // the next entry starts a record beyond the batch
    append(entries, out);
    done += started;
    row_ += started;
    // A record may continue on the next page: keep going until the next
    // record's first entry (rep level 0) or the end of the chunk.
    if (page_pos_ < page_entries_) break;
    if (done == records && column_.max_repetition_level == 0) break;
  }
  return done;
}

int64_t LeafReader::skip_records(int64_t records) {
  if (records <= 0) return 0;
  int64_t done = 0;
  for (;;) {
    if (page_pos_ == page_entries_) {
      int64_t passed = 0;
      const bool loaded = load_data_page(records - done, passed);
      done += passed;
      row_ += passed;
      if (!loaded) break;
    }
    int64_t entries = 0;
    int64_t started = take_records(records - done, entries, PageLevels::kWindow);
    if (entries == 0) break;  // the next entry starts a record beyond the skip
    skip_entries(entries);
    done += started;
    row_ += started;
    // A take that stopped at its limit goes on in the page.
    if (column_.max_repetition_level > 0 && page_pos_ < page_entries_ && entries == PageLevels::kWindow) continue;
    // As in read_records, the last record may go on into the next page,
    // except in v2 pages, which start records: the next page is left whole
    // for a later skip to pass over.
    if (page_pos_ < page_entries_) break;
    if (done == records && (column_.max_repetition_level == 0 || page_.header.type == PageType::DATA_PAGE_V2)) break;
  }
  return done;
}

// ---- selective reads ---------------------------------------------------------

namespace {

// How many of keep[0, n) are zero before the first that is not.
int64_t unkept_prefix(const uint8_t* keep, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, keep + i, 8);
    if (word != 0) return i + std::countr_zero(word) / 8;
  }
  while (i < n && keep[i] == 0) ++i;
  return i;
}

// Unkept runs at least this long are skipped by a selective read of a
// column with repetition; shorter ones are read and dropped by
// keep_records.
constexpr int64_t kNestedSkipRecords = 64;

}  // namespace

// Entries of the current page that keep some of their values: levels
// compacted, the values' own flags made from the levels, and the values
// read through them.
void LeafReader::select_some(const uint8_t* keep, int64_t entries, size_t kept, LeafBatch& out) {
  const int16_t max_def = column_.max_definition_level;
  const auto n = static_cast<size_t>(entries);
  // Levels are decoded only where some entry is below the maximum.
  const bool all_defined = page_all_defined_ || max_def == 0;
  if (!all_defined) cover_levels(page_pos_, page_pos_ + entries);
  const int16_t* def = all_defined ? nullptr : levels_.def(page_pos_);
  if (max_def > 0 && !(page_all_defined_ && out.def.empty())) {
    int16_t* out_def = extend_def(out, static_cast<int64_t>(kept));
    if (page_all_defined_) {
      std::fill_n(out_def, kept, max_def);  // the levels may be undecoded
    } else {
      encoding::compact_levels(def, keep, n, out_def);
    }
  }
  try {
    if (all_defined) {
      values_.read_selected(n, keep, kept, out.values);
    } else {
      // A value exists only for an entry at the maximum level.
      uint8_t* defined = defined_.data();
      for (size_t i = 0; i < n; ++i) defined[i] = def[i] == max_def;
      const size_t values = encoding::compact1(keep, defined, n, value_keep_.data());
      values_.read_selected(values, value_keep_.data(), encoding::count_kept(value_keep_.data(), values), out.values);
    }
  } catch (const Error& e) {
    with_context(e);
  }
  out.num_entries += static_cast<int64_t>(kept);
  page_pos_ += entries;
  counters_.values_decoded += static_cast<int64_t>(kept);
  counters_.values_skipped += entries - static_cast<int64_t>(kept);
}

// The next `entries` entries of the current page (a column without
// repetition: entries are records), a chunk at a time: chunks that keep
// nothing are skipped and those that keep everything read, each run of them
// in one call.
void LeafReader::select_entries(const uint8_t* keep, int64_t entries, LeafBatch& out) {
  enum class Run { kNone, kSkip, kRead };
  Run run = Run::kNone;
  int64_t run_begin = 0;
  auto flush = [&](int64_t end) {
    if (run == Run::kSkip) skip_entries(end - run_begin);
    if (run == Run::kRead) append(end - run_begin, out);
    run = Run::kNone;
  };
  for (int64_t at = 0; at < entries; at += kSelectChunk) {
    const int64_t n = std::min(kSelectChunk, entries - at);
    const auto kept = encoding::count_kept(keep + at, static_cast<size_t>(n));
    const Run kind = kept == 0 ? Run::kSkip : kept == static_cast<size_t>(n) ? Run::kRead : Run::kNone;
    if (run != Run::kNone && run != kind) flush(at);
    if (kind == Run::kNone) {
      select_some(keep + at, n, kept, out);
    } else if (run == Run::kNone) {
      run = kind;
      run_begin = at;
    }
  }
  flush(entries);
}

int64_t LeafReader::read_selected(int64_t records, const uint8_t* keep, LeafBatch& out) {
  if (records <= 0) return 0;
  if (column_.max_repetition_level > 0) return read_selected_nested(records, keep, out);
  int64_t done = 0;
  while (done < records) {
    if (page_pos_ == page_entries_) {
      // Pages wholly inside the unkept records ahead are passed over on
      // their headers.
      const int64_t unkept = unkept_prefix(keep + done, records - done);
      int64_t passed = 0;
      const bool loaded = load_data_page(unkept, passed);
      done += passed;
      row_ += passed;
      if (!loaded) {
        if (passed > 0) continue;
        break;
      }
    }
    const int64_t entries = std::min(records - done, page_entries_ - page_pos_);
    select_entries(keep + done, entries, out);
    done += entries;
    row_ += entries;
  }
  return done;
}

namespace {

// Appends the levels and values of `from` to `out`.
void append_batch(const ColumnDescriptor& column, const LeafBatch& from, LeafBatch& out) {
  const auto entries = static_cast<size_t>(from.num_entries);
  const int16_t max_def = column.max_definition_level;
  if (max_def > 0 && !(from.def.empty() && out.def.empty())) {
    if (out.def.empty() && out.num_entries > 0) {
      int16_t* fill = reinterpret_cast<int16_t*>(out.def.extend(static_cast<size_t>(out.num_entries) * 2));
      std::fill_n(fill, out.num_entries, max_def);
    }
    if (from.def.empty()) {
      std::fill_n(reinterpret_cast<int16_t*>(out.def.extend(entries * 2)), entries, max_def);
    } else {
      out.def.append(from.def.data(), entries * 2);
    }
  }
  if (column.max_repetition_level > 0) out.rep.append(from.rep.data(), entries * 2);
  const encoding::ByteArrayBatch& bytes = from.values.bytes;
  if (bytes.size() > 0) {
    encoding::ByteArrayBatch& to = out.values.bytes;
    if (!to.fits(bytes.data_size()))
      throw Error("more than 2 GiB of byte-array data in one batch; read smaller batches");
    const auto base = static_cast<int32_t>(to.data_size());
    to.data_buffer().append(bytes.data(), bytes.data_size());
    auto* off = reinterpret_cast<int32_t*>(to.offsets_buffer().extend(bytes.size() * sizeof(int32_t)));
    for (size_t i = 0; i < bytes.size(); ++i) off[i] = base + bytes.offsets()[i + 1];
  }
  out.values.fixed.append(from.values.fixed.data(), from.values.fixed.size());
  out.values.count += from.values.count;
  out.num_entries += from.num_entries;
}

}  // namespace

// Records span entries and pages here: stretches of records are read whole
// and compacted, and long unkept runs skipped (whole pages passed over where
// their headers tell their rows).
int64_t LeafReader::read_selected_nested(int64_t records, const uint8_t* keep, LeafBatch& out) {
  int64_t done = 0;
  while (done < records) {
    // The stretch ends where a long unkept run starts, or one that ends the
    // selection.
    int64_t end = done;
    while (end < records) {
      if (keep[end] != 0) {
        ++end;
        continue;
      }
      const int64_t unkept = unkept_prefix(keep + end, records - end);
      if (unkept >= kNestedSkipRecords || end + unkept == records) break;
      end += unkept;
    }
    if (end == done) {
      const int64_t unkept = unkept_prefix(keep + done, records - done);
      const int64_t got = skip_records(unkept);
      done += got;
      if (got < unkept) break;
      continue;
    }
    const int64_t want = end - done;
    int64_t got = 0;
    if (encoding::count_kept(keep + done, static_cast<size_t>(want)) == static_cast<size_t>(want)) {
      got = read_records(want, out);
    } else {
      nested_.clear();
      got = read_records(want, nested_);
      keep_records(nested_, column_, keep + done, got);
      append_batch(column_, nested_, out);
    }
    done += got;
    if (got < want) break;
  }
  return done;
}

}  // namespace parq
