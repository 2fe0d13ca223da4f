// Putting shredded VARIANT columns back together (apache/parquet-format
// VariantShredding.md).
//
// A VARIANT group reads as a struct of `metadata`, `value` and, when the
// writer shredded it, `typed_value`: a leaf, a list of element groups or a
// group of field groups, each of those again a `value`/`typed_value` pair.
// unshred() rebuilds every slot's whole value from them, as the spec's
// construct_variant does, into a struct of `metadata` and `value` that
// variant::Value reads.
//
// Shredding the spec calls invalid is an error naming the path and row
// where it is found, not a guess: `value` and `typed_value` both set outside
// an object, a shredded object whose `value` is not an object, a field both
// shredded and in `value`, a shredded type the spec does not list (unsigned
// integers, FIXED_LEN_BYTE_ARRAY other than UUID and decimals, ...). A field
// group that is optional, which the spec does not allow but whose meaning
// is plain, reads as missing where it is null.
#pragma once

#include <optional>

#include "parq/array/array.h"
#include "parq/schema/field.h"
#include "parq/schema/schema.h"

namespace parq::variant {

// A struct annotated VARIANT.
bool is_variant(const Array& array);

// Whether a VARIANT struct already is what unshred() returns: `metadata` and
// `value` alone, in that order, a value in every valid slot. Such a group
// needs no rebuilding (its values are not validated here: readers of them
// do that). Throws parq::Error when its arrays are malformed.
bool holds_whole_values(const Array& group);

// `group` (a VARIANT struct with its `metadata`) with each slot's value
// rebuilt into `value`; null slots stay null, and a slot whose value is
// missing altogether holds the variant null, as the spec asks. Throws
// parq::Error: kCorrupt for invalid shredding or variant bytes,
// kUnsupported for a shredded type the spec does not allow,
// kInvalidArgument when `metadata` was not read, kLimit when one batch's
// values pass 2 GiB.
Array unshred(const Array& group);

// Every VARIANT struct in the batch, at any depth, replaced by unshred()'s
// (those that hold whole values already are left as they are).
void unshred_variants(RecordBatch& batch);

// The other way: an unshredded VARIANT `group` (binary `metadata` and
// `value`) in the layout of `target`, a VARIANT group of `schema` with
// `typed_value` columns. A value goes to a typed column when it has the
// column's type (integers of any width that fit the column's, decimals of
// its scale that fit its precision, timestamps of its unit and zone); other
// values stay in `value`, and an object's fields the layout does not shred
// stay in `value` as an object of their own. Throws parq::Error
// (kInvalidArgument) for a value the layout has no place for (it lacks the
// `value` column that would take it), kUnsupported for a layout the spec
// does not allow.
Array shred(const Array& group, const Schema& schema, const SchemaNode& target);

// A `typed_value` layout for the values of an unshredded VARIANT `group`:
// an object layout when most values are objects (shredding the fields at
// least a tenth of them have), an array layout when most are arrays, a typed
// column when most are of one primitive type (integers as INT64); nullopt
// when no kind is the majority. Nesting stops at 8 levels and 256 fields.
std::optional<Field> infer_shredding(const Array& group);

// `schema` with a typed_value layout inferred from `sample` for each
// top-level VARIANT field that has none (`sample` holding its values
// unshredded).
Schema with_inferred_shredding(const Schema& schema, const RecordBatch& sample);

}  // namespace parq::variant
