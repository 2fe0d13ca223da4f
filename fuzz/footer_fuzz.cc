// libFuzzer target for the metadata layer. The first byte picks what the rest
// is fed to: a whole file (envelope, footer, schema, row-group checks) or one
// of the Thrift structures read from untrusted bytes. Anything decoded is
// encoded again and must re-encode to the same bytes (a round-trip property).
#include <cstdlib>
#include <string>

#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/format/metadata_codec.h"
#include "parq/text/value_text.h"

namespace {

template <class T>
void decode_and_round_trip(const uint8_t* data, size_t size) {
  T first;
  try {
    parq::format::decode_thrift(data, size, first);
  } catch (const parq::Error&) {
    return;
  }
  std::string once, twice;
  parq::format::encode_thrift(first, once);
  T second;
  parq::format::decode_thrift(reinterpret_cast<const uint8_t*>(once.data()), once.size(), second);
  parq::format::encode_thrift(second, twice);
  if (once != twice) std::abort();
}

// Statistics bounds are untrusted bytes rendered in the column's type, as
// `parq meta` does.
void render_statistics(const parq::FileReader& reader) {
  std::string out;
  for (const auto& rg : reader.metadata().row_groups) {
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const auto& md = rg.columns[c].meta_data;
      if (!md || !md->statistics) continue;
      for (const auto* bound :
           {&md->statistics->min_value, &md->statistics->max_value, &md->statistics->min, &md->statistics->max}) {
        if (!*bound) continue;
        try {
          parq::text::append_plain_value(out, reader.schema().column(c).type, **bound);
        } catch (const parq::Error&) {
        }
      }
    }
  }
}

void open_file(const uint8_t* data, size_t size) {
  try {
    auto reader = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"));
    (void)reader->schema().to_string();
    render_statistics(*reader);
  } catch (const parq::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t* rest = data + 1;
  size_t n = size - 1;
  switch (data[0] % 6) {
    case 0:
      open_file(rest, n);
      break;
    case 1:
      decode_and_round_trip<parq::format::FileMetaData>(rest, n);
      break;
    case 2:
      decode_and_round_trip<parq::format::PageHeader>(rest, n);
      break;
    case 3:
      decode_and_round_trip<parq::format::ColumnIndex>(rest, n);
      break;
    case 4:
      decode_and_round_trip<parq::format::OffsetIndex>(rest, n);
      break;
    case 5:
      decode_and_round_trip<parq::format::BloomFilterHeader>(rest, n);
      break;
  }
  return 0;
}
