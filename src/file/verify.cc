// Verifying a file; see parq/file/verify.h.
//
// The pages are walked by the reader's own PageReader (CRCs reported, not
// thrown), their levels decoded by the reader's level decoding and their
// values by its ValueReader; the values' statistics are built by the
// writer's StatisticsBuilder and compared with the file's in the order the
// read plan trusts them in. So verify judges a file by what a read of it
// would meet, not by a second reading of the format.
#include "parq/file/verify.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../column/level_decoding.h"
#include "../column/statistics_builder.h"
#include "../column/value_reader.h"
#include "../plan/planner.h"
#include "parq/column/page_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/page_index.h"
#include "parq/filter/literal.h"
#include "parq/text/value_text.h"

namespace parq {
namespace {

using format::PageType;

// Values decoded at a time: bounds the memory of a page's values to a
// batch, whatever the page holds.
constexpr size_t kValueBatch = 4096;

std::string range_text(uint64_t offset, uint64_t length) {
  return "[" + std::to_string(offset) + ", +" + std::to_string(length) + ")";
}

// Counts from hostile headers add up without overflowing: past any real
// count they stay wrong, which is all a report needs.
int64_t add_counts(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

// What a data page's levels and values turned out to hold.
struct PageCounts {
  int64_t values = 0;  // level entries, nulls included
  int64_t nulls = 0;
  int64_t rows = 0;
};

class Verifier {
 public:
  Verifier(const FileReader& file, const VerifyOptions& options, VerifyReport& report)
      : file_(file), md_(file.metadata()), options_(options), report_(report) {}

  void run() {
    check_layout();
    for (size_t g = 0; g < md_.row_groups.size(); ++g) {
      for (size_t c = 0; c < file_.schema().num_columns() && c < md_.row_groups[g].columns.size(); ++c) {
        if (!options_.columns.empty() &&
            std::find(options_.columns.begin(), options_.columns.end(), c) == options_.columns.end())
          continue;
        check_chunk(g, c);
      }
    }
  }

 private:
  void problem(ErrorLocation where, std::string what) {
    if (where.file.empty()) where.file = file_.name();
    VerifyProblem p{std::move(where), std::move(what)};
    ++report_.problem_count;
    if (options_.on_problem) options_.on_problem(p);
    if (report_.problems.size() < options_.max_kept_problems) report_.problems.push_back(std::move(p));
  }
  void problem(const Error& e, const ErrorLocation& outer) {
    if (e.kind() == ErrorKind::kIo) throw e.within(outer);
    problem(e.location().within(outer), e.detail());
  }
  // Whether a statistics null count agrees with the `nulls` (entries below
  // the maximum definition level) the levels have. Writers disagree on what
  // a nested column's nulls are: parquet-java counts every such entry,
  // Arrow only the null leaves (not the empty or null lists above them).
  // So below a repeated or nested optional field any count up to `nulls`
  // passes; a flat column's must be exact.
  bool null_count_fits(int64_t stated, int64_t nulls) const {
    if (column_->max_repetition_level == 0 && column_->max_definition_level <= 1) return stated == nulls;
    return stated >= 0 && stated <= nulls;
  }
  ErrorLocation chunk_where(size_t g, size_t c) const { return chunk_location(file_.name(), md_, g, c); }

  // Ranges of the file's parts, their overlaps and the row counts: from the
  // footer alone.
  void check_layout();
  void check_chunk_ranges(size_t g, size_t c, std::vector<std::pair<ChunkRange, ErrorLocation>>& ranges);
  void check_bloom_filter(size_t g, size_t c);

  // The pages of one chunk.
  void check_chunk(size_t g, size_t c);
  void check_dictionary_page(PageReader& pages, const PageInfo& page, ValueReader& values);
  // `first_entry`: no data page before it had entries.
  std::optional<PageCounts> check_data_page(PageReader& pages, const PageInfo& page, ValueReader& values,
                                            int64_t values_left, bool first_entry);
  void check_offset_index(const ErrorLocation& where, const PageInfo& page, int64_t ordinal, int64_t first_row);
  void check_column_index(const ErrorLocation& where, int64_t ordinal, const PageCounts& counts);
  // `stated` against the values `data` was built from.
  void check_statistics(const ErrorLocation& where, const std::string& what, const format::Statistics& stated,
                        const StatisticsBuilder& data, int64_t non_null);
  void check_bounds(const ErrorLocation& where, const std::string& what, const std::string& min, const std::string& max,
                    const StatisticsBuilder& data);

  const FileReader& file_;
  const format::FileMetaData& md_;
  const VerifyOptions& options_;
  VerifyReport& report_;

  // The chunk being verified.
  const ColumnDescriptor* column_ = nullptr;
  std::optional<PageIndex> index_;
  std::unique_ptr<StatisticsBuilder> page_stats_;
  PageLevels levels_;
  LeafValues batch_;
};

void Verifier::check_layout() {
  int64_t rows = 0;
  std::vector<std::pair<ChunkRange, ErrorLocation>> ranges;
  for (size_t g = 0; g < md_.row_groups.size(); ++g) {
    const format::RowGroup& rg = md_.row_groups[g];
    const ErrorLocation where{.file = file_.name(), .row_group = static_cast<int64_t>(g)};
    if (rg.num_rows < 0) problem(where, "negative num_rows " + std::to_string(rg.num_rows));
    rows += std::max<int64_t>(rg.num_rows, 0);
    if (rg.columns.size() != file_.schema().num_columns())
      problem(where, "the row group has " + std::to_string(rg.columns.size()) + " column chunks, the schema " +
                         std::to_string(file_.schema().num_columns()) + " leaf columns");
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      check_chunk_ranges(g, c, ranges);
      check_bloom_filter(g, c);
    }
  }
  if (rows != md_.num_rows)
    problem({.file = file_.name()}, "FileMetaData.num_rows is " + std::to_string(md_.num_rows) +
                                        ", the row groups hold " + std::to_string(rows));
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.first.offset < b.first.offset; });
  for (size_t i = 1; i < ranges.size(); ++i) {
    const auto& [before, before_where] = ranges[i - 1];
    const auto& [range, where] = ranges[i];
    if (range.offset < before.offset + before.length)
      problem(where, "column chunk " + range_text(range.offset, range.length) + " overlaps the chunk of column " +
                         before_where.column + " in row group " + std::to_string(before_where.row_group) + " " +
                         range_text(before.offset, before.length));
  }
}

void Verifier::check_chunk_ranges(size_t g, size_t c, std::vector<std::pair<ChunkRange, ErrorLocation>>& ranges) {
  const format::ColumnChunk& chunk = md_.row_groups[g].columns[c];
  const ErrorLocation where = chunk_where(g, c);
  // Data lies between the leading magic and the footer.
  const uint64_t data_end = file_.footer().metadata_offset;
  auto inside = [&](const char* what, int64_t offset, int64_t length) {
    if (offset < static_cast<int64_t>(file::kMagicSize) || length < 0 || static_cast<uint64_t>(offset) > data_end ||
        static_cast<uint64_t>(length) > data_end - static_cast<uint64_t>(offset))
      problem(where, std::string(what) + " " + std::to_string(offset) + " (length " + std::to_string(length) +
                         ") is outside the file's data [4, " + std::to_string(data_end) + ")");
  };
  if (chunk.offset_index_offset || chunk.column_index_offset) {
    try {
      const PageIndexRanges r = page_index_ranges(md_, g, c, file_.input().size(), file_.name());
      if (r.column_index) inside("column index", r.column_index->offset, r.column_index->length);
      if (r.offset_index) inside("offset index", r.offset_index->offset, r.offset_index->length);
    } catch (const Error& e) {
      problem(e, where);
    }
  }
  // Chunks elsewhere are checked against their own file when their pages
  // are read; chunks whose metadata is encrypted have no ranges to check.
  if (chunk.file_path || !chunk.meta_data) return;
  const format::ColumnMetaData& cm = *chunk.meta_data;
  // A data_page_offset inside the leading magic of a chunk without values
  // is a placeholder (Arrow's, beside a dictionary page), which the reader
  // passes over.
  if (cm.num_values != 0 || cm.data_page_offset >= static_cast<int64_t>(file::kMagicSize))
    inside("data_page_offset", cm.data_page_offset, 0);
  if (cm.dictionary_page_offset.value_or(0) > 0) inside("dictionary_page_offset", *cm.dictionary_page_offset, 0);
  if (cm.bloom_filter_offset)
    inside("bloom_filter_offset", *cm.bloom_filter_offset, cm.bloom_filter_length.value_or(0));
  try {
    // The stated extent: chunk_range's allowance for old writers that
    // under-reported it would overlap the next chunk.
    ChunkRange range = chunk_range(md_, g, c, file_.input().size());
    range.length = static_cast<uint64_t>(cm.total_compressed_size);
    inside("column chunk at", static_cast<int64_t>(range.offset), static_cast<int64_t>(range.length));
    ranges.emplace_back(range, where);
  } catch (const Error& e) {
    problem(e, where);
  }
}

void Verifier::check_bloom_filter(size_t g, size_t c) {
  const format::ColumnChunk& chunk = md_.row_groups[g].columns[c];
  if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset) return;
  try {
    read_bloom_filter(file_, g, c);
  } catch (const Error& e) {
    problem(e, chunk_where(g, c));
  }
}

void Verifier::check_chunk(size_t g, size_t c) {
  const ErrorLocation where = chunk_where(g, c);
  const ColumnDescriptor& column = file_.schema().column(c);
  column_ = &column;
  const format::RowGroup& rg = md_.row_groups[g];
  PageReaderOptions page_options;
  page_options.verify_crc = false;
  page_options.report_crc = true;
  page_options.max_page_bytes = options_.max_page_bytes;
  page_options.decryptor = file_.footer().decryptor;
  std::optional<PageReader> pages;
  std::optional<ValueReader> values;
  std::unique_ptr<StatisticsBuilder> chunk_stats;
  try {
    pages.emplace(file_.chunk_input(g, c), md_, g, c, column.dotted_path(), page_options);
    values.emplace(column.type.physical, column.type.type_length, column.dotted_path());
    const format::ColumnMetaData& cm = pages->metadata();
    if (cm.type != column.type.physical)
      problem(where, std::string("the chunk's type is ") + format::to_string(cm.type) + ", the schema's " +
                         format::to_string(column.type.physical));
    // Bounds in total order keep -0.0 apart from +0.0 and may be NaN; the
    // values' bounds are built the same way.
    const bool total_order =
        md_.column_orders && c < md_.column_orders->size() && (*md_.column_orders)[c].IEEE_754_TOTAL_ORDER;
    page_stats_ = StatisticsBuilder::make(column, 0, total_order);
    chunk_stats = StatisticsBuilder::make(column, 0, total_order);
  } catch (const Error& e) {
    problem(e, where);
    return;
  }
  ++report_.chunks;
  const int64_t pages_before = report_.pages;
  index_.reset();
  try {
    index_ = read_page_index(file_, g, c);
  } catch (const Error& e) {
    problem(e.location().within(where), "page index: " + e.detail());
  }
  const format::ColumnMetaData& cm = pages->metadata();
  bool stats_complete = true;  // every data page's values were decoded
  bool rows_known = true;
  int64_t values_seen = 0, rows_seen = 0, non_null = 0;
  int64_t data_pages = 0;
  std::optional<uint64_t> first_data_page, dictionary_page;
  bool read_to_end = true;
  PageInfo page;
  for (;;) {
    try {
      if (!pages->next(page)) break;
    } catch (const Error& e) {
      problem(e, where);
      read_to_end = false;
      break;
    }
    ++report_.pages;
    const ErrorLocation page_where = pages->location(page);
    if (page.crc == CrcStatus::kInvalid)
      problem(page_where, "page CRC mismatch (stored " + std::to_string(static_cast<uint32_t>(*page.header.crc)) +
                              ", the page's bytes differ)");
    if (page.header.type == PageType::DICTIONARY_PAGE) {
      if (dictionary_page || first_data_page)
        problem(page_where,
                dictionary_page ? "a second dictionary page" : "a dictionary page after the first data page");
      if (!dictionary_page) dictionary_page = page.header_offset;
      check_dictionary_page(*pages, page, *values);
      continue;
    }
    if (page.header.type != PageType::DATA_PAGE && page.header.type != PageType::DATA_PAGE_V2) continue;
    if (!first_data_page) first_data_page = page.header_offset;
    const int64_t ordinal = data_pages++;
    check_offset_index(page_where, page, ordinal, rows_known ? rows_seen : -1);
    page_stats_->reset();
    const std::optional<PageCounts> counts = check_data_page(
        *pages, page, *values, values_seen < cm.num_values ? cm.num_values - values_seen : 0, values_seen == 0);
    if (!counts) {
      stats_complete = rows_known = false;
      const bool v2 = page.header.type == PageType::DATA_PAGE_V2;
      if (v2 && page.header.data_page_header_v2)
        values_seen = add_counts(values_seen, std::max(page.header.data_page_header_v2->num_values, 0));
      else if (!v2 && page.header.data_page_header)
        values_seen = add_counts(values_seen, std::max(page.header.data_page_header->num_values, 0));
      continue;
    }
    check_column_index(page_where, ordinal, *counts);
    values_seen = add_counts(values_seen, counts->values);
    rows_seen = add_counts(rows_seen, counts->rows);
    non_null = add_counts(non_null, counts->values - counts->nulls);
    chunk_stats->merge(*page_stats_);
  }
  if (!read_to_end) return;
  if (values_seen != cm.num_values)
    problem(where, "ColumnMetaData.num_values is " + std::to_string(cm.num_values) + ", the pages hold " +
                       std::to_string(values_seen));
  if (rows_known && rows_seen != rg.num_rows)
    problem(where, "the row group has " + std::to_string(rg.num_rows) + " rows, the chunk's pages " +
                       std::to_string(rows_seen));
  if (index_ && static_cast<size_t>(data_pages) != index_->num_pages())
    problem(where, "the page index lists " + std::to_string(index_->num_pages()) + " pages, the chunk has " +
                       std::to_string(data_pages) + " data pages");
  // Writers without a dictionary_page_offset point data_page_offset at
  // the dictionary page, the chunk's first page. A chunk without values
  // has no pages the reader looks at (Arrow writes placeholders there).
  const int64_t dictionary_offset = cm.dictionary_page_offset.value_or(0);
  const bool data_offset_ok =
      (first_data_page && static_cast<int64_t>(*first_data_page) == cm.data_page_offset) ||
      (dictionary_offset <= 0 && dictionary_page && static_cast<int64_t>(*dictionary_page) == cm.data_page_offset);
  if ((first_data_page || dictionary_page) && !data_offset_ok)
    problem(where, "data_page_offset " + std::to_string(cm.data_page_offset) + " is not the first data page's (" +
                       (first_data_page ? std::to_string(*first_data_page) : std::string("none")) + ")");
  if (report_.pages > pages_before && dictionary_offset > 0 &&
      (!dictionary_page || static_cast<int64_t>(*dictionary_page) != dictionary_offset))
    problem(where, "dictionary_page_offset " + std::to_string(dictionary_offset) + " is not the dictionary page's (" +
                       (dictionary_page ? std::to_string(*dictionary_page) : std::string("none")) + ")");
  if (cm.statistics && stats_complete)
    check_statistics(where, "chunk statistics", *cm.statistics, *chunk_stats, non_null);
}

void Verifier::check_dictionary_page(PageReader& pages, const PageInfo& page, ValueReader& values) {
  const ErrorLocation where = pages.location(page);
  if (!page.header.dictionary_page_header) return problem(where, "DICTIONARY_PAGE without its header");
  const int32_t n = page.header.dictionary_page_header->num_values;
  if (n < 0) return problem(where, "negative dictionary size " + std::to_string(n));
  try {
    const std::span<const uint8_t> bytes = pages.decompress(page);
    values.set_dictionary(bytes.data(), bytes.size(), static_cast<size_t>(n));
  } catch (const Error& e) {
    problem(e.location().within(where), "dictionary page: " + e.detail());
  }
}

// Decodes the page's levels and values; nullopt (after saying why) when
// they do not decode.
std::optional<PageCounts> Verifier::check_data_page(PageReader& pages, const PageInfo& page, ValueReader& values,
                                                    int64_t values_left, bool first_entry) {
  const ErrorLocation where = pages.location(page);
  const format::PageHeader& h = page.header;
  const bool v2 = h.type == PageType::DATA_PAGE_V2;
  if (v2 ? !h.data_page_header_v2 : !h.data_page_header) {
    problem(where, std::string(format::to_string(h.type)) + " without its header");
    return std::nullopt;
  }
  const int64_t num_values = v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
  if (num_values < 0) {
    problem(where, "negative num_values " + std::to_string(num_values));
    return std::nullopt;
  }
  // Levels are decoded whole: a page claiming more values than its chunk
  // has left would size that allocation by an unchecked count.
  if (num_values > values_left) {
    problem(where, "the page holds " + std::to_string(num_values) + " values, more than the " +
                       std::to_string(std::max<int64_t>(values_left, 0)) + " ColumnMetaData.num_values leaves");
    return std::nullopt;
  }
  if (num_values > options_.max_page_values) {
    problem(where, "the page holds " + std::to_string(num_values) + " values, more than the limit of " +
                       std::to_string(options_.max_page_values));
    return std::nullopt;
  }
  if (v2 && (h.data_page_header_v2->num_nulls < 0 || h.data_page_header_v2->num_rows < 0)) {
    problem(where, "negative num_nulls or num_rows");
    return std::nullopt;
  }
  const ColumnDescriptor& column = *column_;
  PageCounts counts{.values = num_values};
  try {
    const std::span<const uint8_t> bytes = pages.decompress(page);
    const size_t values_at = levels_.reset(h, bytes, column.max_repetition_level, column.max_definition_level);
    counts.nulls = num_values - levels_.non_null();
    counts.rows = levels_.records();
    // A chunk starts a record, and so does each v2 page (its num_rows
    // counts whole records).
    if (num_values > 0 && (v2 || first_entry) && levels_.first_repetition() != 0)
      problem(where, std::string("the first repetition level of the ") + (first_entry ? "column chunk" : "page") +
                         " is " + std::to_string(levels_.first_repetition()) + ", not 0 (a record's start)");
    const std::span<const uint8_t> value_bytes = bytes.subspan(values_at);
    const size_t non_null = static_cast<size_t>(num_values - counts.nulls);
    values.begin_page(v2 ? h.data_page_header_v2->encoding : h.data_page_header->encoding, value_bytes.data(),
                      value_bytes.size(), non_null);
    for (size_t done = 0; done < non_null;) {
      const size_t take = std::min(kValueBatch, non_null - done);
      batch_.clear();
      values.read(take, batch_);
      if (column.type.physical == format::Type::BYTE_ARRAY)
        page_stats_->add_byte_arrays(batch_.bytes.offsets(), batch_.bytes.data(), take);
      else
        page_stats_->add_values(batch_.fixed.data(), take);
      done += take;
    }
    page_stats_->add_nulls(counts.nulls);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kIo) throw;
    problem(e.location().within(where), e.detail());
    return std::nullopt;
  }
  if (v2) {
    const auto& d = *h.data_page_header_v2;
    if (d.num_nulls != counts.nulls)
      problem(where, "num_nulls is " + std::to_string(d.num_nulls) + ", the definition levels have " +
                         std::to_string(counts.nulls) + " nulls");
    if (d.num_rows != counts.rows)
      problem(where, "num_rows is " + std::to_string(d.num_rows) + ", the repetition levels start " +
                         std::to_string(counts.rows) + " rows");
  }
  const auto& stats = v2 ? h.data_page_header_v2->statistics : h.data_page_header->statistics;
  if (stats) check_statistics(where, "page statistics", *stats, *page_stats_, num_values - counts.nulls);
  return counts;
}

void Verifier::check_offset_index(const ErrorLocation& where, const PageInfo& page, int64_t ordinal,
                                  int64_t first_row) {
  if (!index_ || !index_->offset_index) return;
  const auto& locations = index_->offset_index->page_locations;
  if (static_cast<size_t>(ordinal) >= locations.size()) return;  // counted once at the chunk's end
  const format::PageLocation& l = locations[static_cast<size_t>(ordinal)];
  const int64_t size = int64_t{page.header_size} + page.header.compressed_page_size;
  if (l.offset != static_cast<int64_t>(page.header_offset))
    problem(where, "offset index: page offset " + std::to_string(l.offset) + ", the page's header is at " +
                       std::to_string(page.header_offset));
  if (l.compressed_page_size != size)
    problem(where, "offset index: compressed_page_size " + std::to_string(l.compressed_page_size) +
                       ", the page (header included) takes " + std::to_string(size));
  if (first_row >= 0 && l.first_row_index != first_row)
    problem(where, "offset index: first_row_index " + std::to_string(l.first_row_index) + ", the page starts at row " +
                       std::to_string(first_row));
}

void Verifier::check_column_index(const ErrorLocation& where, int64_t ordinal, const PageCounts& counts) {
  if (!index_ || !index_->column_index) return;
  const format::ColumnIndex& ci = *index_->column_index;
  const auto i = static_cast<size_t>(ordinal);
  if (i >= ci.null_pages.size()) return;
  const bool all_null = counts.nulls == counts.values;
  if (ci.null_pages[i] != all_null)
    problem(where, std::string("column index: null_pages says the page is ") + (ci.null_pages[i] ? "" : "not ") +
                       "all null, it has " + std::to_string(counts.values - counts.nulls) + " non-null values");
  if (ci.null_counts && !null_count_fits((*ci.null_counts)[i], counts.nulls))
    problem(where, "column index: null_counts has " + std::to_string((*ci.null_counts)[i]) + ", the page " +
                       std::to_string(counts.nulls) + " nulls");
  if (ci.null_pages[i] || !page_stats_->has_bounds() || !plan::bounds_trusted(md_, *column_)) return;
  check_bounds(where, "column index", ci.min_values[i], ci.max_values[i], *page_stats_);
}

void Verifier::check_statistics(const ErrorLocation& where, const std::string& what, const format::Statistics& stated,
                                const StatisticsBuilder& data, int64_t non_null) {
  if (stated.null_count && !null_count_fits(*stated.null_count, data.null_count()))
    problem(where, what + ": null_count is " + std::to_string(*stated.null_count) + ", the levels have " +
                       std::to_string(data.null_count()) + " nulls");
  if (stated.distinct_count && (*stated.distinct_count < 0 || *stated.distinct_count > non_null))
    problem(where, what + ": distinct_count is " + std::to_string(*stated.distinct_count) + " for " +
                       std::to_string(non_null) + " non-null values");
  const auto [min, max] = plan::trusted_bound_bytes(md_, *column_, stated);
  if (min != nullptr && data.has_bounds()) check_bounds(where, what, *min, *max, data);
}

// A stated bound may be looser than the values (truncated byte arrays,
// writers that bound a superset), never tighter. NaN bounds say nothing and
// are left alone, as the read plan leaves them.
void Verifier::check_bounds(const ErrorLocation& where, const std::string& what, const std::string& min,
                            const std::string& max, const StatisticsBuilder& data) {
  const ColumnDescriptor& column = *column_;
  const filter::ValueOrder order = filter::value_order(column);
  filter::PhysicalValue stated_min, stated_max, data_min, data_max;
  const std::string data_min_bytes = data.min_bytes(), data_max_bytes = data.max_bytes();
  if (!filter::from_plain_bytes(column, min, stated_min) || !filter::from_plain_bytes(column, max, stated_max)) {
    problem(where, what + ": min or max is not a value of the column's type (" + std::to_string(min.size()) + " and " +
                       std::to_string(max.size()) + " bytes)");
    return;
  }
  if (!filter::from_plain_bytes(column, data_min_bytes, data_min) ||
      !filter::from_plain_bytes(column, data_max_bytes, data_max))
    return;
  if (filter::is_floating(order) && (std::isnan(stated_min.real) || std::isnan(stated_max.real))) return;
  if (filter::compare_values(order, stated_min, data_min) > 0)
    problem(where, what + ": min is " + text::bound_text(column.type, min) + ", above the least value " +
                       text::bound_text(column.type, data_min_bytes));
  if (filter::compare_values(order, stated_max, data_max) < 0)
    problem(where, what + ": max is " + text::bound_text(column.type, max) + ", below the greatest value " +
                       text::bound_text(column.type, data_max_bytes));
}

}  // namespace

std::string VerifyProblem::to_string() const { return where.to_string() + ": " + what; }

VerifyReport verify_file(const FileReader& file, const VerifyOptions& options) {
  VerifyReport report;
  Verifier(file, options, report).run();
  return report;
}

}  // namespace parq
