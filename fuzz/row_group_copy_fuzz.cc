// libFuzzer target for copying row groups as they are (`parq concat`,
// `merge`, `split`): the input is a Parquet file whose row groups are
// copied byte for byte into a file in memory, and a run of rows across a
// row-group boundary re-encoded beside them; the output is then opened
// again. A hostile footer (chunk ranges, page indexes, bloom filters that
// point anywhere) must give a parq::Error, never a crash, a hang or an
// allocation sized by a number from the file. Seeded with the corpus files.
#include <algorithm>
#include <memory>

#include "parq/error.h"
#include "parq/file/row_group_copy.h"
#include "parq/io/output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto file = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"));
    parq::check_copyable(*file);
    const parq::format::FileMetaData& meta = file->metadata();
    auto out = std::make_unique<parq::io::BufferOutput>();
    parq::io::BufferOutput* memory = out.get();
    parq::WriteOptions options = parq::copy_write_options(*file);
    options.row_group_rows = 1000;  // bounds what re-encoded rows can hold
    auto writer = parq::FileWriter::open(std::move(out), file->schema(), options);
    writer->set_column_orders(meta.column_orders);
    parq::RowGroupCopyOptions copy;
    copy.buffer_bytes = 4096;  // many pieces per chunk
    int64_t rows = 0;
    for (size_t g = 0; g < std::min<size_t>(meta.row_groups.size(), 8); ++g) {
      parq::copy_row_group(*file, g, *writer, copy);
      rows += meta.row_groups[g].num_rows;
    }
    // A run of rows that starts and ends inside row groups, when they hold
    // few enough rows to read them; the run is of the row groups' rows,
    // which need not be the footer's count.
    int64_t total = 0;
    for (const auto& g : meta.row_groups) total += g.num_rows;  // none negative once opened
    if (total > 1 && total <= 100000) {
      const parq::RowRange run{total / 3, total - total / 3};
      parq::copy_rows(*file, run, *writer, copy);
      rows += run.size();
    }
    writer->close();
    // What was copied is all there: a file that opens and counts its rows.
    auto copied = parq::FileReader::open(parq::io::memory_input(memory->buffer().span(), "copy"));
    if (copied->metadata().num_rows != rows) __builtin_trap();
  } catch (const parq::Error&) {
  }
  return 0;
}
