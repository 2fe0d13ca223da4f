// A filter bound to a file's schema: leaf tests on column indexes with
// literals in the columns' storage, and NOT pushed down to the leaves.
//
// Under SQL's three-valued logic NOT (a < 5) is exactly a >= 5 (both
// unknown when a is null), NOT (a IN (..)) is a NOT IN (..), and De
// Morgan's laws hold, so a negation-free tree says the same as the
// expression. Every stage that prunes (statistics, dictionaries, bloom
// filters, page indexes) then asks one question of a leaf test, "can it be
// true here?", and combines the answers by AND and OR alone.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parq/filter/expression.h"
#include "parq/filter/literal.h"
#include "parq/format/metadata.h"
#include "parq/geo/wkb.h"
#include "parq/schema/schema.h"
#include "variant_predicate.h"

namespace parq::filter {

struct LeafTest {
  enum class Kind {
    kCompare,            // value op values[0]
    kIn,                 // value equals one of values
    kNotIn,              // value equals none of values (false for all when the list had a NULL)
    kIsNull,             //
    kIsNotNull,          //
    kStartsWith,         // bytes start with values[0].bytes
    kNotStartsWith,      //
    kVariant,            // variant-encoded bytes (a shredded field's `value`) satisfy `variant`
    kBboxIntersects,     // WKB whose bounds meet `box`
    kNotBboxIntersects,  // WKB whose bounds miss `box` (an empty geometry among them)
  };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEqual;
  int column = 0;  // the schema's leaf index
  ValueOrder order = ValueOrder::kInt64;
  std::vector<PhysicalValue> values;
  // kIn: the list had a NULL (it adds nothing that can be true);
  // kNotIn: likewise, and makes the test never true.
  bool list_has_null = false;
  std::shared_ptr<const VariantPredicate> variant;
  // kVariant on fields that are not shredded (VariantPredicate::path): the
  // variant's metadata column, which the test reads beside `column`; -1
  // otherwise. Such a test is evaluated by evaluate_path_test.
  int metadata_column = -1;
  geo::QueryBox box;

  std::string to_string(const Schema& schema) const;
};

struct FilterNode {
  enum class Kind { kTrue, kFalse, kUnknown, kAnd, kOr, kTest };
  Kind kind = Kind::kTrue;
  size_t test = 0;  // kTest: index into BoundFilter::tests
  std::vector<FilterNode> children;
};

class BoundFilter {
 public:
  // Throws parq::Error naming the column for an unknown path, a column
  // inside a list or map (a row has many values there), a group, a literal
  // that does not fit, or an order comparison on an unordered column.
  //
  // A path into a VARIANT column ("v.user.age": the column, then object
  // fields) binds to the field's shredded columns: its typed column where
  // that holds the row's value, else its `value` column compared by the
  // value's own type (VariantPredicate); a row lacking the field is null.
  // The field must be shredded down to a primitive typed column or a value
  // column (an error names the path otherwise).
  static BoundFilter bind(const Expression& expression, const Schema& schema);

  const FilterNode& root() const { return root_; }
  const std::vector<LeafTest>& tests() const { return tests_; }
  // The leaf columns the filter reads, ascending.
  const std::vector<int>& columns() const { return columns_; }
  std::string to_string(const Schema& schema) const;

 private:
  FilterNode bind_node(const Expression& e, bool negated, const Schema& schema);
  FilterNode bind_variant_path(const Expression& e, bool negated, const Schema& schema);
  FilterNode bind_unshredded_path(const Expression& e, bool negated, const ColumnDescriptor* value,
                                  const ColumnDescriptor& metadata, const std::vector<std::string>& rest);
  FilterNode add_test(LeafTest test);

  FilterNode root_;
  std::vector<LeafTest> tests_;
  std::vector<int> columns_;
};

// Tri-state truth per row: kFalse < kUnknown < kTrue, so AND is min, OR
// max.
enum : uint8_t { kRowFalse = 0, kRowUnknown = 1, kRowTrue = 2 };

// The truth of `test` for each of `rows` rows of a non-repeated leaf:
// `def` holds a definition level per row (nullptr: every row defined),
// `max_def` the leaf's maximum; `values` the defined rows' values in the
// reader's dense form (fixed-width: `fixed`; byte arrays: `offsets` and
// `data`). Writes `rows` truth bytes to `out`.
struct DenseValues {
  const ColumnDescriptor* column = nullptr;
  const uint8_t* fixed = nullptr;  // fixed-width values, `width` bytes each (BOOLEAN: 1)
  int32_t width = 0;
  const int32_t* offsets = nullptr;  // byte arrays: offsets into `data`
  const uint8_t* data = nullptr;
};
// The dense values of a leaf reader's batch.
DenseValues dense_values(const ColumnDescriptor& column, const uint8_t* fixed, const int32_t* offsets,
                         const uint8_t* data);
void evaluate_test(const LeafTest& test, const DenseValues& values, const int16_t* def, int16_t max_def, int64_t rows,
                   uint8_t* out);
// A test with a metadata column: `values`/`def` are its value column's,
// `metadata`/`metadata_def` the metadata column's, over the same rows.
// Rows whose variant is null, and rows without a value, have nothing at
// the path: IS NULL is true for them, every other test false.
void evaluate_path_test(const LeafTest& test, const DenseValues& values, const int16_t* def, int16_t max_def,
                        const DenseValues& metadata, const int16_t* metadata_def, int16_t metadata_max_def,
                        int64_t rows, uint8_t* out);

// Combines per-test truths (truths[t] holds `rows` bytes for test t) by the
// tree into `out`.
void evaluate_tree(const FilterNode& node, const std::vector<std::vector<uint8_t>>& truths, int64_t rows, uint8_t* out);

// Whether a set of values can make `test` true, from what is known of it:
// bounds (either may be absent), whether nulls and NaNs may be present,
// whether it is all nulls.
struct ValueSummary {
  const PhysicalValue* min = nullptr;
  const PhysicalValue* max = nullptr;
  bool may_have_null = true;
  bool may_have_non_null = true;
  bool may_have_nan = true;  // floating-point orders only
  // GEOMETRY and GEOGRAPHY chunks: the GeospatialStatistics box (null: none).
  const format::BoundingBox* bbox = nullptr;
};
bool may_be_true(const LeafTest& test, const ValueSummary& summary);

// Whether a single known value makes `test` true (dictionary entries). A
// value that is not WKB may match a geometry test: the rows holding it
// decide (and fail).
bool value_matches(const LeafTest& test, const PhysicalValue& value);

// Combines per-test answers by the tree: can any row be true?
template <class TestAnswer>
bool may_match(const FilterNode& node, TestAnswer&& answer) {
  switch (node.kind) {
    case FilterNode::Kind::kTrue:
      return true;
    case FilterNode::Kind::kFalse:
    case FilterNode::Kind::kUnknown:
      return false;
    case FilterNode::Kind::kAnd:
      for (const auto& c : node.children)
        if (!may_match(c, answer)) return false;
      return true;
    case FilterNode::Kind::kOr:
      for (const auto& c : node.children)
        if (may_match(c, answer)) return true;
      return false;
    case FilterNode::Kind::kTest:
      return answer(node.test);
  }
  return true;
}

}  // namespace parq::filter
