// Row ranges, read statistics and the planner; see parq/plan/read_plan.h.
#include <algorithm>

#include "parq/error.h"
#include "planner.h"

namespace parq {

std::vector<RowRange> normalize_ranges(std::vector<RowRange> ranges) {
  std::erase_if(ranges, [](const RowRange& r) { return r.end <= r.begin; });
  std::sort(ranges.begin(), ranges.end(), [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  std::vector<RowRange> out;
  for (const RowRange& r : ranges) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

std::vector<RowRange> intersect_ranges(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].begin, b[j].begin), end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back({begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

std::vector<RowRange> unite_ranges(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> all(a);
  all.insert(all.end(), b.begin(), b.end());
  return normalize_ranges(std::move(all));
}

ReadStats& ReadStats::operator+=(const ReadStats& o) {
  for (auto field : {&ReadStats::files,
                     &ReadStats::files_pruned_by_partitions,
                     &ReadStats::files_pruned_by_statistics,
                     &ReadStats::files_opened,
                     &ReadStats::row_groups,
                     &ReadStats::row_groups_pruned_by_selection,
                     &ReadStats::row_groups_pruned_by_statistics,
                     &ReadStats::row_groups_pruned_by_dictionary,
                     &ReadStats::row_groups_pruned_by_bloom_filter,
                     &ReadStats::pages,
                     &ReadStats::pages_pruned_by_index,
                     &ReadStats::header_pages,
                     &ReadStats::pages_pruned_by_headers,
                     &ReadStats::rows,
                     &ReadStats::rows_pruned_by_row_groups,
                     &ReadStats::rows_pruned_by_pages,
                     &ReadStats::rows_pruned_by_selection,
                     &ReadStats::rows_missing_from_chunks,
                     &ReadStats::rows_decoded,
                     &ReadStats::rows_filtered,
                     &ReadStats::rows_skipped_by_offset,
                     &ReadStats::rows_returned,
                     &ReadStats::bytes_read,
                     &ReadStats::pages_decompressed,
                     &ReadStats::values_decoded,
                     &ReadStats::batch_restarts,
                     &ReadStats::read_tasks})
    this->*field += o.*field;
  peak_batches = std::max(peak_batches, o.peak_batches);
  return *this;
}

std::string ReadStats::to_string() const {
  auto n = [](int64_t v) { return std::to_string(v); };
  std::string out;
  if (files > 0)
    out += "files: " + n(files) + " considered, " + n(files_pruned_by_partitions) + " pruned by partition values, " +
           n(files_pruned_by_statistics) + " by statistics, " + n(files_opened) + " opened\n";
  out += "row groups: " + n(row_groups) + " considered, " + n(row_groups_pruned_by_selection) +
         " pruned by the row selection, " + n(row_groups_pruned_by_statistics) + " by statistics, " +
         n(row_groups_pruned_by_dictionary) + " by dictionaries, " + n(row_groups_pruned_by_bloom_filter) +
         " by bloom filters\n";
  out += "pages: " + n(pages) + " in the offset indexes of chunks read, " + n(pages_pruned_by_index) +
         " pruned by the page index; " + n(header_pages) + " judged by their headers' statistics, " +
         n(pages_pruned_by_headers) + " pruned\n";
  out += "rows: " + n(rows) + " considered, " + n(rows_pruned_by_row_groups) + " in pruned row groups, " +
         n(rows_pruned_by_pages) + " in pruned pages, " + n(rows_pruned_by_selection) + " outside the selection, " +
         (rows_missing_from_chunks > 0 ? n(rows_missing_from_chunks) + " missing from short column chunks, " : "") +
         n(rows_decoded) + " decoded, " + n(rows_filtered) + " filtered out, " + n(rows_skipped_by_offset) +
         " skipped by the offset, " + n(rows_returned) + " returned\n";
  out += "io: " + n(bytes_read) + " bytes read, " + n(pages_decompressed) + " pages decompressed, " +
         n(values_decoded) + " values decoded, " + n(batch_restarts) + " batches read again smaller" +
         (read_tasks > 0 ? ", " + n(read_tasks) + " read tasks" : "") +
         (peak_batches > 0 ? ", at most " + n(peak_batches) + (peak_batches == 1 ? " batch" : " batches") + " in flight"
                           : "") +
         "\n";
  return out;
}

namespace plan {

namespace {

// Can the chunk's values make the test true, by its statistics?
bool statistics_may_match(const PlanRequest& request, size_t g, const filter::LeafTest& test) {
  const ColumnDescriptor& column = request.schema->column(static_cast<size_t>(test.column));
  const auto& chunk = request.metadata->row_groups[g].columns[static_cast<size_t>(test.column)];
  if (!chunk.meta_data) return true;
  const ChunkSummary s = summarize_chunk(*request.metadata, column, *chunk.meta_data);
  return filter::may_be_true(test, s.summary());
}

// Can the chunk's dictionary (which holds every value of the chunk) make
// the test true? Nulls are not in a dictionary: null tests say yes.
bool dictionary_may_match(const PlanRequest& request, size_t g, const filter::LeafTest& test) {
  if (test.kind == filter::LeafTest::Kind::kIsNull || test.kind == filter::LeafTest::Kind::kIsNotNull) return true;
  // A path inside whole values needs each row's metadata, and holds for
  // rows without a value (IS NULL), which no dictionary entry stands for.
  if (test.metadata_column >= 0) return true;
  const ColumnDescriptor& column = request.schema->column(static_cast<size_t>(test.column));
  const Array* dict = request.lookups->dictionary(g, static_cast<size_t>(test.column));
  if (dict == nullptr) return true;
  const int32_t width = dict->value_width();
  for (int64_t i = 0; i < dict->length; ++i) {
    filter::PhysicalValue v;
    std::string_view plain;
    if (column.type.physical == format::Type::BOOLEAN) return true;  // BOOLEAN has no dictionary
    if (column.type.physical == format::Type::BYTE_ARRAY) {
      const int32_t* o = dict->offsets_data();
      plain = {reinterpret_cast<const char*>(dict->values.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
    } else {
      plain = {reinterpret_cast<const char*>(dict->values.data()) + i * width, static_cast<size_t>(width)};
    }
    if (!filter::from_plain_bytes(column, plain, v) || filter::value_matches(test, v)) return true;
  }
  return false;
}

// Can the chunk hold a value the test is true for, by its bloom filter?
// Only = and IN ask it, and only for values whose bytes are the one form
// the column stores them in: not floating-point zeros (-0.0 equals 0.0
// with other bits) or NaNs, not decimals in variable-width byte arrays,
// not INT96.
bool bloom_may_match(const PlanRequest& request, size_t g, const filter::LeafTest& test) {
  const bool equality = (test.kind == filter::LeafTest::Kind::kCompare && test.op == filter::CompareOp::kEqual) ||
                        test.kind == filter::LeafTest::Kind::kIn;
  if (!equality) return true;
  const ColumnDescriptor& column = request.schema->column(static_cast<size_t>(test.column));
  const filter::ValueOrder order = filter::value_order(column);
  if (order == filter::ValueOrder::kInt96 || order == filter::ValueOrder::kUnordered ||
      (order == filter::ValueOrder::kSignedBytes && column.type.physical == format::Type::BYTE_ARRAY))
    return true;
  const BloomFilter* bloom = request.lookups->bloom_filter(g, static_cast<size_t>(test.column));
  if (bloom == nullptr) return true;
  const bool real = filter::is_floating(order);
  for (const filter::PhysicalValue& v : test.values) {
    if (real && (v.real == 0 || v.real != v.real)) return true;
    if (bloom->might_contain(BloomFilter::hash(std::string_view(filter::plain_bytes(column, v))))) return true;
  }
  return false;
}

// Keeps the rows from `offset` to `offset + limit` of the planned ones, in
// read order.
void apply_offset_and_limit(const PlanRequest& request, ReadPlan& plan, ReadStats& stats) {
  int64_t skip = request.offset;
  int64_t left = request.limit < 0 ? INT64_MAX : request.limit;
  std::vector<RowGroupPlan> kept;
  for (RowGroupPlan& g : plan.row_groups) {
    std::vector<RowRange> ranges;
    for (RowRange r : g.ranges) {
      const int64_t drop = std::min(skip, r.size());
      skip -= drop;
      stats.rows_skipped_by_offset += drop;
      r.begin += drop;
      r.end = r.begin + std::min(r.size(), left);
      left -= r.size();
      if (r.size() > 0) ranges.push_back(r);
    }
    if (ranges.empty()) continue;
    g.ranges = std::move(ranges);
    kept.push_back(std::move(g));
  }
  plan.row_groups = std::move(kept);
}

}  // namespace

ReadPlan make_plan(const PlanRequest& request, ReadStats& stats) {
  const format::FileMetaData& file = *request.metadata;
  std::vector<int64_t> first_rows(file.row_groups.size() + 1, 0);
  for (size_t g = 0; g < file.row_groups.size(); ++g)
    first_rows[g + 1] = first_rows[g] + std::max<int64_t>(0, file.row_groups[g].num_rows);

  ReadPlan plan;
  if (request.filter != nullptr && request.lookups != nullptr &&
      (request.pruning.dictionaries || request.pruning.bloom_filters)) {
    // The row groups the statistics leave (metadata only; judged again
    // below), for the lookups to fetch ahead.
    std::vector<size_t> left;
    for (size_t g : request.row_groups)
      if (!request.pruning.statistics || filter::may_match(request.filter->root(), [&](size_t t) {
            return statistics_may_match(request, g, request.filter->tests()[t]);
          }))
        left.push_back(g);
    if (!left.empty()) request.lookups->will_need(left, request.filter->columns());
  }
  for (size_t g : request.row_groups) {
    const format::RowGroup& rg = file.row_groups[g];
    RowGroupPlan p;
    p.row_group = g;
    p.first_row = first_rows[g];
    p.num_rows = std::max<int64_t>(0, rg.num_rows);
    ++stats.row_groups;
    stats.rows += p.num_rows;
    const std::string name = "row group " + std::to_string(g);

    // Chunks that disagree with their row group: a chunk holds at most
    // num_values records (exactly that many when flat), so the rows past the
    // shortest chunk are not whole. They are left out, and said so, rather
    // than refusing the file; every projection sees the same rows.
    int64_t whole_rows = p.num_rows;
    std::string short_column;
    for (size_t c = 0; c < rg.columns.size() && c < request.schema->num_columns(); ++c) {
      const auto& meta = rg.columns[c].meta_data;
      if (meta && meta->num_values >= 0 && meta->num_values < whole_rows) {
        whole_rows = meta->num_values;
        short_column = request.schema->column(c).dotted_path();
      }
    }
    if (whole_rows < p.num_rows) {
      stats.rows_missing_from_chunks += p.num_rows - whole_rows;
      plan.notes.push_back(name + ": column " + short_column + " holds " + std::to_string(whole_rows) +
                           " values where the row group has " + std::to_string(p.num_rows) + " rows; " +
                           std::to_string(whole_rows) + " rows read");
    }

    std::vector<RowRange> whole{{0, whole_rows}};
    if (request.has_selection) {
      std::vector<RowRange> local;
      for (const RowRange& r : intersect_ranges(request.selection, {{p.first_row, p.first_row + whole_rows}}))
        local.push_back({r.begin - p.first_row, r.end - p.first_row});
      p.ranges = local;
      if (p.ranges.empty()) {
        ++stats.row_groups_pruned_by_selection;
        stats.rows_pruned_by_selection += whole_rows;
        plan.notes.push_back(name + ": outside the row selection");
        continue;
      }
    } else {
      p.ranges = normalize_ranges(whole);
    }
    int64_t selected = 0;
    for (const RowRange& r : p.ranges) selected += r.size();
    stats.rows_pruned_by_selection += whole_rows - selected;
    if (whole_rows == 0) continue;

    // Row group stages, cheapest first: each asks every leaf test whether
    // it can be true in this row group and prunes when the tree says no.
    if (request.filter != nullptr) {
      struct Stage {
        bool enabled;
        bool (*may)(const PlanRequest&, size_t, const filter::LeafTest&);
        int64_t ReadStats::*pruned;
        const char* says;
      };
      const bool fetched = request.lookups != nullptr;
      const Stage stages[] = {
          {request.pruning.statistics, statistics_may_match, &ReadStats::row_groups_pruned_by_statistics,
           "statistics rule out "},
          {fetched && request.pruning.dictionaries, dictionary_may_match, &ReadStats::row_groups_pruned_by_dictionary,
           "no dictionary entry satisfies "},
          {fetched && request.pruning.bloom_filters, bloom_may_match, &ReadStats::row_groups_pruned_by_bloom_filter,
           "bloom filters rule out "},
      };
      bool pruned = false;
      for (const Stage& stage : stages) {
        if (!stage.enabled) continue;
        std::string why;
        pruned = !filter::may_match(request.filter->root(), [&](size_t t) {
          const bool may = stage.may(request, g, request.filter->tests()[t]);
          if (!may && why.empty()) why = request.filter->tests()[t].to_string(*request.schema);
          return may;
        });
        if (pruned) {
          ++(stats.*stage.pruned);
          stats.rows_pruned_by_row_groups += selected;
          plan.notes.push_back(name + ": " + stage.says + (why.empty() ? "the filter" : why));
          break;
        }
      }
      if (pruned) continue;
    }
    if (request.filter != nullptr && request.lookups != nullptr) {
      if (request.pruning.page_index) {
        const std::vector<RowRange> pages =
            page_index_ranges(*request.filter, file, *request.schema, g, p.num_rows, *request.lookups, stats.pages,
                              stats.pages_pruned_by_index);
        std::vector<RowRange> kept = intersect_ranges(p.ranges, pages);
        int64_t before = 0, after = 0;
        for (const RowRange& r : p.ranges) before += r.size();
        for (const RowRange& r : kept) after += r.size();
        stats.rows_pruned_by_pages += before - after;
        p.ranges = std::move(kept);
        if (p.ranges.empty()) {
          plan.notes.push_back(name + ": the page index rules out every page");
          continue;
        }
        if (after < before)
          plan.notes.push_back(name + ": the page index keeps " + std::to_string(after) + " of " +
                               std::to_string(before) + " rows (" + std::to_string(p.ranges.size()) +
                               (p.ranges.size() == 1 ? " range)" : " ranges)"));
      }
    }
    plan.row_groups.push_back(std::move(p));
  }
  if (request.filter == nullptr && (request.offset > 0 || request.limit >= 0))
    apply_offset_and_limit(request, plan, stats);
  return plan;
}

}  // namespace plan
}  // namespace parq
