// Parsing of the shared writer options; see write_options.h.
#include "write_options.h"

#include <cmath>
#include <cstdlib>

#include "list_options.h"
#include "parq/error.h"

namespace parq::tool {
namespace {

bool parse_switch(const std::string& option, const std::string& v, const char* takes = "on or off") {
  if (v == "on" || v == "true" || v == "1") return true;
  if (v == "off" || v == "false" || v == "0") return false;
  throw UsageError("--" + option + " takes " + takes + ", not '" + v + "'");
}

format::Encoding encoding_of(const std::string& text) {
  try {
    return parse_encoding(text);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

compression::CodecChoice codec_of(const std::string& text) {
  try {
    return compression::parse_codec(text);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// A number, or NaN when the text is not one (the callers' range checks
// then reject it with their own message).
double parse_fraction(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() || *end != '\0' ? std::nan("") : v;
}

}  // namespace

std::vector<OptionSpec> with_write_options(std::vector<OptionSpec> own) {
  for (const char* name : {"codec",
                           "page-version",
                           "dictionary",
                           "row-group-rows",
                           "row-group-bytes",
                           "page-bytes",
                           "page-rows",
                           "dictionary-bytes",
                           "dictionary-entries",
                           "encoding",
                           "fallback",
                           "bloom-filter",
                           "bloom-fpp",
                           "stats",
                           "page-index",
                           "crc",
                           "min-saving",
                           "threads",
                           "float-order",
                           "checkpoint"})
    own.push_back({name, true});
  return own;
}

WriteOptions parse_write_options(const Args& args) {
  WriteOptions o;
  if (auto v = args.value("codec")) o.codec = codec_of(*v);
  if (auto v = args.value("page-version")) {
    if (*v != "1" && *v != "2") throw UsageError("--page-version takes 1 or 2, not '" + *v + "'");
    o.page_version = *v == "2" ? 2 : 1;
  }
  if (auto v = args.value("dictionary")) {
    if (*v == "always") {
      o.weigh_dictionary = false;
    } else {
      o.dictionary = parse_switch("dictionary", *v, "on, off or always");
    }
  }
  if (auto v = args.value("row-group-rows")) o.row_group_rows = std::max<int64_t>(1, parse_count("row-group-rows", *v));
  if (auto v = args.value("row-group-bytes"))
    o.row_group_bytes = std::max<int64_t>(1, parse_count("row-group-bytes", *v));
  if (auto v = args.value("page-bytes")) o.page_bytes = std::max<int64_t>(1, parse_count("page-bytes", *v));
  if (auto v = args.value("page-rows")) o.page_rows = parse_count("page-rows", *v);
  if (auto v = args.value("dictionary-bytes"))
    o.dictionary_limits.max_bytes = static_cast<size_t>(parse_count("dictionary-bytes", *v));
  if (auto v = args.value("dictionary-entries"))
    o.dictionary_limits.max_entries = static_cast<size_t>(parse_count("dictionary-entries", *v));
  if (auto v = args.value("stats")) o.statistics = parse_switch("stats", *v);
  if (auto v = args.value("page-index")) o.page_index = parse_switch("page-index", *v);
  if (auto v = args.value("crc")) o.page_crc = parse_switch("crc", *v);
  if (auto v = args.value("float-order")) {
    if (*v != "total" && *v != "type") throw UsageError("--float-order takes total or type, not '" + *v + "'");
    o.float_total_order = *v == "total";
  }
  if (auto v = args.value("threads")) o.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  for (const char* option : {"encoding", "fallback"})
    for (const std::string& spec : args.all(option)) {
      size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError(std::string("--") + option + " takes COLUMN=ENCODING, not '" + spec + "'");
      ColumnWriteOptions& column = o.columns[spec.substr(0, eq)];
      column.encoding = encoding_of(spec.substr(eq + 1));
      // --fallback keeps the dictionary first; --encoding uses ENC throughout.
      column.dictionary = std::string(option) == "fallback";
    }
  if (auto v = args.value("min-saving")) {
    o.min_compression_saving = parse_fraction(*v);
    if (!(o.min_compression_saving >= 0 && o.min_compression_saving <= 1))
      throw UsageError("--min-saving takes a fraction from 0 to 1, not '" + *v + "'");
  }
  double fpp = 0.01;
  if (auto v = args.value("bloom-fpp")) {
    fpp = parse_fraction(*v);
    if (!(fpp > 0 && fpp < 1)) throw UsageError("--bloom-fpp takes a probability between 0 and 1, not '" + *v + "'");
  }
  for (const std::string& column : args.all("bloom-filter"))
    o.columns[column].bloom_filter = BloomFilterOptions{0, fpp};
  if (auto v = args.value("checkpoint")) {
    try {
      o.checkpoint = parse_checkpoint(*v);
    } catch (const Error& e) {
      throw UsageError(std::string("--checkpoint takes ") + e.what());
    }
  }
  return o;
}

}  // namespace parq::tool
