// Row groups copied as they are; see file/row_group_copy.h.
#include "parq/file/row_group_copy.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "parq/column/bloom_filter.h"
#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/page_index.h"

namespace parq {
namespace {

// Dotted paths of a schema's elements (the root's is empty), for messages.
std::vector<std::string> element_paths(const std::vector<format::SchemaElement>& elements) {
  std::vector<std::string> paths(elements.size());
  // (path, children left) of the groups being walked.
  std::vector<std::pair<std::string, int32_t>> open;
  for (size_t i = 0; i < elements.size(); ++i) {
    while (!open.empty() && open.back().second == 0) open.pop_back();
    std::string parent;
    if (!open.empty()) {
      parent = open.back().first;
      --open.back().second;
    }
    paths[i] = i == 0 ? "" : (parent.empty() ? "" : parent + ".") + elements[i].name;
    if (elements[i].num_children.value_or(0) > 0) open.emplace_back(paths[i], *elements[i].num_children);
  }
  return paths;
}

// "what theirs, not ours" when a field of two schema elements differs
// (an absent value shown as "none"); empty when it does not.
template <class T, class Show>
std::string field_difference(const char* what, const std::optional<T>& ours, const std::optional<T>& theirs,
                             Show show) {
  if (ours == theirs) return "";
  auto text = [&](const std::optional<T>& v) { return v ? show(*v) : std::string("none"); };
  return std::string(what) + " " + text(theirs) + ", not " + text(ours);
}

// How element `theirs` differs from `ours` (its first differing field);
// empty when they are equal.
std::string element_difference(const format::SchemaElement& ours, const format::SchemaElement& theirs) {
  if (ours.name != theirs.name) return "name '" + theirs.name + "', not '" + ours.name + "'";
  auto number = [](int32_t v) { return std::to_string(v); };
  auto name = [](auto v) { return std::string(to_string(v)); };
  for (std::string d : {field_difference("type", ours.type, theirs.type, name),
                        field_difference("type length", ours.type_length, theirs.type_length, number),
                        field_difference("repetition", ours.repetition_type, theirs.repetition_type, name),
                        field_difference("children", ours.num_children, theirs.num_children, number),
                        field_difference("converted type", ours.converted_type, theirs.converted_type, name),
                        field_difference("field id", ours.field_id, theirs.field_id, number)})
    if (!d.empty()) return d;
  if (ours != theirs) return "logical type, scale or precision";
  return "";
}

std::string schema_difference(const std::vector<format::SchemaElement>& ours,
                              const std::vector<format::SchemaElement>& theirs) {
  const std::vector<std::string> paths = element_paths(theirs);
  for (size_t i = 0; i < std::min(ours.size(), theirs.size()); ++i) {
    // The root's name is no part of any column's path: writers name it as
    // they like ("schema", "hive_schema", "spark_schema"). Nor does its
    // repetition mean anything: some writers give none, others REQUIRED.
    format::SchemaElement theirs_named = theirs[i];
    if (i == 0) {
      theirs_named.name = ours[i].name;
      theirs_named.repetition_type = ours[i].repetition_type;
    }
    const std::string d = element_difference(ours[i], theirs_named);
    if (!d.empty())
      return "its schema differs at " + (i == 0 ? std::string("the root") : "'" + paths[i] + "'") + ": " + d;
  }
  if (ours.size() != theirs.size())
    return "its schema has " + std::to_string(theirs.size()) + " elements, not " + std::to_string(ours.size());
  return "";
}

bool same_sorting(const format::RowGroup& a, const format::RowGroup& b) {
  return a.sorting_columns == b.sorting_columns;
}

void copy_bytes(io::RandomAccessInput& input, uint64_t offset, uint64_t length, size_t buffer_bytes,
                io::OutputStream& out, std::vector<uint8_t>& buffer) {
  const size_t step = std::max<size_t>(buffer_bytes, 4096);
  while (length > 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(length, step));
    // A mapped input hands out its pages: no copy, and the kernel's page
    // cache holds the bytes, not this process.
    std::span<const uint8_t> view = input.view(offset, n);
    if (view.data() == nullptr) {
      buffer.resize(n);
      input.read_at(offset, n, buffer.data());
      view = {buffer.data(), n};
    }
    out.write(view);
    offset += n;
    length -= n;
  }
}

}  // namespace

void check_copyable(const FileReader& file) {
  const format::FileMetaData& m = file.metadata();
  if (file.footer().encrypted_footer || m.encryption_algorithm)
    throw Error(file.name() + ": an encrypted file's row groups cannot be copied (its modules are bound to it)",
                ErrorKind::kUnsupported);
  for (size_t g = 0; g < m.row_groups.size(); ++g) {
    const format::RowGroup& group = m.row_groups[g];
    if (group.columns.size() != file.schema().num_columns())
      throw Error(ErrorKind::kCorrupt, ErrorLocation{file.name(), static_cast<int64_t>(g)},
                  std::to_string(group.columns.size()) + " column chunks for " +
                      std::to_string(file.schema().num_columns()) + " columns");
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const format::ColumnChunk& chunk = group.columns[c];
      if (chunk.crypto_metadata || chunk.encrypted_column_metadata)
        throw Error(ErrorKind::kUnsupported, chunk_location(file.name(), m, g, c),
                    "an encrypted column chunk cannot be copied");
      if (chunk.file_path)
        throw Error(ErrorKind::kUnsupported, chunk_location(file.name(), m, g, c),
                    "the chunk is stored in another file ('" + *chunk.file_path + "'); copy that file");
      if (!chunk.meta_data)
        throw Error(ErrorKind::kCorrupt, chunk_location(file.name(), m, g, c), "no column metadata");
      try {
        chunk_range(m, g, c, file.input().size());  // inside the file
      } catch (const Error& e) {
        throw e.within({.file = file.name()});
      }
    }
  }
}

std::string schema_mismatch(const FileReader& first, const FileReader& file) {
  return schema_difference(first.metadata().schema, file.metadata().schema);
}

std::string copy_mismatch(const FileReader& first, const FileReader& file) {
  const format::FileMetaData& a = first.metadata();
  const format::FileMetaData& b = file.metadata();
  if (std::string d = schema_mismatch(first, file); !d.empty()) return d;
  if (a.column_orders != b.column_orders) return "its column orders (how its statistics are ordered) differ";
  const format::RowGroup* reference = a.row_groups.empty() ? nullptr : &a.row_groups.front();
  for (size_t g = 0; g < b.row_groups.size(); ++g) {
    if (!reference) reference = &b.row_groups.front();
    if (!same_sorting(*reference, b.row_groups[g]))
      return "row group " + std::to_string(g) + " is sorted by other columns";
  }
  return "";
}

WriteOptions copy_write_options(const FileReader& first) {
  const format::FileMetaData& m = first.metadata();
  WriteOptions options;
  // Readers judge statistics (and work around page faults) by the writer
  // that created_by names, so the copied chunks keep their writer's name.
  if (m.created_by) options.created_by = *m.created_by;
  if (m.key_value_metadata) options.key_value_metadata = *m.key_value_metadata;
  options.page_version = m.version >= 2 ? 2 : 1;
  if (m.column_orders)
    for (size_t c = 0; c < m.column_orders->size() && c < first.schema().num_columns(); ++c)
      if ((*m.column_orders)[c].IEEE_754_TOTAL_ORDER)
        options.columns[first.schema().column(c).dotted_path()].float_total_order = true;
  return options;
}

void copy_row_group(const FileReader& file, size_t row_group, FileWriter& writer, const RowGroupCopyOptions& options) {
  const format::FileMetaData& m = file.metadata();
  if (row_group >= m.row_groups.size())
    throw Error(file.name() + ": no row group " + std::to_string(row_group), ErrorKind::kInvalidArgument);
  const format::RowGroup& group = m.row_groups[row_group];
  io::RandomAccessInput& input = file.input();
  std::vector<CopiedColumnChunk> chunks(group.columns.size());
  std::vector<ChunkRange> ranges;
  for (size_t c = 0; c < chunks.size(); ++c) {
    CopiedColumnChunk& copied = chunks[c];
    copied.chunk = group.columns[c];
    if (!copied.chunk.meta_data || copied.chunk.file_path || copied.chunk.crypto_metadata)
      throw Error(ErrorKind::kUnsupported, chunk_location(file.name(), m, row_group, c),
                  "the chunk cannot be copied (see check_copyable)");
    ChunkRange range;
    try {
      range = chunk_range(m, row_group, c, input.size());
    } catch (const Error& e) {
      throw e.within({.file = file.name()});
    }
    ranges.push_back(range);
    copied.source_offset = range.offset;
    copied.size = range.length;
    // An index or filter that does not decode or contradicts its chunk is
    // left behind rather than refusing the file: readers do without them,
    // and the rows stay whole; copied as it is, it would mislead readers.
    std::optional<PageIndex> index;
    std::optional<BloomFilter> filter;
    try {
      index = read_page_index(file, row_group, c);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kCorrupt) throw;
    }
    try {
      filter = read_bloom_filter(file, row_group, c);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kCorrupt) throw;
    }
    if (index) {
      if (options.statistics) copied.column_index = std::move(index->column_index);
      copied.offset_index = std::move(index->offset_index);
    }
    if (!options.statistics) copied.chunk.meta_data->statistics.reset();
    if (filter) filter->write(copied.bloom_filter);
  }
  std::vector<uint8_t> buffer;
  writer.append_row_group(group, std::move(chunks), [&](size_t c, io::OutputStream& out) {
    copy_bytes(input, ranges[c].offset, ranges[c].length, options.buffer_bytes, out, buffer);
  });
}

void copy_rows(const FileReader& file, RowRange rows, FileWriter& writer, const RowGroupCopyOptions& options) {
  const auto& groups = file.metadata().row_groups;
  // The rows are the row groups' (the footer's num_rows is not trusted to
  // agree with them): a run past them is the caller's error, not rows
  // silently left out.
  int64_t total = 0;  // FileReader::open refuses negative counts
  for (const format::RowGroup& group : groups) total += group.num_rows;
  if (rows.begin < 0 || rows.end < rows.begin || rows.end > total)
    throw Error(file.name() + ": rows " + std::to_string(rows.begin) + " to " + std::to_string(rows.end) +
                    " are not within its row groups' " + std::to_string(total) + " rows",
                ErrorKind::kInvalidArgument);
  int64_t group_begin = 0;
  for (size_t g = 0; g < groups.size() && group_begin < rows.end; ++g) {
    const int64_t group_end = group_begin + groups[g].num_rows;
    const RowRange part{std::max(rows.begin, group_begin), std::min(rows.end, group_end)};
    if (part.begin == group_begin && part.end == group_end && part.size() > 0) {
      copy_row_group(file, g, writer, options);
    } else if (part.size() > 0) {
      ReadOptions read;
      read.row_groups = {g};
      read.row_selection = {part};
      read.has_row_selection = true;
      auto source = read_batches(file, read);
      RecordBatch batch;
      int64_t got = 0;
      while (source->next(batch)) {
        writer.write(batch);
        got += batch.num_rows;
      }
      // The reader reads what short column chunks hold and counts the
      // rest as missing; a copy that leaves rows out is not a copy.
      if (got != part.size())
        throw Error(file.name() + ": row group " + std::to_string(g) + " gave " + std::to_string(got) + " of rows " +
                        std::to_string(part.begin) + " to " + std::to_string(part.end) +
                        " (its column chunks hold fewer rows than it claims)",
                    ErrorKind::kCorrupt);
    }
    group_begin = group_end;
  }
}

std::vector<RowRange> pieces_by_rows(const format::FileMetaData& file, int64_t rows) {
  if (rows < 1) throw Error("pieces need at least one row", ErrorKind::kInvalidArgument);
  // The row groups' rows, which the pieces are cut from (the footer's
  // num_rows is not checked against them).
  int64_t total = 0;
  for (const format::RowGroup& group : file.row_groups) total += std::max<int64_t>(0, group.num_rows);
  std::vector<RowRange> pieces;
  for (int64_t begin = 0; begin < total; begin += std::min(rows, total - begin))
    pieces.push_back({begin, begin + std::min(rows, total - begin)});
  return pieces;
}

std::vector<RowRange> pieces_by_bytes(const format::FileMetaData& file, int64_t bytes) {
  if (bytes < 1) throw Error("pieces need at least one byte", ErrorKind::kInvalidArgument);
  std::vector<RowRange> pieces;
  RowRange open{0, 0};
  int64_t open_bytes = 0;
  auto close_open = [&] {
    if (open.size() > 0) pieces.push_back(open);
    open = {open.end, open.end};
    open_bytes = 0;
  };
  for (const format::RowGroup& group : file.row_groups) {
    int64_t stored = 0;
    for (const format::ColumnChunk& c : group.columns)
      if (c.meta_data) stored += std::max<int64_t>(0, c.meta_data->total_compressed_size);
    if (group.num_rows <= 0) continue;
    if (open_bytes + stored <= bytes || stored <= bytes) {
      if (open_bytes + stored > bytes) close_open();
      open.end += group.num_rows;
      open_bytes += stored;
      continue;
    }
    // Larger than a piece: cut into equal runs of rows, as its bytes per
    // row are all this knows.
    close_open();
    const int64_t runs = std::min<int64_t>(group.num_rows, stored / bytes + (stored % bytes != 0));
    const int64_t per_run = group.num_rows / runs + (group.num_rows % runs != 0);
    for (int64_t row = 0; row < group.num_rows; row += per_run) {
      open.end = open.begin + std::min(per_run, group.num_rows - row);
      close_open();
    }
  }
  close_open();
  return pieces;
}

std::vector<RowRange> pieces_by_row_groups(const format::FileMetaData& file, size_t row_groups) {
  if (row_groups < 1) throw Error("pieces need at least one row group", ErrorKind::kInvalidArgument);
  std::vector<RowRange> pieces;
  int64_t row = 0;
  for (size_t g = 0; g < file.row_groups.size(); g += row_groups) {
    int64_t rows = 0;
    for (size_t i = g; i < std::min(file.row_groups.size(), g + row_groups); ++i)
      rows += std::max<int64_t>(0, file.row_groups[i].num_rows);
    pieces.push_back({row, row + rows});
    row += rows;
  }
  return pieces;
}

ConcatResult concat_files(const std::vector<std::string>& inputs, const std::string& output,
                          const ConcatOptions& options) {
  if (inputs.empty()) throw Error("concat: no input files", ErrorKind::kInvalidArgument);
  auto first = FileReader::open(inputs.front(), options.read);
  check_copyable(*first);
  const std::string writer_name = first->metadata().created_by.value_or("");
  ConcatResult result;
  // Checked before anything is written: a mismatch in the last input
  // should not cost copying all the others.
  std::vector<bool> keeps_statistics(inputs.size(), true);
  for (size_t i = 1; i < inputs.size(); ++i) {
    auto file = FileReader::open(inputs[i], options.read);
    check_copyable(*file);
    if (std::string why = copy_mismatch(*first, *file); !why.empty())
      throw Error(file->name() + " cannot be concatenated with " + first->name() + ": " + why,
                  ErrorKind::kInvalidArgument);
    // The output can name one writer. Statistics of another writer's
    // chunks would be judged by this one's known faults (an old parquet-mr
    // ordered binary min/max as signed bytes, and readers distrust them by
    // its version; a file relabelled as a newer writer's would have those
    // bounds trusted and rows wrongly skipped), so they are left out: a
    // reader then reads those chunks whole, and the rows stay right.
    if (file->metadata().created_by.value_or("") != writer_name) {
      keeps_statistics[i] = false;
      result.without_statistics.push_back(inputs[i]);
    }
  }
  auto writer = FileWriter::open(output, first->schema(), copy_write_options(*first));
  writer->set_column_orders(first->metadata().column_orders);
  RowGroupCopyOptions copy;
  copy.buffer_bytes = options.buffer_bytes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::unique_ptr<FileReader> opened = i == 0 ? nullptr : FileReader::open(inputs[i], options.read);
    const FileReader* file = i == 0 ? first.get() : opened.get();
    // Opened again: it may have changed since it was checked.
    check_copyable(*file);
    if (std::string why = copy_mismatch(*first, *file); !why.empty())
      throw Error(file->name() + " changed while being concatenated: " + why, ErrorKind::kInvalidArgument);
    copy.statistics = keeps_statistics[i];
    for (size_t g = 0; g < file->metadata().row_groups.size(); ++g) {
      copy_row_group(*file, g, *writer, copy);
      result.rows += file->metadata().row_groups[g].num_rows;
      ++result.row_groups;
    }
  }
  writer->close();
  return result;
}

namespace {

// Whether `name` is the name split_piece_name gives a piece numbered
// `pieces` or more.
bool names_a_later_piece(const std::string& name, size_t pieces) {
  constexpr std::string_view kPrefix = "part-";
  const size_t digits = name.find_first_not_of("0123456789", kPrefix.size());
  if (name.compare(0, kPrefix.size(), kPrefix) != 0 || digits == kPrefix.size() || digits - kPrefix.size() > 18)
    return false;
  const auto n = static_cast<size_t>(std::stoull(name.substr(kPrefix.size(), digits - kPrefix.size())));
  return n >= pieces && split_piece_name(n) == name;
}

// Pieces of an earlier split into more pieces, left in `dir` beside this
// split's: read as one dataset with them, the folder would hold rows twice.
size_t remove_stale_pieces(const std::filesystem::path& dir, size_t pieces) {
  std::vector<std::filesystem::path> stale;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && names_a_later_piece(entry.path().filename().string(), pieces))
      stale.push_back(entry.path());
  for (const auto& path : stale) std::filesystem::remove(path);
  return stale.size();
}

}  // namespace

std::string split_piece_name(size_t piece) {
  char name[48];
  std::snprintf(name, sizeof name, "part-%05zu.parquet", piece);
  return name;
}

SplitResult split_file(const std::string& input, const std::filesystem::path& outdir, const SplitOptions& options) {
  const int given = int{options.rows != 0} + int{options.bytes != 0} + int{options.row_groups != 0};
  if (given != 1 || options.rows < 0 || options.bytes < 0)
    throw Error("split: give one of rows, bytes or row groups a piece, at least 1", ErrorKind::kInvalidArgument);
  auto in = FileReader::open(input, options.read);
  check_copyable(*in);
  const std::vector<RowRange> pieces = options.rows    ? pieces_by_rows(in->metadata(), options.rows)
                                       : options.bytes ? pieces_by_bytes(in->metadata(), options.bytes)
                                                       : pieces_by_row_groups(in->metadata(), options.row_groups);
  SplitResult result;
  if (pieces.empty()) return result;
  std::filesystem::create_directories(outdir);
  const WriteOptions write = copy_write_options(*in);
  for (size_t p = 0; p < pieces.size(); ++p) {
    const std::string out = (outdir / split_piece_name(p)).string();
    auto writer = FileWriter::open(out, in->schema(), write);
    writer->set_column_orders(in->metadata().column_orders);
    copy_rows(*in, pieces[p], *writer);
    writer->close();
    result.pieces.push_back({out, writer->num_rows(), writer->metadata().row_groups.size()});
  }
  // Only now: a failed split leaves the folder as it was, apart from the
  // pieces it replaced.
  result.removed = remove_stale_pieces(outdir, pieces.size());
  return result;
}

}  // namespace parq
