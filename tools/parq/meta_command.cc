// `parq meta FILE [--json]`: the file's metadata: version, writer, rows,
// key-value metadata, and per row group and column chunk the type, codec,
// encodings, counts, sizes, offsets and statistics (rendered by logical type).
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "json_writer.h"
#include "key_args.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/schema/logical_type.h"
#include "parq/text/json_text.h"
#include "parq/text/value_text.h"
#include "stat_text.h"

namespace parq::tool {
namespace {

using format::ColumnChunk;
using format::ColumnMetaData;
using format::FileMetaData;
using format::RowGroup;
using format::Statistics;

std::string encodings_list(const ColumnMetaData& md) {
  std::string s;
  for (size_t i = 0; i < md.encodings.size(); ++i) {
    if (i != 0) s += ',';
    s += format::to_string(md.encodings[i]);
  }
  return s;
}

std::string column_order_name(const format::ColumnOrder& order) {
  if (order.TYPE_ORDER) return "TYPE_DEFINED_ORDER";
  if (order.IEEE_754_TOTAL_ORDER) return "IEEE_754_TOTAL_ORDER";
  if (order.INT96_TIMESTAMP_ORDER) return "INT96_TIMESTAMP_ORDER";
  return "UNKNOWN";
}

std::string encryption_name(const format::EncryptionAlgorithm& alg) {
  if (alg.AES_GCM_V1) return "AES_GCM_V1";
  if (alg.AES_GCM_CTR_V1) return "AES_GCM_CTR_V1";
  return "UNKNOWN";
}

// Key metadata as text when it is (a key id, PKMT1 JSON), else in hex.
std::string key_metadata_text(const std::string& metadata) {
  bool printable = true;
  for (char c : metadata) printable = printable && c >= 0x20 && c < 0x7f;
  if (printable) return metadata;
  static const char digits[] = "0123456789abcdef";
  std::string out = "0x";
  for (unsigned char c : metadata) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// What the footer says of the file's encryption (never a key): nullopt for
// a file that is not encrypted.
struct EncryptionSummary {
  std::string algorithm;
  bool encrypted_footer = false;
  std::string signature;  // plaintext footers: "verified" or "not checked"
  std::optional<std::string> aad_prefix;
  std::optional<std::string> footer_key_metadata;
};

std::optional<EncryptionSummary> encryption_summary(const FileReader& reader) {
  const FileMetaData& md = reader.metadata();
  const auto& decryptor = reader.footer().decryptor;
  if (!md.encryption_algorithm && !reader.footer().encrypted_footer) return std::nullopt;
  EncryptionSummary s;
  s.encrypted_footer = reader.footer().encrypted_footer;
  if (md.encryption_algorithm) {
    s.algorithm = encryption_name(*md.encryption_algorithm);
    s.signature = reader.footer().signature_verified ? "verified" : "not checked";
    if (md.footer_signing_key_metadata) s.footer_key_metadata = *md.footer_signing_key_metadata;
  } else {
    s.algorithm = crypto::to_string(decryptor->algorithm());
    s.footer_key_metadata = decryptor->footer_key_metadata();
  }
  if (decryptor && !decryptor->aad_prefix().empty()) s.aad_prefix = decryptor->aad_prefix();
  const auto* a = md.encryption_algorithm ? &*md.encryption_algorithm : nullptr;
  if (a && a->AES_GCM_V1 && a->AES_GCM_V1->aad_prefix) s.aad_prefix = *a->AES_GCM_V1->aad_prefix;
  if (a && a->AES_GCM_CTR_V1 && a->AES_GCM_CTR_V1->aad_prefix) s.aad_prefix = *a->AES_GCM_CTR_V1->aad_prefix;
  return s;
}

std::optional<std::string> column_key_metadata(const format::ColumnCryptoMetaData& crypto) {
  if (crypto.ENCRYPTION_WITH_COLUMN_KEY) return crypto.ENCRYPTION_WITH_COLUMN_KEY->key_metadata;
  return std::nullopt;
}

std::string crypto_name(const format::ColumnCryptoMetaData& crypto) {
  if (crypto.ENCRYPTION_WITH_FOOTER_KEY) return "footer key";
  if (crypto.ENCRYPTION_WITH_COLUMN_KEY) return "column key";
  return "unknown";
}

// ---- JSON ----------------------------------------------------------------

void json_key_values(JsonWriter& w, const std::vector<format::KeyValue>& kvs) {
  w.begin_array();
  for (const auto& kv : kvs) {
    w.begin_object().field("key", kv.key).key("value");
    kv.value ? w.string(*kv.value) : w.null();
    w.end_object();
  }
  w.end_array();
}

template <class T>
void json_optional(JsonWriter& w, std::string_view name, const std::optional<T>& v) {
  if (v) w.field(name, *v);
}

void json_int_list(JsonWriter& w, std::string_view name, const std::optional<std::vector<int64_t>>& v) {
  if (v) w.key(name).inline_integers(*v);
}

void json_statistics(JsonWriter& w, const ValueType& type, const Statistics& s) {
  w.begin_object();
  json_optional(w, "null_count", s.null_count);
  json_optional(w, "distinct_count", s.distinct_count);
  json_optional(w, "nan_count", s.nan_count);
  if (s.min_value) w.key("min").raw(render_bound(type, *s.min_value));
  if (s.max_value) w.key("max").raw(render_bound(type, *s.max_value));
  json_optional(w, "is_min_value_exact", s.is_min_value_exact);
  json_optional(w, "is_max_value_exact", s.is_max_value_exact);
  if (s.min) w.key("legacy_min").raw(render_bound(type, *s.min));
  if (s.max) w.key("legacy_max").raw(render_bound(type, *s.max));
  w.end_object();
}

void json_geospatial(JsonWriter& w, const format::GeospatialStatistics& g) {
  w.begin_object();
  if (g.bbox) {
    const auto& b = *g.bbox;
    w.key("bbox").begin_object();
    auto num = [&](std::string_view k, double v) {
      std::string t;
      text::append_double(t, v);
      w.key(k).raw(t);
    };
    num("xmin", b.xmin);
    num("xmax", b.xmax);
    num("ymin", b.ymin);
    num("ymax", b.ymax);
    if (b.zmin) num("zmin", *b.zmin);
    if (b.zmax) num("zmax", *b.zmax);
    if (b.mmin) num("mmin", *b.mmin);
    if (b.mmax) num("mmax", *b.mmax);
    w.end_object();
  }
  if (g.geospatial_types)
    w.key("geospatial_types").inline_integers({g.geospatial_types->begin(), g.geospatial_types->end()});
  w.end_object();
}

void json_column_metadata(JsonWriter& w, const ValueType& type, const ColumnMetaData& md) {
  w.field("codec", format::to_string(md.codec));
  std::vector<std::string> encodings;
  for (auto e : md.encodings) encodings.push_back(format::to_string(e));
  w.key("encodings").inline_strings(encodings);
  w.field("num_values", md.num_values);
  w.field("total_compressed_size", md.total_compressed_size);
  w.field("total_uncompressed_size", md.total_uncompressed_size);
  w.field("data_page_offset", md.data_page_offset);
  json_optional(w, "dictionary_page_offset", md.dictionary_page_offset);
  json_optional(w, "index_page_offset", md.index_page_offset);
  json_optional(w, "bloom_filter_offset", md.bloom_filter_offset);
  json_optional(w, "bloom_filter_length", md.bloom_filter_length);
  if (md.statistics) json_statistics(w.key("statistics"), type, *md.statistics);
  if (md.encoding_stats) {
    w.key("encoding_stats").begin_array();
    for (const auto& es : *md.encoding_stats)
      w.begin_object()
          .field("page_type", format::to_string(es.page_type))
          .field("encoding", format::to_string(es.encoding))
          .field("count", es.count)
          .end_object();
    w.end_array();
  }
  if (md.size_statistics) {
    const auto& ss = *md.size_statistics;
    w.key("size_statistics").begin_object();
    json_optional(w, "unencoded_byte_array_data_bytes", ss.unencoded_byte_array_data_bytes);
    json_int_list(w, "repetition_level_histogram", ss.repetition_level_histogram);
    json_int_list(w, "definition_level_histogram", ss.definition_level_histogram);
    w.end_object();
  }
  if (md.geospatial_statistics) json_geospatial(w.key("geospatial_statistics"), *md.geospatial_statistics);
  if (md.key_value_metadata) json_key_values(w.key("key_value_metadata"), *md.key_value_metadata);
}

void json_column_chunk(JsonWriter& w, const ColumnDescriptor& column, const ColumnChunk& cc) {
  w.begin_object();
  w.field("path", column.dotted_path());
  w.field("type", format::to_string(column.type.physical));
  if (has_logical_type(column.type.logical)) w.field("logical_type", logical_type_to_string(column.type.logical));
  if (cc.file_path) w.field("file_path", *cc.file_path);
  w.field("file_offset", cc.file_offset);
  if (cc.meta_data) json_column_metadata(w, column.type, *cc.meta_data);
  json_optional(w, "column_index_offset", cc.column_index_offset);
  json_optional(w, "column_index_length", cc.column_index_length);
  json_optional(w, "offset_index_offset", cc.offset_index_offset);
  json_optional(w, "offset_index_length", cc.offset_index_length);
  if (cc.crypto_metadata) {
    w.field("encrypted_with", crypto_name(*cc.crypto_metadata));
    if (auto m = column_key_metadata(*cc.crypto_metadata)) w.field("key_metadata", key_metadata_text(*m));
  }
  w.end_object();
}

void json_row_group(JsonWriter& w, const Schema& schema, const RowGroup& rg, size_t index) {
  w.begin_object();
  w.field("index", static_cast<int64_t>(index));
  w.field("num_rows", rg.num_rows);
  w.field("total_byte_size", rg.total_byte_size);
  json_optional(w, "total_compressed_size", rg.total_compressed_size);
  json_optional(w, "file_offset", rg.file_offset);
  json_optional(w, "ordinal", rg.ordinal);
  if (rg.sorting_columns) {
    w.key("sorting_columns").begin_array();
    for (const auto& sc : *rg.sorting_columns)
      w.begin_object()
          .field("column_idx", sc.column_idx)
          .field("descending", sc.descending)
          .field("nulls_first", sc.nulls_first)
          .end_object();
    w.end_array();
  }
  w.key("columns").begin_array();
  for (size_t c = 0; c < rg.columns.size(); ++c) json_column_chunk(w, schema.column(c), rg.columns[c]);
  w.end_array();
  w.end_object();
}

std::string render_json(const FileReader& reader) {
  const FileMetaData& md = reader.metadata();
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.field("file", reader.name());
  w.field("version", md.version);
  if (md.created_by) w.field("created_by", *md.created_by);
  w.field("num_rows", md.num_rows);
  w.field("num_row_groups", static_cast<int64_t>(md.row_groups.size()));
  w.field("num_columns", static_cast<int64_t>(reader.schema().num_columns()));
  w.field("footer_length", static_cast<int64_t>(reader.footer().metadata_length));
  if (md.key_value_metadata) json_key_values(w.key("key_value_metadata"), *md.key_value_metadata);
  if (md.column_orders) {
    std::vector<std::string> orders;
    for (const auto& o : *md.column_orders) orders.push_back(column_order_name(o));
    w.key("column_orders").inline_strings(orders);
  }
  if (auto e = encryption_summary(reader)) {
    w.key("encryption").begin_object();
    w.field("algorithm", e->algorithm);
    w.field("footer", e->encrypted_footer ? "encrypted" : "plaintext");
    if (!e->encrypted_footer) w.field("signature", e->signature);
    if (e->aad_prefix) w.field("aad_prefix", *e->aad_prefix);
    if (e->footer_key_metadata) w.field("footer_key_metadata", key_metadata_text(*e->footer_key_metadata));
    w.end_object();
  }
  w.key("row_groups").begin_array();
  for (size_t g = 0; g < md.row_groups.size(); ++g) json_row_group(w, reader.schema(), md.row_groups[g], g);
  w.end_array();
  w.end_object();
  return out;
}

// ---- text ----------------------------------------------------------------

void text_statistics(std::string& out, const ValueType& type, const Statistics& s) {
  auto add = [&](const char* name, const std::string& value) { out += std::string(" ") + name + "=" + value; };
  if (s.null_count) add("nulls", std::to_string(*s.null_count));
  if (s.distinct_count) add("distinct", std::to_string(*s.distinct_count));
  if (s.nan_count) add("nans", std::to_string(*s.nan_count));
  if (s.min_value) add("min", render_bound(type, *s.min_value) + (s.is_min_value_exact == false ? "(truncated)" : ""));
  if (s.max_value) add("max", render_bound(type, *s.max_value) + (s.is_max_value_exact == false ? "(truncated)" : ""));
  // Legacy bounds only when they say something the current ones do not.
  if (s.min && s.min != s.min_value) add("legacy_min", render_bound(type, *s.min));
  if (s.max && s.max != s.max_value) add("legacy_max", render_bound(type, *s.max));
}

// "types=1,1002 x=[1, 2] y=[3, 4] z=[..]": X first as the statistics
// order it; a box whose xmin is above its xmax crosses the antimeridian.
void text_geospatial(std::string& out, const format::GeospatialStatistics& g) {
  if (g.geospatial_types) {
    out += " types=";
    if (g.geospatial_types->empty()) out += "unknown";
    for (size_t i = 0; i < g.geospatial_types->size(); ++i)
      out += (i ? "," : "") + std::to_string((*g.geospatial_types)[i]);
  }
  if (!g.bbox) return;
  const auto& b = *g.bbox;
  auto range = [&](const char* axis, double lo, double hi) {
    out += std::string(" ") + axis + "=[";
    text::append_double(out, lo);
    out += ", ";
    text::append_double(out, hi);
    out += "]";
  };
  range("x", b.xmin, b.xmax);
  if (b.xmin > b.xmax) out += "(wraps)";
  range("y", b.ymin, b.ymax);
  if (b.zmin && b.zmax) range("z", *b.zmin, *b.zmax);
  if (b.mmin && b.mmax) range("m", *b.mmin, *b.mmax);
}

void text_column_chunk(std::string& out, const ColumnDescriptor& column, const ColumnChunk& cc) {
  out += "  column " + std::to_string(column.column_index) + " " + column.dotted_path() + ": " +
         format::to_string(column.type.physical);
  if (has_logical_type(column.type.logical)) out += " " + logical_type_to_string(column.type.logical);
  out += "\n";
  if (cc.file_path) out += "    file_path " + *cc.file_path + "\n";
  std::string key;
  if (cc.crypto_metadata) {
    key = crypto_name(*cc.crypto_metadata);
    if (auto m = column_key_metadata(*cc.crypto_metadata)) key += " (key metadata " + key_metadata_text(*m) + ")";
  }
  if (!cc.meta_data) {
    out += "    metadata encrypted with the " + (cc.crypto_metadata ? key : std::string("unknown key")) + "\n";
    return;
  }
  const ColumnMetaData& md = *cc.meta_data;
  if (cc.crypto_metadata) out += "    encrypted with the " + key + "\n";
  out += "    codec " + std::string(format::to_string(md.codec)) + ", encodings " + encodings_list(md) + ", " +
         std::to_string(md.num_values) + " values, " + std::to_string(md.total_compressed_size) + " bytes (" +
         std::to_string(md.total_uncompressed_size) + " uncompressed)\n";
  out += "    offsets: data " + std::to_string(md.data_page_offset);
  if (md.dictionary_page_offset) out += ", dictionary " + std::to_string(*md.dictionary_page_offset);
  if (md.index_page_offset) out += ", index page " + std::to_string(*md.index_page_offset);
  if (cc.column_index_offset) out += ", column index " + std::to_string(*cc.column_index_offset);
  if (cc.offset_index_offset) out += ", offset index " + std::to_string(*cc.offset_index_offset);
  if (md.bloom_filter_offset) out += ", bloom filter " + std::to_string(*md.bloom_filter_offset);
  out += "\n";
  if (md.statistics) {
    out += "    statistics:";
    text_statistics(out, column.type, *md.statistics);
    out += "\n";
  }
  if (md.geospatial_statistics) {
    out += "    geospatial statistics:";
    text_geospatial(out, *md.geospatial_statistics);
    out += "\n";
  }
}

std::string render_text(const FileReader& reader) {
  const FileMetaData& md = reader.metadata();
  std::string out;
  out += "file: " + reader.name() + "\n";
  out += "version: " + std::to_string(md.version) + "\n";
  if (md.created_by) out += "created_by: " + *md.created_by + "\n";
  out += "num_rows: " + std::to_string(md.num_rows) + "\n";
  out += "row groups: " + std::to_string(md.row_groups.size()) +
         ", leaf columns: " + std::to_string(reader.schema().num_columns()) +
         ", footer: " + std::to_string(reader.footer().metadata_length) + " bytes\n";
  if (auto e = encryption_summary(reader)) {
    out +=
        "encryption: " + e->algorithm + ", " +
        (e->encrypted_footer ? std::string("encrypted footer") : "plaintext footer (signature " + e->signature + ")");
    if (e->aad_prefix) out += ", AAD prefix \"" + *e->aad_prefix + "\"";
    if (e->footer_key_metadata) out += ", footer key metadata " + key_metadata_text(*e->footer_key_metadata);
    out += "\n";
  }
  if (md.key_value_metadata) {
    out += "key_value_metadata:\n";
    for (const auto& kv : *md.key_value_metadata) {
      std::string v = kv.value.value_or("(null)");
      if (v.size() > 200) v = v.substr(0, 200) + "... (" + std::to_string(kv.value->size()) + " bytes)";
      out += "  " + kv.key + " = " + v + "\n";
    }
  }
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const RowGroup& rg = md.row_groups[g];
    out += "row group " + std::to_string(g) + ": " + std::to_string(rg.num_rows) + " rows, " +
           std::to_string(rg.total_byte_size) + " bytes\n";
    for (size_t c = 0; c < rg.columns.size(); ++c) text_column_chunk(out, reader.schema().column(c), rg.columns[c]);
  }
  return out;
}

int run_meta(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"json", false}}));
  const std::vector<std::string> files = expect_files(args);
  const bool json = args.flag("json");
  // Several files: text one after another (each names its file), JSON an
  // array of the objects.
  const bool several = files.size() > 1;
  if (json && several) std::fputs("[\n", stdout);
  for (size_t i = 0; i < files.size(); ++i) {
    auto reader = FileReader::open(files[i], reader_options(args, files[i]));
    std::string out = json ? render_json(*reader) : render_text(*reader);
    if (json && several && i + 1 < files.size()) {
      while (!out.empty() && out.back() == '\n') out.pop_back();
      out += ",\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  if (json && several) std::fputs("]\n", stdout);
  return 0;
}

}  // namespace

const Command kMetaCommand = {
    "meta",
    "file, row group and column chunk metadata",
    "usage: parq meta FILE... [--json]\n"
    "\n"
    "FILE... is files, folders (every file below), globs or URLs, shown one\n"
    "after another (with --json, an array of their objects).\n"
    "Prints the file's metadata: format version, writer, row count, key-value\n"
    "metadata, and for every row group and column chunk the type, codec,\n"
    "encodings, value count, sizes, offsets and statistics (bounds shown in the\n"
    "column's logical type).\n"
    "\n"
    "  --json   one JSON object; the file's row count is under \"num_rows\"\n"
    "\n" PARQ_KEY_HELP,
    run_meta,
};

}  // namespace parq::tool
