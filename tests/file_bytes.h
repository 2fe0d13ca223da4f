// A file written into memory, for tests that read back what they wrote.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "parq/array/batch_source.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"

namespace parq::testing {

// The bytes of a file of `batch`'s rows, written with `options`.
inline std::vector<uint8_t> file_bytes(const Schema& schema, const RecordBatch& batch,
                                       const WriteOptions& options = {}) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return {sink->buffer().data(), sink->buffer().data() + sink->buffer().size()};
}

// The bytes of a file of every batch `source` gives.
inline std::vector<uint8_t> file_bytes(const Schema& schema, BatchSource& source, const WriteOptions& options = {}) {
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write_all(source);
  writer->close();
  return {sink->buffer().data(), sink->buffer().data() + sink->buffer().size()};
}

}  // namespace parq::testing
