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

std::string ReadStats::to_string() const {
  auto n = [](int64_t v) { return std::to_string(v); };
  std::string out;
  out += "row groups: " + n(row_groups) + " considered, " + n(row_groups_pruned_by_selection) +
         " pruned by the row selection, " + n(row_groups_pruned_by_statistics) + " by statistics, " +
         n(row_groups_pruned_by_dictionary) + " by dictionaries, " + n(row_groups_pruned_by_bloom_filter) +
         " by bloom filters\n";
  out += "pages: " + n(pages) + " in the offset indexes of chunks read, " + n(pages_pruned_by_index) +
         " pruned by the page index\n";
  out += "rows: " + n(rows) + " considered, " + n(rows_pruned_by_row_groups) + " in pruned row groups, " +
         n(rows_pruned_by_pages) + " in pruned pages, " + n(rows_pruned_by_selection) + " outside the selection, " +
         n(rows_decoded) + " decoded, " + n(rows_filtered) + " filtered out, " + n(rows_skipped_by_offset) +
         " skipped by the offset, " + n(rows_returned) + " returned\n";
  out += "io: " + n(bytes_read) + " bytes read, " + n(pages_decompressed) + " pages decompressed, " +
         n(values_decoded) + " values decoded\n";
  return out;
}

namespace plan {

ReadPlan make_plan(const PlanRequest& request, ReadStats& stats) {
  const format::FileMetaData& file = *request.metadata;
  std::vector<int64_t> first_rows(file.row_groups.size() + 1, 0);
  for (size_t g = 0; g < file.row_groups.size(); ++g)
    first_rows[g + 1] = first_rows[g] + std::max<int64_t>(0, file.row_groups[g].num_rows);

  ReadPlan plan;
  for (size_t g : request.row_groups) {
    const format::RowGroup& rg = file.row_groups[g];
    RowGroupPlan p;
    p.row_group = g;
    p.first_row = first_rows[g];
    p.num_rows = std::max<int64_t>(0, rg.num_rows);
    ++stats.row_groups;
    stats.rows += p.num_rows;
    const std::string name = "row group " + std::to_string(g);

    std::vector<RowRange> whole{{0, p.num_rows}};
    if (request.has_selection) {
      std::vector<RowRange> local;
      for (const RowRange& r : intersect_ranges(request.selection, {{p.first_row, p.first_row + p.num_rows}}))
        local.push_back({r.begin - p.first_row, r.end - p.first_row});
      p.ranges = local;
      if (p.ranges.empty()) {
        ++stats.row_groups_pruned_by_selection;
        stats.rows_pruned_by_row_groups += p.num_rows;
        plan.notes.push_back(name + ": outside the row selection");
        continue;
      }
    } else {
      p.ranges = normalize_ranges(whole);
    }
    if (p.num_rows == 0) continue;

    if (request.filter != nullptr && request.pruning.statistics) {
      std::string why;
      auto answer = [&](size_t t) {
        const filter::LeafTest& test = request.filter->tests()[t];
        const ColumnDescriptor& column = request.schema->column(static_cast<size_t>(test.column));
        const auto& chunk = rg.columns[static_cast<size_t>(test.column)];
        if (!chunk.meta_data) return true;
        const ChunkSummary s = summarize_chunk(file, column, *chunk.meta_data);
        const bool may = filter::may_be_true(test, s.summary());
        if (!may && why.empty()) why = test.to_string(*request.schema);
        return may;
      };
      if (!filter::may_match(request.filter->root(), answer)) {
        ++stats.row_groups_pruned_by_statistics;
        stats.rows_pruned_by_row_groups += p.num_rows;
        plan.notes.push_back(name + ": statistics rule out " + (why.empty() ? "the filter" : why));
        continue;
      }
    }
    int64_t selected = 0;
    for (const RowRange& r : p.ranges) selected += r.size();
    stats.rows_pruned_by_selection += p.num_rows - selected;
    plan.row_groups.push_back(std::move(p));
  }
  return plan;
}

}  // namespace plan
}  // namespace parq
