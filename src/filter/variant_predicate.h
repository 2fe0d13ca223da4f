// Filters on variant-encoded values: the `value` column of a shredded
// VARIANT field holds, for rows its typed column could not, the value in the
// variant encoding, of any type. A VariantPredicate compares such a value
// with the filter's literals by the value's own type: numbers with numbers
// (integers, decimals and floats alike), strings with strings, dates with
// dates, timestamps with timestamps, booleans with booleans. A value of
// another type (a string where a number was asked, an object) satisfies
// neither the predicate nor its negation, as a failed cast in SQL gives
// unknown.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "parq/filter/expression.h"
#include "parq/variant/variant.h"

namespace parq::filter {

// Whether a three-way comparison's result `c` satisfies `op`.
bool compare_holds(CompareOp op, int c);

class VariantPredicate {
 public:
  enum class Kind : uint8_t {
    kCompare,        // value op operands[0]
    kIn,             // value equals one of operands
    kNotIn,          // value equals none (of a comparable type)
    kStartsWith,     // a string value starting with operands[0]
    kNotStartsWith,  // a string value not starting with it
    kIsNull,         // the variant null
    kIsNotNull,      // any value but the variant null
  };

  // Throws parq::Error (kInvalidArgument) for a literal no variant value
  // could equal (a malformed date, say), naming `path`.
  VariantPredicate(Kind kind, CompareOp op, const std::vector<Literal>& literals, const std::string& path);

  // Whether the encoded value (a primitive needs no metadata; objects and
  // arrays never satisfy a comparison) makes the predicate true. Bytes that
  // are not a variant value are false.
  bool holds(std::span<const uint8_t> value) const;

  // Predicates on a field inside values that are not shredded down to it:
  // the object fields to follow, by name, from the value a row's `value`
  // column holds (the whole variant, or a partially shredded object).
  void set_path(std::vector<std::string> path) { path_ = std::move(path); }
  const std::vector<std::string>& path() const { return path_; }
  // Whether the value at path() inside `value` (with the variant's
  // `metadata`; null: the row has no value there) makes the predicate true.
  // A field that is missing, or a value on the way that is not an object,
  // is NULL: IS NULL holds, nothing else does.
  bool holds_at(std::span<const uint8_t> metadata, const std::span<const uint8_t>* value) const;

  std::string to_string() const;

 private:
  // A literal in every form a variant value of some type compares with.
  struct Operand {
    Literal::Kind kind = Literal::Kind::kNull;
    long double number = 0;  // kNumber
    std::string bytes;       // kString, kBinary
    bool boolean = false;    // kBoolean
    int32_t days = 0;        // kDate
    int64_t micros = 0;      // kTime; kTimestamp in UTC (and as written, for values without a zone)
    int64_t local_micros = 0;
    int64_t nanos = 0, local_nanos = 0;
    bool nanos_fit = true;
    bool zoned = false;  // a timestamp naming its zone: no local reading
  };
  // -1, 0, 1; or 2 when the value's type does not compare with the operand.
  static int compare(const variant::Value& value, const Operand& operand);
  bool holds_value(const variant::Value& value) const;

  Kind kind_;
  CompareOp op_;
  std::vector<Operand> operands_;
  std::vector<std::string> path_;
};

}  // namespace parq::filter
