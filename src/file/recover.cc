// Recovery of a file cut short; see recover.h.
#include "parq/file/recover.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "../column/encoding_table.h"
#include "../column/level_decoding.h"
#include "parq/compression/codec.h"
#include "parq/error.h"
#include "parq/file/checkpoint.h"
#include "parq/file/file_writer.h"
#include "parq/file/footer.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/output.h"
#include "parq/schema/schema.h"
#include "parq/schema/value_type.h"

namespace parq::file {
namespace {

using format::CompressionCodec;
using format::Encoding;
using format::PageType;

// A page header is read with this many bytes first, and once more with the
// larger amount when it did not fit (statistics of long values).
constexpr uint64_t kHeaderProbe = 64 * 1024;
constexpr uint64_t kLargeHeaderProbe = 1 << 20;
constexpr size_t kCopyPiece = size_t{4} << 20;

// The codecs tried, in this order, on a page of a column whose codec no
// footer gave.
constexpr CompressionCodec kGuessedCodecs[] = {
    CompressionCodec::SNAPPY, CompressionCodec::ZSTD,   CompressionCodec::GZIP, CompressionCodec::LZ4_RAW,
    CompressionCodec::LZ4,    CompressionCodec::BROTLI, CompressionCodec::LZO,
};

struct ScannedPage {
  uint64_t offset = 0;
  uint64_t end = 0;
  format::PageHeader header;
  int64_t rows = 0;    // rows that start in the page (data pages)
  int64_t values = 0;  // level entries (data pages) or dictionary entries
  Encoding encoding = Encoding::PLAIN;
  std::optional<CompressionCodec> codec;  // absent: stored uncompressed
  bool dictionary() const { return header.type == PageType::DICTIONARY_PAGE; }
};

bool dictionary_encoded(Encoding e) { return e == Encoding::RLE_DICTIONARY || e == Encoding::PLAIN_DICTIONARY; }

struct ScannedChunk {
  std::vector<ScannedPage> pages;
  int64_t rows = 0;
};

struct ScannedGroup {
  std::vector<ScannedChunk> chunks;
  uint64_t start = 0;
  uint64_t end = 0;
  int64_t rows = 0;
};

class PageScanner {
 public:
  PageScanner(io::RandomAccessInput& input, uint64_t limit, const Schema& schema,
              std::vector<std::optional<CompressionCodec>> codecs, const RecoverOptions& options)
      : input_(input), limit_(limit), schema_(schema), codecs_(std::move(codecs)), options_(options) {}

  // The row group whose first page starts at `start`; nullopt, with why(),
  // when the bytes there are not a complete one.
  std::optional<ScannedGroup> row_group_at(uint64_t start) {
    // The first column's pages, as far as they may go: each data page ends
    // a candidate for the row group's row count.
    ScannedChunk first;
    std::vector<std::pair<size_t, int64_t>> candidates;  // pages, rows
    bool has_dictionary = false;
    for (uint64_t at = start;;) {
      std::optional<ScannedPage> page = page_at(at, 0);
      if (!page) break;
      if (page->dictionary()) {
        if (!first.pages.empty()) break;  // the next chunk's
        has_dictionary = true;
      } else {
        if (dictionary_encoded(page->encoding) && !has_dictionary) break;
        first.rows += page->rows;
      }
      at = page->end;
      first.pages.push_back(std::move(*page));
      if (!first.pages.back().dictionary() && first.rows > 0) candidates.push_back({first.pages.size(), first.rows});
    }
    if (candidates.empty()) {
      if (why_.empty()) why_ = "no data page of column " + schema_.column(0).dotted_path();
      return std::nullopt;
    }
    // What stopped the most rows is what a report should name.
    std::string largest_failure;
    for (auto c = candidates.rbegin(); c != candidates.rend(); ++c) {
      ScannedGroup group;
      group.start = start;
      group.rows = c->second;
      group.chunks.resize(schema_.num_columns());
      group.chunks[0].pages.assign(first.pages.begin(), first.pages.begin() + static_cast<ptrdiff_t>(c->first));
      group.chunks[0].rows = c->second;
      uint64_t at = group.chunks[0].pages.back().end;
      bool filled = true;
      for (size_t column = 1; column < schema_.num_columns() && filled; ++column)
        filled = fill(column, at, group.rows, group.chunks[column]);
      if (!filled) {
        if (largest_failure.empty()) largest_failure = why_;
        continue;
      }
      group.end = at;
      return group;
    }
    why_ = largest_failure;
    return std::nullopt;
  }

  const std::string& why() const { return why_; }

 private:
  // Reads `column`'s pages from `at` until they hold exactly `rows` rows.
  bool fill(size_t column, uint64_t& at, int64_t rows, ScannedChunk& chunk) {
    bool has_dictionary = false;
    while (chunk.rows < rows) {
      std::optional<ScannedPage> page = page_at(at, column);
      if (!page) return false;
      if (page->dictionary()) {
        if (!chunk.pages.empty()) return fail(at, column, "a dictionary page inside a column chunk");
        has_dictionary = true;
      } else {
        if (dictionary_encoded(page->encoding) && !has_dictionary)
          return fail(at, column, "a dictionary-encoded page without a dictionary");
        chunk.rows += page->rows;
      }
      at = page->end;
      chunk.pages.push_back(std::move(*page));
    }
    return chunk.rows == rows || fail(at, column, "more rows than the first column's");
  }

  bool fail(uint64_t at, size_t column, const std::string& what) {
    why_ = "offset " + std::to_string(at) + ", column " + schema_.column(column).dotted_path() + ": " + what;
    return false;
  }

  std::optional<ScannedPage> page_at(uint64_t at, size_t column) {
    auto no = [&](const std::string& what) -> std::optional<ScannedPage> {
      fail(at, column, what);
      return std::nullopt;
    };
    if (at >= limit_) return no("the end of the input");
    ScannedPage page;
    page.offset = at;
    size_t header_size = 0;
    for (uint64_t probe : {kHeaderProbe, kLargeHeaderProbe}) {
      const uint64_t n = std::min(probe, limit_ - at);
      std::vector<uint8_t> bytes(n);
      input_.read_at(at, n, bytes.data());
      try {
        header_size = format::decode_thrift(bytes.data(), n, page.header, at);
        break;
      } catch (const Error&) {
        if (n == limit_ - at || probe == kLargeHeaderProbe) return no("no page header");
      }
    }
    const format::PageHeader& h = page.header;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) return no("a negative page size");
    if (static_cast<uint64_t>(h.compressed_page_size) > limit_ - at - header_size)
      return no("a page cut short by the end of the input");
    if (static_cast<uint64_t>(h.uncompressed_page_size) > options_.max_page_bytes)
      return no("a page larger than the largest one scanned (" + std::to_string(options_.max_page_bytes) + " bytes)");
    page.end = at + header_size + static_cast<uint64_t>(h.compressed_page_size);
    const ColumnDescriptor& c = schema_.column(column);
    const bool v2 = h.type == PageType::DATA_PAGE_V2 && h.data_page_header_v2;
    if (h.type == PageType::DICTIONARY_PAGE && h.dictionary_page_header) {
      page.encoding = h.dictionary_page_header->encoding;
      page.values = h.dictionary_page_header->num_values;
      if (page.values < 0 || c.type.physical == format::Type::BOOLEAN) return no("a dictionary that cannot be");
    } else if (h.type == PageType::DATA_PAGE && h.data_page_header) {
      page.encoding = h.data_page_header->encoding;
      page.values = h.data_page_header->num_values;
    } else if (v2) {
      page.encoding = h.data_page_header_v2->encoding;
      page.values = h.data_page_header_v2->num_values;
    } else {
      return no("not a data or dictionary page");
    }
    if (page.values < 0) return no("a negative value count");
    if (page.values > options_.max_page_values)
      return no("more values than the most scanned in a page (" + std::to_string(options_.max_page_values) + ")");
    if (!page.dictionary() && !dictionary_encoded(page.encoding) && !encoding_applies(c.type.physical, page.encoding))
      return no(std::string("encoding ") + format::to_string(page.encoding) + " on a column of another type");

    std::vector<uint8_t> payload(static_cast<size_t>(h.compressed_page_size));
    input_.read_at(at + header_size, payload.size(), payload.data());
    if (h.crc && static_cast<uint32_t>(*h.crc) != libdeflate_crc32(0, payload.data(), payload.size()))
      return no("a page whose CRC does not match");

    // The page's uncompressed bytes: a v2 page's levels are stored as they are.
    size_t levels_size = 0;
    if (v2) {
      const format::DataPageHeaderV2& d = *h.data_page_header_v2;
      if (d.definition_levels_byte_length < 0 || d.repetition_levels_byte_length < 0) return no("negative level sizes");
      levels_size = static_cast<size_t>(d.definition_levels_byte_length) + d.repetition_levels_byte_length;
      if (levels_size > payload.size() || levels_size > static_cast<size_t>(h.uncompressed_page_size))
        return no("levels larger than the page");
    }
    std::vector<uint8_t> plain(static_cast<size_t>(h.uncompressed_page_size));
    std::copy(payload.begin(), payload.begin() + static_cast<ptrdiff_t>(levels_size), plain.begin());
    const std::span<const uint8_t> packed(payload.data() + levels_size, payload.size() - levels_size);
    const bool compressed = !(v2 && h.data_page_header_v2->is_compressed == false);
    if (compressed && !decompress(packed, plain.data() + levels_size, plain.size() - levels_size, column, page))
      return no("a page that does not decompress");
    if (!compressed && packed.size() != plain.size() - levels_size) return no("a stored page of the wrong size");

    const int32_t width = plain_width(c.type.physical, c.type.type_length);
    const bool plain_fixed = width > 0 && c.type.physical != format::Type::BOOLEAN && page.encoding == Encoding::PLAIN;
    if (page.dictionary()) {
      if (plain_fixed && plain.size() != static_cast<uint64_t>(page.values) * static_cast<uint64_t>(width))
        return no("a dictionary of the wrong size for its type");
      return page;
    }
    // The levels, decoded as a read decodes them, give the rows that start
    // in the page and its values that are not null.
    size_t levels_end = 0;
    try {
      levels_end = levels_.reset(h, plain, c.max_repetition_level, c.max_definition_level);
    } catch (const Error& e) {
      return no(std::string("levels that do not decode (") + e.detail() + ")");
    }
    page.rows = levels_.records();
    int64_t non_null = levels_.non_null();
    if (v2) {
      const format::DataPageHeaderV2& d = *h.data_page_header_v2;
      if (d.num_rows < 0 || d.num_nulls < 0 || d.num_nulls > d.num_values || d.num_rows > d.num_values)
        return no("inconsistent row, null and value counts");
      if (c.max_repetition_level == 0 && d.num_rows != d.num_values)
        return no("rows and values differ in a flat column");
      if (c.max_definition_level == 0 && d.num_nulls != 0) return no("nulls in a required column");
      page.rows = d.num_rows;
      non_null = d.num_values - d.num_nulls;
    }
    const uint8_t* values = plain.data() + levels_end;
    const size_t values_size = plain.size() - levels_end;
    if (plain_fixed && values_size != static_cast<uint64_t>(non_null) * static_cast<uint64_t>(width))
      return no("values of the wrong size for the column's type");
    if (dictionary_encoded(page.encoding) && non_null > 0 && (values_size == 0 || values[0] > 32))
      return no("dictionary indices without a valid bit width");
    return page;
  }

  bool decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size, size_t column, ScannedPage& page) {
    auto attempt = [&](CompressionCodec id) {
      try {
        if (id == CompressionCodec::UNCOMPRESSED) {
          if (in.size() != out_size) return false;
          std::copy(in.begin(), in.end(), out);
        } else {
          codec(id).decompress(in, out, out_size);
        }
        page.codec = id;
        return true;
      } catch (const Error&) {
        return false;
      }
    };
    if (codecs_[column]) return attempt(*codecs_[column]);
    if (in.size() == out_size && attempt(CompressionCodec::UNCOMPRESSED)) return true;
    for (CompressionCodec id : kGuessedCodecs)
      if (attempt(id)) return true;
    return false;
  }

  compression::Codec& codec(CompressionCodec id) {
    std::unique_ptr<compression::Codec>& c = codec_cache_[id];
    if (!c) c = compression::make_codec(id);
    return *c;
  }

  io::RandomAccessInput& input_;
  uint64_t limit_;
  const Schema& schema_;
  std::vector<std::optional<CompressionCodec>> codecs_;  // per column, when a footer gave it
  std::map<CompressionCodec, std::unique_ptr<compression::Codec>> codec_cache_;
  const RecoverOptions& options_;
  PageLevels levels_;  // a page's levels, reused from page to page
  std::string why_;
};

// The metadata a reader needs of a chunk rebuilt from its pages.
format::ColumnChunk chunk_metadata(const ScannedChunk& chunk, const ColumnDescriptor& column,
                                   std::optional<CompressionCodec> given) {
  format::ColumnMetaData m;
  m.type = column.type.physical;
  m.path_in_schema = column.path;
  std::optional<CompressionCodec> codec = given;
  std::map<std::pair<PageType, Encoding>, int32_t> counts;
  bool data_seen = false;
  for (const ScannedPage& p : chunk.pages) {
    if (!codec && p.codec) codec = p.codec;
    const uint64_t header_size = p.end - p.offset - static_cast<uint64_t>(p.header.compressed_page_size);
    m.total_compressed_size += static_cast<int64_t>(p.end - p.offset);
    m.total_uncompressed_size += static_cast<int64_t>(header_size) + p.header.uncompressed_page_size;
    ++counts[{p.header.type, p.encoding}];
    if (p.dictionary()) {
      m.dictionary_page_offset = static_cast<int64_t>(p.offset);
      continue;
    }
    m.num_values += p.values;
    if (!data_seen) m.data_page_offset = static_cast<int64_t>(p.offset);
    data_seen = true;
  }
  m.codec = codec.value_or(CompressionCodec::UNCOMPRESSED);
  std::vector<format::PageEncodingStats> stats;
  for (const auto& [key, n] : counts) {
    stats.push_back({key.first, key.second, n});
    if (std::find(m.encodings.begin(), m.encodings.end(), key.second) == m.encodings.end())
      m.encodings.push_back(key.second);
  }
  if (column.max_definition_level > 0 || column.max_repetition_level > 0) m.encodings.push_back(Encoding::RLE);
  m.encoding_stats = std::move(stats);
  format::ColumnChunk cc;
  cc.file_offset = m.dictionary_page_offset.value_or(m.data_page_offset);
  cc.meta_data = std::move(m);
  return cc;
}

// Copies [0, end) of the input, then the footer, into `out_path` atomically.
void write_recovered(io::RandomAccessInput& input, uint64_t end, const format::FileMetaData& metadata,
                     const std::string& out_path) {
  auto out = io::create_file(out_path);
  std::vector<uint8_t> piece(std::min<uint64_t>(kCopyPiece, std::max<uint64_t>(end, 1)));
  for (uint64_t at = 0; at < end;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(piece.size(), end - at));
    input.read_at(at, n, piece.data());
    out->write(piece.data(), n);
    at += n;
  }
  std::string footer;
  append_footer(metadata, footer);
  out->write(footer.data(), footer.size());
  out->commit();
}

}  // namespace

RecoveryReport recover_file(io::RandomAccessInput& input, const std::string& out_path, const RecoverOptions& options) {
  RecoveryReport report;
  const uint64_t size = input.size();
  uint8_t magic[kMagicSize] = {};
  if (size < kMagicSize) throw Error(ErrorKind::kCorrupt, {.file = input.name()}, "too small to hold any row group");
  input.read_at(0, kMagicSize, magic);
  if (std::memcmp(magic, kMagic, kMagicSize) != 0)
    throw Error(ErrorKind::kCorrupt, {.file = input.name()},
                "does not start with PAR1: not a plaintext Parquet file, nothing to recover");
  try {
    Footer footer = read_footer(input);
    report.whole = true;
    report.rows = footer.metadata.num_rows;
    report.bytes_kept = size;
    write_recovered(input, footer.metadata_offset, footer.metadata, out_path);
    return report;
  } catch (const Error&) {
    // Cut short or damaged at the end: recover below.
  }

  format::FileMetaData metadata;
  uint64_t scan_from = kMagicSize;
  uint64_t keep = kMagicSize;
  std::optional<Checkpoint> checkpoint = find_last_checkpoint(input, size);
  if (checkpoint) {
    report.found_checkpoint = true;
    metadata = std::move(checkpoint->metadata);
    report.checkpoint_row_groups = static_cast<int64_t>(metadata.row_groups.size());
    scan_from = checkpoint->end;
    keep = checkpoint->offset;
  } else if (options.schema_from) {
    metadata.version = options.schema_from->version;
    metadata.schema = options.schema_from->schema;
    metadata.column_orders = options.schema_from->column_orders;
    metadata.created_by = options.schema_from->created_by;
    metadata.key_value_metadata = options.schema_from->key_value_metadata;
  } else {
    throw Error(ErrorKind::kCorrupt, {.file = input.name()},
                "no footer and no checkpoint: give the schema of a file written like it to scan its pages");
  }
  const Schema schema = Schema::from_elements(metadata.schema);
  if (schema.num_columns() == 0) throw Error(ErrorKind::kCorrupt, {.file = input.name()}, "a schema without columns");

  // A footer's codecs, where one gave them; the scan guesses the others.
  std::vector<std::optional<CompressionCodec>> codecs(schema.num_columns());
  const format::FileMetaData* reference = checkpoint            ? &metadata
                                          : options.schema_from ? &*options.schema_from
                                                                : nullptr;
  if (reference && !reference->row_groups.empty() && reference->row_groups[0].columns.size() == codecs.size())
    for (size_t c = 0; c < codecs.size(); ++c)
      if (const auto& m = reference->row_groups[0].columns[c].meta_data) codecs[c] = m->codec;

  if (options.scan_pages) {
    PageScanner scanner(input, size, schema, codecs, options);
    for (uint64_t at = scan_from;;) {
      std::optional<ScannedGroup> group = scanner.row_group_at(at);
      if (!group) {
        if (at < size) report.scan_stopped = scanner.why();
        break;
      }
      format::RowGroup rg;
      rg.num_rows = group->rows;
      rg.file_offset = static_cast<int64_t>(group->start);
      rg.ordinal = static_cast<int16_t>(std::min<size_t>(metadata.row_groups.size(), INT16_MAX));
      for (size_t c = 0; c < schema.num_columns(); ++c) {
        rg.columns.push_back(chunk_metadata(group->chunks[c], schema.column(c), codecs[c]));
        rg.total_byte_size += rg.columns.back().meta_data->total_uncompressed_size;
        rg.total_compressed_size =
            rg.total_compressed_size.value_or(0) + rg.columns.back().meta_data->total_compressed_size;
      }
      metadata.row_groups.push_back(std::move(rg));
      ++report.scanned_row_groups;
      keep = group->end;
      at = group->end;
    }
  }
  metadata.num_rows = 0;
  for (const format::RowGroup& rg : metadata.row_groups) metadata.num_rows += rg.num_rows;
  if (!metadata.created_by) metadata.created_by = default_created_by();
  report.rows = metadata.num_rows;
  report.bytes_kept = keep;
  report.bytes_lost = size - keep;
  write_recovered(input, keep, metadata, out_path);
  return report;
}

}  // namespace parq::file
