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

#include "parq/array/array.h"

namespace parq::variant {

// A struct annotated VARIANT.
bool is_variant(const Array& array);

// `group` (a VARIANT struct with its `metadata`) with each slot's value
// rebuilt into `value`; null slots stay null, and a slot whose value is
// missing altogether holds the variant null, as the spec asks. Throws
// parq::Error: kCorrupt for invalid shredding or variant bytes,
// kUnsupported for a shredded type the spec does not allow,
// kInvalidArgument when `metadata` was not read, kLimit when one batch's
// values pass 2 GiB.
Array unshred(const Array& group);

// Every VARIANT struct in the batch, at any depth, replaced by unshred()'s.
void unshred_variants(RecordBatch& batch);

}  // namespace parq::variant
