// libFuzzer target for the decrypting reader: the input is an encrypted
// Parquet file, opened with the shared corpus's keys (128-bit, and 256-bit
// for every other input) and read whole. GCM stops altered modules at
// authentication, so what the fuzzer reaches is the framing before it (the
// crypto metadata, module lengths, the AAD prefix rules), the plaintext
// footer read without its signature checked, and AES_GCM_CTR_V1 pages,
// which decrypt unauthenticated into the decoders. Seeded with the
// corpus's encrypted files.
#include <string>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/page_index.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parq::ReaderOptions reader;
  parq::crypto::DecryptionOptions& keys = reader.footer.decryption;
  if (size % 2 == 0) {
    keys.footer_key = "0123456789012345";
    keys.column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
  } else {
    keys.footer_key = "01234567890123456789012345678901";
    const std::string stem = "123456789012345678901234567890";
    keys.column_keys = {{"double_field", stem + "12"}, {"float_field", stem + "13"}, {"boolean_field", stem + "14"},
                        {"int32_field", stem + "15"},  {"ba_field", stem + "16"},    {"flba_field", stem + "17"},
                        {"int64_field.list.element", stem + "18"}, {"int96_field", stem + "19"}};
  }
  if (size % 3 == 0) keys.aad_prefix = "tester";
  keys.verify_footer_signature = size % 5 != 0;
  try {
    auto file = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"), reader);
    parq::ReadOptions options;
    options.batch_rows = 1 + static_cast<int64_t>(size % 100);
    options.pages.max_page_bytes = 64 << 20;
    auto source = parq::read_batches(*file, options);
    parq::RecordBatch batch;
    while (source->next(batch)) {
    }
    for (size_t g = 0; g < file->metadata().row_groups.size(); ++g)
      for (size_t c = 0; c < file->schema().num_columns(); ++c) {
        try {
          parq::read_page_index(*file, g, c);
        } catch (const parq::Error&) {
        }
        try {
          parq::read_bloom_filter(*file, g, c);
        } catch (const parq::Error&) {
        }
      }
  } catch (const parq::Error&) {
  }
  return 0;
}
