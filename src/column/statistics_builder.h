// StatisticsBuilder: min, max, null and NaN counts of the values of a page or
// a column chunk, compared in the column's sort order (SortOrder of
// schema/logical_type.h), and their thrift form for page headers, column
// chunk metadata and the column index.
//
// Values arrive as the encoders take them: dense, non-null, in physical
// storage. The builder is chosen once per column (a virtual call per batch,
// never per value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "parq/format/metadata.h"
#include "parq/schema/schema.h"

namespace parq {

class StatisticsBuilder {
 public:
  virtual ~StatisticsBuilder() = default;

  // The builder for `column`'s type and sort order. BYTE_ARRAY bounds in
  // unsigned order longer than max_bound_bytes (0: no limit) are truncated
  // and marked inexact: min to a prefix, max to the shortest string above
  // every value with that prefix (the prefix without its trailing 0xFF
  // bytes, last byte incremented). A max of only 0xFF bytes stays whole and
  // exact. STRING, ENUM and JSON columns cut at character boundaries and
  // increment the last character, so their bounds stay valid UTF-8.
  // FIXED_LEN_BYTE_ARRAY and decimal bounds are never truncated: a shorter
  // value is not a value of the column.
  //
  // `float_total_order`: FLOAT, DOUBLE and FLOAT16 bounds in IEEE 754 total
  // order (ColumnOrder IEEE_754_TOTAL_ORDER): zeros keep their sign, and a
  // column of only NaNs has its least and greatest NaN as bounds.
  static std::unique_ptr<StatisticsBuilder> make(const ColumnDescriptor& column, size_t max_bound_bytes,
                                                 bool float_total_order = false);

  // `n` values: BOOLEAN as one byte 0/1 each; INT32/FLOAT 4 bytes,
  // INT64/DOUBLE 8, INT96 12, FIXED_LEN_BYTE_ARRAY type_length bytes each.
  // Throws parq::Error for a BYTE_ARRAY column.
  virtual void add_values(const void* values, size_t n) = 0;
  // BYTE_ARRAY values: value i is data[offsets[i], offsets[i + 1]). Throws
  // parq::Error for a column of fixed-width numbers.
  virtual void add_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n) = 0;
  void add_nulls(int64_t n) { null_count_ += n; }
  // Folds in another builder of the same column (a page into its chunk);
  // parq::Error for a builder of another kind.
  virtual void merge(const StatisticsBuilder& other) = 0;
  virtual void reset() = 0;

  int64_t null_count() const { return null_count_; }
  // NaNs among FLOAT, DOUBLE and FLOAT16 values; they never enter min/max.
  int64_t nan_count() const { return nan_count_; }
  // Whether min/max exist: some value was added that is not NaN, and the
  // column's sort order is known.
  virtual bool has_bounds() const = 0;
  // The bounds in their statistics form (PLAIN bytes: little-endian numbers,
  // byte arrays without the length prefix), after truncation. Empty when
  // !has_bounds(). A floating-point zero is written -0.0 as a min and +0.0
  // as a max (parquet.thrift, ColumnOrder).
  virtual std::string min_bytes() const = 0;
  virtual std::string max_bytes() const = 0;
  virtual bool min_exact() const { return true; }
  virtual bool max_exact() const { return true; }
  // Compares two bounds as min_bytes()/max_bytes() give them, in the
  // column's sort order: < 0, 0, > 0. For the column index's boundary order.
  virtual int compare(std::string_view a, std::string_view b) const = 0;

  // null_count, min_value/max_value with their exactness, nan_count for
  // floating point, and the legacy min/max where their (signed) ordering
  // is the column's order.
  format::Statistics to_thrift() const;

  // GEOMETRY and GEOGRAPHY columns: the bounding box and type codes of the
  // WKB values added (statistics_builder_geo.cc); none for other columns,
  // for a chunk without a non-null value, or when a value was not WKB.
  virtual std::optional<format::GeospatialStatistics> geospatial() const { return std::nullopt; }

 protected:
  int64_t null_count_ = 0;
  int64_t nan_count_ = 0;

 private:
  bool reports_nans_ = false;   // FLOAT, DOUBLE, FLOAT16
  bool legacy_bounds_ = false;  // the deprecated min/max order is the column's
};

namespace detail {

// The builder of a column whose values compare as fixed-width numbers
// (BOOLEAN, INT32, INT64, FLOAT, DOUBLE, FLOAT16), in
// statistics_builder_types.cc; null for other columns. Without `bounds` it
// only counts (NaNs of a floating-point column whose order is unknown).
std::unique_ptr<StatisticsBuilder> make_number_statistics(const ColumnDescriptor& column, bool bounds,
                                                          bool float_total_order = false);

// The builder of a GEOMETRY or GEOGRAPHY column (statistics_builder_geo.cc):
// null counts and GeospatialStatistics, never min/max, whose order the
// spec leaves undefined for these types. Null for other columns.
std::unique_ptr<StatisticsBuilder> make_geo_statistics(const ColumnDescriptor& column);

// Raises the error for a value batch of the wrong form (`what`) for the
// builder of `column_kind`.
[[noreturn]] void wrong_statistics_input(const char* what, const char* column_kind);

}  // namespace detail

}  // namespace parq
