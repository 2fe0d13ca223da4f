// Column chunk writing: see column_writer.h.
//
// Entries go into the open page in slices of up to kSliceEntries that end
// at row starts, so a page never splits a row (the page index and v2
// headers count whole rows) and the page limits are checked often enough to
// overshoot by little. A dictionary that reaches its limits stops at a
// value; the slice is then cut at the start of that value's row, the page
// closes, and the chunk's remaining values go to the fallback encoding.
#include "column_writer.h"

#include <algorithm>
#include <cstring>

#include "parq/column/bloom_filter.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"
#include "util/level_count.h"

namespace parq {
namespace {

using format::Encoding;
using format::PageType;
using format::Type;

constexpr int64_t kSliceEntries = 4096;

bool bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

bool is_float(const ColumnDescriptor& c) {
  return c.type.physical == Type::FLOAT || c.type.physical == Type::DOUBLE ||
         (c.type.physical == Type::FIXED_LEN_BYTE_ARRAY && c.type.logical.FLOAT16.has_value());
}

// Few levels (the common case) count one level per vectorised pass; a
// scattered increment per entry would serialise on the counters.
void add_histogram(std::vector<int64_t>& histogram, const int16_t* levels, int64_t n) {
  int64_t* h = histogram.data();
  const size_t size = histogram.size();
  if (size <= 4) {
    int64_t rest = n;
    for (size_t k = 1; k < size; ++k) {
      const int64_t c = count_levels_equal(levels, n, static_cast<int16_t>(k));
      h[k] += c;
      rest -= c;
    }
    h[0] += rest;
    return;
  }
  for (int64_t i = 0; i < n; ++i) ++h[levels[i]];
}

void add_to(std::vector<int64_t>& into, const std::vector<int64_t>& from) {
  for (size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

void count_encoding(std::vector<format::PageEncodingStats>& stats, PageType type, Encoding encoding) {
  for (auto& s : stats)
    if (s.page_type == type && s.encoding == encoding) {
      ++s.count;
      return;
    }
  stats.push_back({type, encoding, 1});
}

void apply(ColumnWriterOptions& r, const ColumnWriteOptions& c) {
  if (c.dictionary) r.dictionary = *c.dictionary;
  if (c.encoding) {
    if (*c.encoding == Encoding::RLE_DICTIONARY || *c.encoding == Encoding::PLAIN_DICTIONARY) {
      r.dictionary = true;
      r.weigh_dictionary = false;
    } else {
      r.fallback = *c.encoding;
      if (!c.dictionary) r.dictionary = false;  // asking for an encoding means using it
    }
  }
  if (c.codec) r.codec = *c.codec;
  if (c.statistics) r.statistics = *c.statistics;
  if (c.bloom_filter) r.bloom_filter = *c.bloom_filter;
  if (c.float_total_order) r.float_total_order = *c.float_total_order;
}

format::BoundaryOrder boundary_order(const format::ColumnIndex& index, const StatisticsBuilder& order) {
  bool ascending = true, descending = true;
  const std::string* prev_min = nullptr;
  const std::string* prev_max = nullptr;
  for (size_t i = 0; i < index.null_pages.size(); ++i) {
    if (index.null_pages[i]) continue;
    if (prev_min != nullptr) {
      const int mins = order.compare(*prev_min, index.min_values[i]);
      const int maxes = order.compare(*prev_max, index.max_values[i]);
      ascending = ascending && mins <= 0 && maxes <= 0;
      descending = descending && mins >= 0 && maxes >= 0;
    }
    prev_min = &index.min_values[i];
    prev_max = &index.max_values[i];
  }
  if (ascending) return format::BoundaryOrder::ASCENDING;
  if (descending) return format::BoundaryOrder::DESCENDING;
  return format::BoundaryOrder::UNORDERED;
}

}  // namespace

ColumnWriterOptions resolve_column_options(const WriteOptions& o, const ColumnDescriptor& column) {
  ColumnWriterOptions r;
  r.page_version = o.page_version;
  r.dictionary = o.dictionary;
  r.fallback = default_fallback_encoding(column.type.physical, o.page_version);
  r.dictionary_limits = o.dictionary_limits;
  r.weigh_dictionary = o.weigh_dictionary;
  r.codec = o.codec;
  r.statistics = o.statistics;
  r.page_index = o.page_index;
  r.page_crc = o.page_crc;
  r.min_compression_saving = o.min_compression_saving;
  r.max_statistics_bytes = o.max_statistics_bytes;
  r.float_total_order = o.float_total_order;
  r.page_bytes = o.page_bytes;
  r.page_rows = o.page_rows;
  // std::map orders a group's path before the paths below it, so the most
  // specific setting is applied last.
  const std::string path = column.dotted_path();
  for (const auto& [key, settings] : o.columns)
    if (key == path || (path.size() > key.size() && path.compare(0, key.size(), key) == 0 && path[key.size()] == '.'))
      apply(r, settings);
  if (!dictionary_applies(column.type.physical)) r.dictionary = false;
  // ZSTD's own default (3) compresses lineitem-like data 1.5x slower than
  // level 1 for 2-3% smaller pages; Arrow C++ writes level 1 by default too.
  if (r.codec.id == format::CompressionCodec::ZSTD && r.codec.level == compression::kDefaultLevel) r.codec.level = 1;
  return r;
}

ColumnWriter::ColumnWriter(const ColumnDescriptor& column, ColumnWriterOptions options,
                           const crypto::FileEncryptor* encryptor, int32_t ordinal)
    : column_(column), options_(std::move(options)), sink_(column_, options_, encryptor, ordinal) {
  if (options_.page_version != 1 && options_.page_version != 2)
    throw Error("page version " + std::to_string(options_.page_version) + " is not 1 or 2",
                ErrorKind::kInvalidArgument);
  if (!(options_.min_compression_saving >= 0 && options_.min_compression_saving <= 1))
    throw Error("min_compression_saving " + std::to_string(options_.min_compression_saving) +
                    " is not a fraction between 0 and 1",
                ErrorKind::kInvalidArgument);
  if (options_.dictionary)
    dictionary_ = ValueWriter::make(column_, Encoding::RLE_DICTIONARY, options_.dictionary_limits);
  fallback_ = ValueWriter::make(column_, options_.fallback);
  if (options_.statistics || options_.page_index) {
    page_stats_ = StatisticsBuilder::make(column_, options_.max_statistics_bytes, options_.float_total_order);
    chunk_stats_ = StatisticsBuilder::make(column_, options_.max_statistics_bytes, options_.float_total_order);
  }
  def_encoder_.reset(encoding::bit_width_for(static_cast<uint64_t>(column_.max_definition_level)));
  rep_encoder_.reset(encoding::bit_width_for(static_cast<uint64_t>(column_.max_repetition_level)));
  page_def_histogram_.assign(static_cast<size_t>(column_.max_definition_level) + 1, 0);
  page_rep_histogram_.assign(static_cast<size_t>(column_.max_repetition_level) + 1, 0);
  reset_chunk();
}

ColumnWriter::~ColumnWriter() = default;

void ColumnWriter::reset_chunk() {
  chunk_ = ColumnChunkPages{};
  chunk_.data_pages = std::move(spare_data_pages_);
  chunk_.dictionary_page = std::move(spare_dictionary_page_);
  chunk_entries_ = chunk_rows_ = chunk_uncompressed_ = chunk_byte_array_bytes_ = 0;
  chunk_def_histogram_.assign(page_def_histogram_.size(), 0);
  chunk_rep_histogram_.assign(page_rep_histogram_.size(), 0);
  encoding_stats_.clear();
  index_bounds_complete_ = true;
  bloom_hashes_.clear();
  if (chunk_stats_) chunk_stats_->reset();
  if (dictionary_) dictionary_->reset();
  values_ = dictionary_ ? dictionary_.get() : fallback_.get();
  dictionary_pages_ = 0;
  entries_before_ = entries_bytes_before_ = 0;
  if (options_.page_index) {
    chunk_.column_index.emplace();
    chunk_.offset_index.emplace();
  }
}

// ---- dense values ----

void ColumnWriter::gather(const ShreddedLeaf& leaf) {
  const Array& a = *leaf.array;
  dense_ = DenseValues{};
  dense_.count = leaf.num_values;
  const bool contiguous = leaf.ranges.size() == 1 && leaf.num_values == leaf.ranges[0].end - leaf.ranges[0].begin;
  const bool nulls = !a.validity.empty() && a.null_count != 0;
  const uint8_t* validity = a.validity.data();
  const Type physical = column_.type.physical;

  if (physical == Type::BYTE_ARRAY) {
    if (contiguous) {
      dense_.offsets = a.offsets_data() + leaf.ranges[0].begin;
      dense_.data = a.values.data();
      return;
    }
    const int32_t* offsets = a.offsets_data();
    gathered_offsets_.resize(static_cast<size_t>(leaf.num_values + 1) * sizeof(int32_t));
    int32_t* out = gathered_offsets_.data_as<int32_t>();
    gathered_.clear();
    int64_t k = 0;
    out[0] = 0;
    for (const SlotRange& r : leaf.ranges) {
      for (int64_t i = r.begin; i < r.end;) {
        if (nulls && !bit(validity, i)) {
          ++i;
          continue;
        }
        int64_t j = i + 1;  // a run of valid slots: one copy
        while (j < r.end && (!nulls || bit(validity, j))) ++j;
        const int32_t base = static_cast<int32_t>(gathered_.size()) - offsets[i];
        gathered_.append(a.values.data() + offsets[i], static_cast<size_t>(offsets[j] - offsets[i]));
        for (int64_t s = i; s < j; ++s) out[++k] = offsets[s + 1] + base;
        i = j;
      }
    }
    dense_.offsets = out;
    dense_.data = gathered_.data();
    return;
  }

  if (physical == Type::BOOLEAN) {
    gathered_.resize(static_cast<size_t>(leaf.num_values));
    uint8_t* out = gathered_.data();
    for (const SlotRange& r : leaf.ranges)
      for (int64_t i = r.begin; i < r.end; ++i)
        if (!nulls || bit(validity, i)) *out++ = bit(a.values.data(), i);
    dense_.fixed = gathered_.data();
    return;
  }

  const size_t width = static_cast<size_t>(a.value_width());
  if (contiguous) {
    dense_.fixed = a.values.data() + static_cast<size_t>(leaf.ranges[0].begin) * width;
    return;
  }
  gathered_.resize(static_cast<size_t>(leaf.num_values) * width);
  uint8_t* out = gathered_.data();
  for (const SlotRange& r : leaf.ranges) {
    if (!nulls) {
      const size_t bytes = static_cast<size_t>(r.end - r.begin) * width;
      std::memcpy(out, a.values.data() + static_cast<size_t>(r.begin) * width, bytes);
      out += bytes;
      continue;
    }
    for (int64_t i = r.begin; i < r.end; ++i)
      if (bit(validity, i)) {
        std::memcpy(out, a.values.data() + static_cast<size_t>(i) * width, width);
        out += width;
      }
  }
  dense_.fixed = gathered_.data();
}

// ---- pages ----

void ColumnWriter::write(const ShreddedLeaf& leaf) {
  if (leaf.num_entries == 0) return;
  gather(leaf);
  write_entries(leaf);
}

int64_t ColumnWriter::count_values(const ShreddedLeaf& leaf, int64_t begin, int64_t end) const {
  if (column_.max_definition_level == 0) return end - begin;
  return count_levels_equal(leaf.def_levels() + begin, end - begin, column_.max_definition_level);
}

int64_t ColumnWriter::next_cut(const ShreddedLeaf& leaf, int64_t from, int64_t want) const {
  int64_t end = std::min(leaf.num_entries, from + std::max<int64_t>(want, 1));
  if (column_.max_repetition_level == 0) return end;
  const int16_t* rep = leaf.rep_levels();
  while (end < leaf.num_entries && rep[end] != 0) ++end;
  return end;
}

void ColumnWriter::write_entries(const ShreddedLeaf& leaf) {
  int64_t e = 0;
  int64_t v = 0;
  while (e < leaf.num_entries) {
    int64_t want = kSliceEntries;
    if (options_.page_rows > 0) want = std::min(want, options_.page_rows - page_rows_);
    const int64_t e1 = next_cut(leaf, e, want);
    const int64_t nv = count_values(leaf, e, e1);
    // A dictionary that fills up moves e and v to where the fallback starts.
    if (!put_values(leaf, e, e1, v, nv)) continue;
    add_to_page(leaf, e, e1, v, v + nv);
    e = e1;
    v += nv;
    if (page_full()) flush_page();
  }
}

// Puts values [v, v + nv) of entries [e, e1); true when all were taken.
// When the dictionary stops, the entries before the start of the row holding
// the first value it refused go to the page, the page closes, the writer falls
// back, and e and v move to that row.
bool ColumnWriter::put_values(const ShreddedLeaf& leaf, int64_t& e, int64_t e1, int64_t& v, int64_t nv) {
  if (nv == 0) return true;
  const int64_t took = static_cast<int64_t>(values_->put(dense_, static_cast<size_t>(v), static_cast<size_t>(nv)));
  if (took == nv) return true;
  int64_t cut = e;
  const bool has_def = column_.max_definition_level > 0;
  const int16_t* def = leaf.def_levels();
  for (int64_t seen = 0; cut < e1; ++cut) {
    const bool is_value = !has_def || def[cut] == column_.max_definition_level;
    if (is_value && seen == took) break;
    seen += is_value;
  }
  if (column_.max_repetition_level > 0) {
    const int16_t* rep = leaf.rep_levels();
    while (cut > e && rep[cut] != 0) --cut;
  }
  const int64_t kept = count_values(leaf, e, cut);
  values_->drop_last(static_cast<size_t>(took - kept));
  if (cut > e) add_to_page(leaf, e, cut, v, v + kept);
  fall_back();
  e = cut;
  v += kept;
  return false;
}

void ColumnWriter::fall_back() {
  flush_page();
  values_ = fallback_.get();
  sink_.probe_compression();
}

void ColumnWriter::add_to_page(const ShreddedLeaf& leaf, int64_t e0, int64_t e1, int64_t v0, int64_t v1) {
  const int64_t n = e1 - e0;
  const int64_t nv = v1 - v0;
  if (column_.max_repetition_level > 0) {
    const int16_t* rep = leaf.rep_levels() + e0;
    rep_encoder_.put(rep, static_cast<size_t>(n));
    const int64_t rows_before = page_rep_histogram_[0];
    add_histogram(page_rep_histogram_, rep, n);
    page_rows_ += page_rep_histogram_[0] - rows_before;
  } else {
    page_rows_ += n;
  }
  if (column_.max_definition_level > 0) {
    const int16_t* def = leaf.def_levels() + e0;
    def_encoder_.put(def, static_cast<size_t>(n));
    add_histogram(page_def_histogram_, def, n);
  }
  page_entries_ += n;
  page_values_ += nv;
  const bool byte_array = column_.type.physical == Type::BYTE_ARRAY;
  if (byte_array && nv > 0) page_byte_array_bytes_ += dense_.offsets[v1] - dense_.offsets[v0];
  if (page_stats_) {
    page_stats_->add_nulls(n - nv);
    if (nv > 0) {
      if (byte_array && values_->is_dictionary()) {
        note_dictionary_values(static_cast<size_t>(nv));
      } else if (byte_array) {
        page_stats_->add_byte_arrays(dense_.offsets + v0, dense_.data, static_cast<size_t>(nv));
      } else if (column_.type.physical == Type::BOOLEAN) {
        page_stats_->add_values(dense_.fixed + v0, static_cast<size_t>(nv));
      } else {
        const size_t width = static_cast<size_t>(leaf.array->value_width());
        page_stats_->add_values(dense_.fixed + static_cast<size_t>(v0) * width, static_cast<size_t>(nv));
      }
    }
  }
  if (options_.bloom_filter && nv > 0) {
    const size_t at = bloom_hashes_.size();
    bloom_hashes_.resize(at + static_cast<size_t>(nv));
    if (byte_array) {
      BloomFilter::hash_byte_arrays(dense_.offsets + v0, dense_.data, static_cast<size_t>(nv),
                                    bloom_hashes_.data() + at);
    } else {
      const size_t width = static_cast<size_t>(leaf.array->value_width());
      BloomFilter::hash_values(column_.type.physical, column_.type.type_length,
                               dense_.fixed + static_cast<size_t>(v0) * width, static_cast<size_t>(nv),
                               bloom_hashes_.data() + at);
    }
  }
}

// The last n indices put are the values just added to the page.
void ColumnWriter::note_dictionary_values(size_t n) {
  const std::span<const uint32_t> indices = values_->page_indices();
  const uint32_t* idx = indices.data() + indices.size() - n;
  if (entry_seen_.size() < values_->dictionary_entries()) entry_seen_.resize(values_->dictionary_entries() * 2, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t e = idx[i];
    if (!entry_seen_[e]) {
      entry_seen_[e] = 1;
      entries_seen_.push_back(e);
    }
  }
}

void ColumnWriter::fold_dictionary_values() {
  if (entries_seen_.empty()) return;
  // Own scratch: the slice's dense values may live in gathered_*.
  fold_offsets_.resize((entries_seen_.size() + 1) * sizeof(int32_t));
  int32_t* offsets = fold_offsets_.data_as<int32_t>();
  Buffer& data = fold_data_;
  data.clear();
  offsets[0] = 0;
  for (size_t i = 0; i < entries_seen_.size(); ++i) {
    const std::string_view v = values_->byte_array_entry(entries_seen_[i]);
    data.append(v);
    offsets[i + 1] = static_cast<int32_t>(data.size());
    entry_seen_[entries_seen_[i]] = 0;
  }
  page_stats_->add_byte_arrays(offsets, data.data(), entries_seen_.size());
  entries_seen_.clear();
}

size_t ColumnWriter::open_page_estimate() const {
  if (page_entries_ == 0) return 0;
  return values_->estimated_size() + def_encoder_.max_encoded_size() + rep_encoder_.max_encoded_size();
}

bool ColumnWriter::page_full() const {
  return static_cast<int64_t>(open_page_estimate()) >= options_.page_bytes ||
         (options_.page_rows > 0 && page_rows_ >= options_.page_rows);
}

size_t ColumnWriter::buffered_bytes() const { return static_cast<size_t>(chunk_.size()) + open_page_estimate(); }

void ColumnWriter::flush_page() {
  if (page_entries_ == 0) return;
  if (page_stats_) fold_dictionary_values();
  const bool v2 = options_.page_version == 2;
  const bool has_rep = column_.max_repetition_level > 0;
  const bool has_def = column_.max_definition_level > 0;
  levels_.clear();
  body_.clear();
  Buffer& level_out = v2 ? levels_ : body_;
  int32_t rep_bytes = 0, def_bytes = 0;
  if (has_rep) {
    const size_t before = level_out.size();
    v2 ? rep_encoder_.flush(level_out) : rep_encoder_.flush_with_length_prefix(level_out);
    rep_bytes = static_cast<int32_t>(level_out.size() - before);
  }
  if (has_def) {
    const size_t before = level_out.size();
    v2 ? def_encoder_.flush(level_out) : def_encoder_.flush_with_length_prefix(level_out);
    def_bytes = static_cast<int32_t>(level_out.size() - before);
  }
  const Encoding encoding = values_->encoding();
  // A chunk's second dictionary page is weighed (fallback_page_cost); its
  // first records where the dictionary's entries stood.
  const bool weigh = values_->is_dictionary() && options_.weigh_dictionary && dictionary_pages_ == 1;
  const std::optional<size_t> fallback_cost = weigh ? fallback_page_cost() : std::nullopt;
  const size_t values_at = body_.size();
  values_->flush(body_);
  bool loses = false;
  if (fallback_cost) {
    const size_t dictionary_cost = sink_.compressed_size(body_.span().subspan(values_at)) +
                                   sink_.compressed_size(trial_entries_.span().subspan(entries_bytes_before_));
    loses = *fallback_cost + *fallback_cost / 32 < dictionary_cost;
  }
  if (values_->is_dictionary() && dictionary_pages_++ == 0) {
    entries_before_ = values_->dictionary_entries();
    entries_bytes_before_ = values_->dictionary_bytes();
  }

  std::optional<format::Statistics> statistics;
  if (options_.statistics && page_stats_) statistics = page_stats_->to_thrift();
  format::PageHeader header;
  if (v2) {
    header.type = PageType::DATA_PAGE_V2;
    format::DataPageHeaderV2 h;
    h.num_values = checked_int32(page_entries_, column_, "a page's value count");
    h.num_nulls = static_cast<int32_t>(page_entries_ - page_values_);
    h.num_rows = static_cast<int32_t>(page_rows_);
    h.encoding = encoding;
    h.definition_levels_byte_length = def_bytes;
    h.repetition_levels_byte_length = rep_bytes;
    if (options_.codec.id == format::CompressionCodec::UNCOMPRESSED) h.is_compressed = false;
    h.statistics = std::move(statistics);
    header.data_page_header_v2 = std::move(h);
  } else {
    header.type = PageType::DATA_PAGE;
    format::DataPageHeader h;
    h.num_values = checked_int32(page_entries_, column_, "a page's value count");
    h.encoding = encoding;
    h.definition_level_encoding = Encoding::RLE;
    h.repetition_level_encoding = Encoding::RLE;
    h.statistics = std::move(statistics);
    header.data_page_header = std::move(h);
  }
  const size_t page_offset = chunk_.data_pages.size();
  chunk_uncompressed_ += sink_.write(header, levels_, body_, chunk_.data_pages);
  count_encoding(encoding_stats_, header.type, encoding);

  if (chunk_.offset_index) {
    chunk_.offset_index->page_locations.push_back(
        {static_cast<int64_t>(page_offset), static_cast<int32_t>(chunk_.data_pages.size() - page_offset), chunk_rows_});
    if (column_.type.physical == Type::BYTE_ARRAY) {
      auto& bytes = chunk_.offset_index->unencoded_byte_array_data_bytes;
      if (!bytes) bytes.emplace();
      bytes->push_back(page_byte_array_bytes_);
    }
  }
  if (chunk_.column_index) {
    format::ColumnIndex& index = *chunk_.column_index;
    const bool null_page = page_values_ == 0;
    index.null_pages.push_back(null_page);
    if (!null_page && page_stats_->has_bounds()) {
      index.min_values.push_back(page_stats_->min_bytes());
      index.max_values.push_back(page_stats_->max_bytes());
    } else {
      if (!null_page) index_bounds_complete_ = false;
      index.min_values.emplace_back();
      index.max_values.emplace_back();
    }
    if (!index.null_counts) index.null_counts.emplace();
    index.null_counts->push_back(page_entries_ - page_values_);
    if (is_float(column_)) {
      if (!index.nan_counts) index.nan_counts.emplace();
      index.nan_counts->push_back(page_stats_->nan_count());
    }
    if (has_def) {
      if (!index.definition_level_histograms) index.definition_level_histograms.emplace();
      auto& h = *index.definition_level_histograms;
      h.insert(h.end(), page_def_histogram_.begin(), page_def_histogram_.end());
    }
    if (has_rep) {
      if (!index.repetition_level_histograms) index.repetition_level_histograms.emplace();
      auto& h = *index.repetition_level_histograms;
      h.insert(h.end(), page_rep_histogram_.begin(), page_rep_histogram_.end());
    }
  }
  if (page_stats_) {
    chunk_stats_->merge(*page_stats_);
    page_stats_->reset();
  }
  add_to(chunk_def_histogram_, page_def_histogram_);
  add_to(chunk_rep_histogram_, page_rep_histogram_);
  std::fill(page_def_histogram_.begin(), page_def_histogram_.end(), 0);
  std::fill(page_rep_histogram_.begin(), page_rep_histogram_.end(), 0);
  chunk_entries_ += page_entries_;
  chunk_rows_ += page_rows_;
  chunk_byte_array_bytes_ += page_byte_array_bytes_;
  page_entries_ = page_values_ = page_rows_ = page_byte_array_bytes_ = 0;
  if (loses) {
    values_ = fallback_.get();
    sink_.probe_compression();
  }
}

// The open page's values in the fallback encoding, compressed. flush_page
// weighs it against the page's indices plus the dictionary entries the page
// added (the tail of the dictionary page, left in trial_entries_), and the
// chunk falls back when that is clearly smaller. A dictionary of many
// distinct values (keys, prices, sentences) costs an entry per value plus
// indices as wide as the entries are many, bit-packed where the codec finds
// no repeats, while the values often compress well as they are (sorted keys
// by far the best); judging by raw sizes, as writers do, keeps such
// dictionaries, judging after the codec sees what the file will hold. The
// second page is the one weighed: the first pays for every entry it meets,
// also those that later pages repeat (10,000 suppliers over 20,000 rows are
// mostly new there, and mostly old by the second page). A page that adds
// fewer entries than a sixteenth of its values is not weighed: there the
// dictionary wins on its own and keeps the chunk open to dictionary pruning
// (nullopt: not weighed).
std::optional<size_t> ColumnWriter::fallback_page_cost() {
  const std::span<const uint32_t> indices = values_->page_indices();
  const size_t n = indices.size();
  const size_t entries = values_->dictionary_entries();
  if (n == 0 || (entries - std::min(entries, entries_before_)) * 16 <= n) return std::nullopt;
  DenseValues dense;
  dense.count = static_cast<int64_t>(n);
  trial_entries_.clear();
  values_->write_dictionary(trial_entries_);
  if (column_.type.physical == Type::BYTE_ARRAY) {
    // Repeats of long entries can make the page's values far larger than
    // its indices; such a page is the dictionary's case anyway.
    size_t total = 0;
    for (uint32_t i : indices) total += values_->byte_array_entry(i).size();
    // Bounded too so that offsets stay within int32 whatever page_bytes is.
    const size_t cap = std::min(static_cast<size_t>(std::max<int64_t>(options_.page_bytes, 1)) * 4, size_t{1} << 28);
    if (total > cap) return std::nullopt;
    trial_offsets_.resize((n + 1) * sizeof(int32_t));
    int32_t* offsets = trial_offsets_.data_as<int32_t>();
    trial_values_.resize(total);
    uint8_t* out = trial_values_.data();
    offsets[0] = 0;
    size_t at = 0;
    for (size_t k = 0; k < n; ++k) {
      const std::string_view v = values_->byte_array_entry(indices[k]);
      if (!v.empty()) std::memcpy(out + at, v.data(), v.size());
      at += v.size();
      offsets[k + 1] = static_cast<int32_t>(at);
    }
    dense.offsets = offsets;
    dense.data = out;
  } else {
    const size_t width = trial_entries_.size() / entries;
    if (n * width > (size_t{1} << 28)) return std::nullopt;
    trial_values_.resize(n * width);
    const uint8_t* from = trial_entries_.data();
    uint8_t* out = trial_values_.data();
    for (size_t k = 0; k < n; ++k) std::memcpy(out + k * width, from + indices[k] * width, width);
    dense.fixed = out;
  }
  fallback_->put(dense, 0, n);
  trial_body_.clear();
  fallback_->flush(trial_body_);
  return sink_.compressed_size(trial_body_.span());
}

void ColumnWriter::finish_bloom_filter(ColumnChunkPages& out) {
  if (!options_.bloom_filter) return;
  std::sort(bloom_hashes_.begin(), bloom_hashes_.end());
  bloom_hashes_.erase(std::unique(bloom_hashes_.begin(), bloom_hashes_.end()), bloom_hashes_.end());
  uint64_t ndv = options_.bloom_filter->ndv != 0 ? options_.bloom_filter->ndv : bloom_hashes_.size();
  BloomFilter filter(BloomFilter::optimal_num_bytes(std::max<uint64_t>(ndv, 1), options_.bloom_filter->fpp));
  for (uint64_t h : bloom_hashes_) filter.insert(h);
  sink_.write_bloom_filter(filter, out.bloom_filter);
}

void ColumnWriter::recycle(ColumnChunkPages&& written) {
  auto take_back = [](Buffer& mine, Buffer& spare, Buffer& theirs) {
    Buffer& into = mine.size() == 0 ? mine : spare;
    if (theirs.capacity() <= into.capacity()) return;
    theirs.clear();
    into = std::move(theirs);
  };
  take_back(chunk_.data_pages, spare_data_pages_, written.data_pages);
  take_back(chunk_.dictionary_page, spare_dictionary_page_, written.dictionary_page);
}

ColumnChunkPages ColumnWriter::finish() {
  flush_page();
  ColumnChunkPages out = std::move(chunk_);
  const bool has_levels = column_.max_definition_level > 0 || column_.max_repetition_level > 0;
  if (dictionary_pages_ > 0) {
    body_.clear();
    levels_.clear();
    dictionary_->write_dictionary(body_);
    format::PageHeader header;
    header.type = PageType::DICTIONARY_PAGE;
    format::DictionaryPageHeader h;
    h.num_values = checked_int32(static_cast<int64_t>(dictionary_->dictionary_entries()), column_, "a dictionary");
    h.encoding = Encoding::PLAIN;
    header.dictionary_page_header = h;
    chunk_uncompressed_ += sink_.write(header, levels_, body_, out.dictionary_page);
    encoding_stats_.insert(encoding_stats_.begin(), {PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1});
  }

  format::ColumnMetaData& m = out.metadata;
  m.type = column_.type.physical;
  m.path_in_schema = column_.path;
  m.codec = options_.codec.id;
  m.num_values = chunk_entries_;
  m.total_uncompressed_size = chunk_uncompressed_;
  m.total_compressed_size = out.size();
  m.data_page_offset = static_cast<int64_t>(out.dictionary_page.size());
  if (dictionary_pages_ > 0) m.dictionary_page_offset = 0;
  for (const auto& s : encoding_stats_)
    if (std::find(m.encodings.begin(), m.encodings.end(), s.encoding) == m.encodings.end())
      m.encodings.push_back(s.encoding);
  if (has_levels && std::find(m.encodings.begin(), m.encodings.end(), Encoding::RLE) == m.encodings.end())
    m.encodings.push_back(Encoding::RLE);
  m.encoding_stats = encoding_stats_;
  if (options_.statistics && chunk_stats_) {
    m.statistics = chunk_stats_->to_thrift();
    m.geospatial_statistics = chunk_stats_->geospatial();
  }
  format::SizeStatistics size;
  if (column_.type.physical == Type::BYTE_ARRAY) size.unencoded_byte_array_data_bytes = chunk_byte_array_bytes_;
  if (column_.max_definition_level > 0) size.definition_level_histogram = chunk_def_histogram_;
  if (column_.max_repetition_level > 0) size.repetition_level_histogram = chunk_rep_histogram_;
  if (size != format::SizeStatistics{}) m.size_statistics = std::move(size);

  if (out.offset_index)
    for (auto& location : out.offset_index->page_locations) location.offset += m.data_page_offset;
  if (out.column_index) {
    if (index_bounds_complete_ && chunk_stats_) {
      out.column_index->boundary_order = boundary_order(*out.column_index, *chunk_stats_);
    } else {
      out.column_index.reset();  // min/max are required of every non-null page
    }
  }
  finish_bloom_filter(out);
  sink_.start_chunk();
  reset_chunk();
  return out;
}

}  // namespace parq
