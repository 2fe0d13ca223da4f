// What the dataset's opening and its reader share: the input that opens
// its file on first use, partition folders, constant and null arrays.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parq/array/array.h"
#include "parq/file/file_reader.h"
#include "parq/filter/expression.h"
#include "parq/filter/literal.h"
#include "parq/io/input.h"
#include "parq/schema/schema.h"

namespace parq::dataset {

// An input that opens its file at its first use (a read, a view, or its
// size when the size was not known from the listing), so that a dataset's
// files whose rows the plan rules out are never opened.
class LazyInput final : public io::RandomAccessInput {
 public:
  // `resident`: what memory_resident() says before the file is opened.
  LazyInput(std::string location, uint64_t size, InputOpener opener, bool resident)
      : location_(std::move(location)), size_(size), opener_(std::move(opener)), resident_(resident) {}
  bool memory_resident() const override { return opened() ? inner().memory_resident() : resident_; }
  uint64_t size() const override { return size_ != 0 ? size_ : inner().size(); }
  std::span<const uint8_t> view(uint64_t offset, size_t n) const override;
  std::vector<io::ByteRange> read_ranges(std::span<const io::FileRange> ranges) override;
  const std::string& name() const override { return location_; }
  bool opened() const { return opened_.load(std::memory_order_acquire); }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override;

 private:
  io::RandomAccessInput& inner() const;

  std::string location_;
  uint64_t size_;
  InputOpener opener_;
  bool resident_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<io::RandomAccessInput> inner_;
  mutable std::atomic<bool> opened_{false};
};

// The key=value folders of a path below a dataset's root (its last
// component, the file's name, is not a folder): keys as written, values
// %-unescaped, nullopt for empty and __HIVE_DEFAULT_PARTITION__.
std::vector<std::pair<std::string, std::optional<std::string>>> hive_folders(std::string_view relative);

// Whether the column test `atom` (under `negated` NOTs) is true for a file
// whose partition columns (the columns of `partitions`, a schema of them
// alone) have `values`; `atom` must be on one of them. SQL's unknown (a
// null value) is not true. Throws parq::Error for a literal that does not
// fit its column.
bool partition_atom_true(const filter::Expression& atom, bool negated, const Schema& partitions,
                         const std::vector<std::optional<filter::PhysicalValue>>& values);

// Whether `e` may be true for a file whose partition columns (the columns
// of `partitions`, a schema of them alone) have `values`; tests of other
// columns may be anything. Throws parq::Error for a literal that does not
// fit its partition column.
bool partitions_may_match(const filter::Expression& e, const Schema& partitions,
                          const std::vector<std::optional<filter::PhysicalValue>>& values);

// `rows` copies of one value (or nulls) as a leaf of `type`.
Array constant_array(const std::string& name, const ValueType& type, const std::optional<filter::PhysicalValue>& value,
                     int64_t rows);
// An array of `rows` nulls with the shape of `prototype` (a zero-row array).
Array null_array(const Array& prototype, int64_t rows);

}  // namespace parq::dataset
