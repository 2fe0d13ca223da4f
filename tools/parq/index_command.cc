// `parq index FILE [--column C] [--row-group N] [--json]`: the page index of
// each column chunk, page by page: where each data page is, which rows it
// holds, and the bounds and null counts a filter would prune it by.
#include <cstdio>
#include <string>

#include "args.h"
#include "chunk_args.h"
#include "command.h"
#include "dataset_args.h"
#include "json_writer.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/file/page_index.h"
#include "stat_text.h"

namespace parq::tool {
namespace {

// One page as both indexes describe it; either index may be missing.
struct PageRow {
  const format::PageLocation* location = nullptr;
  RowRange rows;
  std::optional<bool> null_page;
  std::optional<int64_t> null_count;
  std::optional<std::string> min, max;  // rendered
};

PageRow page_row(const PageIndex& index, const ColumnDescriptor& column, size_t i) {
  PageRow row;
  if (index.offset_index) {
    row.location = &index.offset_index->page_locations[i];
    row.rows = index.page_rows(i);
  }
  if (const auto& ci = index.column_index) {
    row.null_page = ci->null_pages[i];
    if (ci->null_counts) row.null_count = (*ci->null_counts)[i];
    if (!ci->null_pages[i]) {
      row.min = render_bound(column.type, ci->min_values[i]);
      row.max = render_bound(column.type, ci->max_values[i]);
    }
  }
  return row;
}

void text_chunk(std::string& out, const ColumnDescriptor& column, const std::optional<PageIndex>& index) {
  if (!index) {
    out += "  no page index\n";
    return;
  }
  out += "  " + std::to_string(index->num_pages()) + (index->num_pages() == 1 ? " page" : " pages");
  if (index->column_index)
    out += std::string(", boundary order ") + format::to_string(index->column_index->boundary_order);
  else
    out += ", no column index";
  if (!index->offset_index) out += ", no offset index";
  out += "\n";
  for (size_t i = 0; i < index->num_pages(); ++i) {
    PageRow r = page_row(*index, column, i);
    out += "  page " + std::to_string(i) + ":";
    if (r.location)
      out += " offset " + std::to_string(r.location->offset) + ", " + std::to_string(r.location->compressed_page_size) +
             " B, first row " + std::to_string(r.rows.begin) + ", " + std::to_string(r.rows.size()) + " rows,";
    if (r.null_page && *r.null_page) out += " null page,";
    if (r.null_count) out += " nulls " + std::to_string(*r.null_count) + ",";
    if (r.min) out += " min " + *r.min + ", max " + *r.max + ",";
    out.pop_back();
    out += "\n";
  }
}

void json_chunk(JsonWriter& w, const ColumnDescriptor& column, const std::optional<PageIndex>& index) {
  w.key("page_index");
  if (!index) {
    w.null();
    return;
  }
  w.begin_object();
  w.field("has_column_index", index->column_index.has_value());
  w.field("has_offset_index", index->offset_index.has_value());
  if (index->column_index) w.field("boundary_order", format::to_string(index->column_index->boundary_order));
  w.key("pages").begin_array();
  for (size_t i = 0; i < index->num_pages(); ++i) {
    PageRow r = page_row(*index, column, i);
    w.begin_object().field("page", static_cast<int64_t>(i));
    if (r.location) {
      w.field("offset", r.location->offset);
      w.field("compressed_size", r.location->compressed_page_size);
      w.field("first_row_index", r.rows.begin);
      w.field("num_rows", r.rows.size());
    }
    if (r.null_page) w.field("null_page", *r.null_page);
    if (r.null_count) w.field("null_count", *r.null_count);
    if (r.min) w.key("min").raw(*r.min).key("max").raw(*r.max);
    w.end_object();
  }
  w.end_array().end_object();
}

// One file's chunks, into `w` (JSON) or `out`; with `several` files, each
// chunk names its file (a line before the file's in text).
void file_index(const std::string& path, const Args& args, bool json, bool several, JsonWriter& w, std::string& out) {
  auto reader = FileReader::open(path, reader_options(args, path));
  const auto& md = reader->metadata();
  const Schema& schema = reader->schema();
  const ChunkChoice choice = choose_chunks(*reader, path, args);
  const std::optional<size_t> only_group = choice.row_group, only_column = choice.column;

  if (several && !json) out += "file: " + path + "\n";
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    if (only_group && g != *only_group) continue;
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      if (only_column && c != *only_column) continue;
      const ColumnDescriptor& column = schema.column(c);
      std::optional<PageIndex> index = read_page_index(*reader, g, c);
      if (json) {
        w.begin_object();
        if (several) w.field("file", path);
        w.field("row_group", static_cast<int64_t>(g)).field("column", column.dotted_path());
        json_chunk(w, column, index);
        w.end_object();
      } else {
        out += "row group " + std::to_string(g) + ", column " + column.dotted_path() + " (" +
               format::to_string(column.type.physical) + ")\n";
        text_chunk(out, column, index);
      }
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
}

int run_index(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"column", true}, {"row-group", true}, {"json", false}}));
  const std::vector<std::string> files = expect_files(args);
  const bool json = args.flag("json");
  std::string out;
  JsonWriter w(out);
  if (json) w.begin_array();
  for (const std::string& path : files) file_index(path, args, json, files.size() > 1, w, out);
  if (json) {
    w.end_array();
    out += "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

const Command kIndexCommand = {
    "index",
    "the page index (column and offset index) of each column chunk",
    "usage: parq index FILE... [--column C] [--row-group N] [--json]\n"
    "\n"
    "Shows each column chunk's page index page by page: the page's offset and\n"
    "stored size, its first row and row count (offset index), whether it holds\n"
    "only nulls, its null count, min and max rendered in the column's logical\n"
    "type (column index), and the index's boundary order. Chunks without one\n"
    "show \"no page index\". An index that contradicts the metadata is an error.\n"
    "FILE... is files, folders, globs or URLs, one after another.\n"
    "\n"
    "  --column C      only this column (dotted path, e.g. a.b)\n"
    "  --row-group N   only row group N (from 0)\n"
    "  --json          one JSON array of column chunks, each with page_index\n"
    "                  (null when absent) holding its pages\n"
    "\n" PARQ_KEY_HELP,
    run_index,
};

}  // namespace parq::tool
