// `parq pages FILE [--json]`: every page of every column chunk: type,
// encodings, sizes, value counts, statistics and whether its CRC is present
// and valid. Pages are listed even when their CRC is wrong; that is what the
// command is for.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "json_writer.h"
#include "key_args.h"
#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/text/json_text.h"
#include "parq/text/value_text.h"
#include "stat_text.h"

namespace parq::tool {
namespace {

using format::PageHeader;
using format::PageType;
using format::Statistics;

struct PageSummary {
  const char* encoding = nullptr;
  int64_t values = -1, nulls = -1, rows = -1;
  const char* def_encoding = nullptr;
  const char* rep_encoding = nullptr;
  const Statistics* stats = nullptr;
};

PageSummary summarize(const PageHeader& h) {
  PageSummary s;
  if (h.type == PageType::DATA_PAGE && h.data_page_header) {
    const auto& d = *h.data_page_header;
    s.encoding = format::to_string(d.encoding);
    s.values = d.num_values;
    s.def_encoding = format::to_string(d.definition_level_encoding);
    s.rep_encoding = format::to_string(d.repetition_level_encoding);
    if (d.statistics) s.stats = &*d.statistics;
  } else if (h.type == PageType::DATA_PAGE_V2 && h.data_page_header_v2) {
    const auto& d = *h.data_page_header_v2;
    s.encoding = format::to_string(d.encoding);
    s.values = d.num_values;
    s.nulls = d.num_nulls;
    s.rows = d.num_rows;
    if (d.statistics) s.stats = &*d.statistics;
  } else if (h.type == PageType::DICTIONARY_PAGE && h.dictionary_page_header) {
    s.encoding = format::to_string(h.dictionary_page_header->encoding);
    s.values = h.dictionary_page_header->num_values;
  }
  return s;
}

void text_page(std::string& out, const ColumnDescriptor& column, const PageInfo& p) {
  PageSummary s = summarize(p.header);
  out += "  page " + std::to_string(p.index) + ": " + format::to_string(p.header.type) + " at " +
         std::to_string(p.header_offset) + ", header " + std::to_string(p.header_size) + " B, " +
         std::to_string(p.header.compressed_page_size) + " B stored, " +
         std::to_string(p.header.uncompressed_page_size) + " B uncompressed";
  if (s.encoding) out += std::string(", ") + s.encoding;
  if (s.values >= 0) out += ", " + std::to_string(s.values) + " values";
  if (s.nulls >= 0) out += ", " + std::to_string(s.nulls) + " nulls";
  if (s.rows >= 0) out += ", " + std::to_string(s.rows) + " rows";
  if (s.def_encoding) out += std::string(", levels ") + s.def_encoding + "/" + s.rep_encoding;
  out += std::string(", crc ") + to_string(p.crc) + "\n";
  if (s.stats) {
    out += "    statistics:";
    if (s.stats->null_count) out += " nulls=" + std::to_string(*s.stats->null_count);
    const auto& min = s.stats->min_value ? s.stats->min_value : s.stats->min;
    const auto& max = s.stats->max_value ? s.stats->max_value : s.stats->max;
    if (min) out += " min=" + render_bound(column.type, *min);
    if (max) out += " max=" + render_bound(column.type, *max);
    out += "\n";
  }
}

void json_page(JsonWriter& w, const ColumnDescriptor& column, const PageInfo& p) {
  PageSummary s = summarize(p.header);
  w.begin_object();
  w.field("index", static_cast<int64_t>(p.index));
  w.field("type", format::to_string(p.header.type));
  w.field("offset", static_cast<int64_t>(p.header_offset));
  w.field("header_size", static_cast<int64_t>(p.header_size));
  w.field("compressed_size", p.header.compressed_page_size);
  w.field("uncompressed_size", p.header.uncompressed_page_size);
  if (s.encoding) w.field("encoding", s.encoding);
  if (s.values >= 0) w.field("num_values", s.values);
  if (s.nulls >= 0) w.field("num_nulls", s.nulls);
  if (s.rows >= 0) w.field("num_rows", s.rows);
  if (s.def_encoding) w.field("definition_level_encoding", s.def_encoding);
  if (s.rep_encoding) w.field("repetition_level_encoding", s.rep_encoding);
  w.field("crc", to_string(p.crc));
  if (s.stats) {
    w.key("statistics").begin_object();
    if (s.stats->null_count) w.field("null_count", *s.stats->null_count);
    const auto& min = s.stats->min_value ? s.stats->min_value : s.stats->min;
    const auto& max = s.stats->max_value ? s.stats->max_value : s.stats->max;
    if (min) w.key("min").raw(render_bound(column.type, *min));
    if (max) w.key("max").raw(render_bound(column.type, *max));
    w.end_object();
  }
  w.end_object();
}

// One file's chunks and pages, into `w` (JSON) or `out`; with `several`
// files, each chunk names its file (a line before the file's in text).
void file_pages(const std::string& path, const Args& args, bool json, bool several, JsonWriter& w, std::string& out) {
  auto reader = FileReader::open(path, reader_options(args, path));
  const auto& md = reader->metadata();
  PageReaderOptions options;
  options.verify_crc = false;  // report, do not fail
  options.report_crc = true;
  options.decryptor = reader->footer().decryptor;
  if (several && !json) out += "file: " + path + "\n";
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    for (size_t c = 0; c < reader->schema().num_columns(); ++c) {
      const ColumnDescriptor& column = reader->schema().column(c);
      PageReader pages(reader->chunk_input(g, c), md, g, c, column.dotted_path(), options);
      if (json) {
        w.begin_object();
        if (several) w.field("file", path);
        w.field("row_group", static_cast<int64_t>(g)).field("column", column.dotted_path());
        w.field("codec", format::to_string(pages.metadata().codec)).key("pages").begin_array();
      } else {
        out += "row group " + std::to_string(g) + ", column " + column.dotted_path() + " (" +
               format::to_string(column.type.physical) + ", " + format::to_string(pages.metadata().codec) + ")\n";
      }
      PageInfo page;
      while (pages.next(page)) json ? json_page(w, column, page) : text_page(out, column, page);
      if (json) w.end_array().end_object();
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
}

int run_pages(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"json", false}}));
  const std::vector<std::string> files = expect_files(args);
  const bool json = args.flag("json");
  std::string out;
  JsonWriter w(out);
  if (json) w.begin_array();
  for (const std::string& path : files) file_pages(path, args, json, files.size() > 1, w, out);
  if (json) w.end_array();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

const Command kPagesCommand = {
    "pages",
    "every page of every column chunk",
    "usage: parq pages FILE... [--json]\n"
    "\n"
    "Lists every page of every column chunk: type, offset, header and stored\n"
    "sizes, encoding, value counts (and nulls and rows for v2 pages), level\n"
    "encodings, statistics, and whether the page CRC is present and valid.\n"
    "\n"
    "FILE... is files, folders, globs or URLs, one after another.\n"
    "\n"
    "  --json   one JSON array of column chunks, each with its pages (and its\n"
    "           file, when there are several)\n"
    "\n" PARQ_KEY_HELP,
    run_pages,
};

}  // namespace parq::tool
