// Binding expressions to a schema, and evaluating leaf tests on values,
// rows and summaries; see bound_filter.h.
#include "bound_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>

#include "parq/error.h"
#include "parq/schema/logical_type.h"
#include "parq/schema/variant_path.h"
#include "util/level_count.h"

namespace parq::filter {
namespace {

CompareOp inverse(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual:
      return CompareOp::kNotEqual;
    case CompareOp::kNotEqual:
      return CompareOp::kEqual;
    case CompareOp::kLess:
      return CompareOp::kGreaterEqual;
    case CompareOp::kLessEqual:
      return CompareOp::kGreater;
    case CompareOp::kGreater:
      return CompareOp::kLessEqual;
    case CompareOp::kGreaterEqual:
      return CompareOp::kLess;
  }
  return op;
}

const ColumnDescriptor& leaf_column(const Schema& schema, const std::string& path) {
  const int index = schema.find_column(path);
  if (index < 0) {
    for (size_t i = 0; i < schema.num_columns(); ++i) {
      const std::string leaf = schema.column(i).dotted_path();
      if (leaf.size() > path.size() && leaf.compare(0, path.size(), path) == 0 && leaf[path.size()] == '.')
        throw Error("filter: " + path + " is a group; filters apply to its leaf columns (such as " + leaf + ")",
                    ErrorKind::kInvalidArgument);
    }
    throw Error("filter: no column '" + path + "' in the schema", ErrorKind::kInvalidArgument);
  }
  const ColumnDescriptor& column = schema.column(static_cast<size_t>(index));
  if (column.max_repetition_level > 0)
    throw Error("filter: column " + path +
                    " is inside a list or map (a row holds any number of its values); filters apply to columns outside "
                    "lists and maps",
                ErrorKind::kInvalidArgument);
  return column;
}

// The shredded columns of a VARIANT field a path names ("v.user.age"): its
// typed column (a primitive leaf) and its `value` column, either absent.
struct VariantFieldColumns {
  const ColumnDescriptor* typed = nullptr;
  const ColumnDescriptor* value = nullptr;
  // Fields below the deepest shredded one, looked up in `value`'s values
  // with the variant's `metadata` column.
  std::vector<std::string> rest;
  const ColumnDescriptor* metadata = nullptr;
};

std::optional<VariantFieldColumns> variant_field(const Schema& schema, const std::string& path) {
  std::optional<VariantFieldNodes> nodes;
  try {
    nodes = find_variant_field(schema, path, true);
  } catch (const Error& e) {
    throw Error("filter: " + e.detail(), ErrorKind::kInvalidArgument);
  }
  if (!nodes) return std::nullopt;
  auto fail = [&](const std::string& what) {
    throw Error("filter: " + path + ": " + what, ErrorKind::kInvalidArgument);
  };
  VariantFieldColumns out;
  out.rest = nodes->rest;
  if (!out.rest.empty()) {
    // Only the field's `value` column can hold what is not shredded.
    for (const SchemaNode* n : nodes->field->children())
      if (n->name() == "value" && n->is_leaf()) out.value = &schema.column(static_cast<size_t>(n->column_index()));
    for (const SchemaNode* n : nodes->variant->children())
      if (n->name() == "metadata" && n->is_leaf())
        out.metadata = &schema.column(static_cast<size_t>(n->column_index()));
    if (out.metadata == nullptr || out.metadata->type.physical != format::Type::BYTE_ARRAY)
      fail("the variant has no binary metadata column");
    if (out.value && out.value->type.physical != format::Type::BYTE_ARRAY) fail("its value column is not binary");
    for (const ColumnDescriptor* c : {out.value, out.metadata})
      if (c != nullptr && c->max_repetition_level > 0)
        fail("the variant is inside a list or map; filters apply outside them");
    return out;
  }
  for (const SchemaNode* n : nodes->field->children()) {
    if (n->name() != "typed_value" && n->name() != "value") continue;
    if (!n->is_leaf()) fail("the variant field is shredded as an object or array; filters compare primitive values");
    const ColumnDescriptor& c = schema.column(static_cast<size_t>(n->column_index()));
    if (c.max_repetition_level > 0) fail("the variant is inside a list or map; filters apply outside them");
    (n->name() == "value" ? out.value : out.typed) = &c;
  }
  if (out.value && out.value->type.physical != format::Type::BYTE_ARRAY) fail("its value column is not binary");
  return out;
}

// A comparison on variant values as a VariantPredicate takes it: its kind
// and operator with the negation applied, and its literals without NULLs.
struct VariantTerms {
  VariantPredicate::Kind kind = VariantPredicate::Kind::kCompare;
  CompareOp op = CompareOp::kEqual;
  std::vector<Literal> literals;
};

VariantTerms variant_terms(const Expression& e, bool negated) {
  using K = Expression::Kind;
  using VK = VariantPredicate::Kind;
  VariantTerms out;
  out.op = e.op();
  for (const Literal& l : e.literals())
    if (l.kind != Literal::Kind::kNull) out.literals.push_back(l);
  switch (e.kind()) {
    case K::kCompare:
      out.op = negated ? inverse(out.op) : out.op;
      break;
    case K::kIn:
      out.kind = negated ? VK::kNotIn : VK::kIn;
      break;
    case K::kIsNull:
      out.kind = negated ? VK::kIsNotNull : VK::kIsNull;
      break;
    case K::kStartsWith:
      out.kind = negated ? VK::kNotStartsWith : VK::kStartsWith;
      break;
    default:
      throw Error("filter: an expression of unknown kind", ErrorKind::kInvalidArgument);
  }
  return out;
}

}  // namespace

BoundFilter BoundFilter::bind(const Expression& expression, const Schema& schema) {
  BoundFilter f;
  f.root_ = f.bind_node(expression, false, schema);
  std::sort(f.columns_.begin(), f.columns_.end());
  f.columns_.erase(std::unique(f.columns_.begin(), f.columns_.end()), f.columns_.end());
  return f;
}

FilterNode BoundFilter::add_test(LeafTest test) {
  FilterNode node;
  node.kind = FilterNode::Kind::kTest;
  node.test = tests_.size();
  columns_.push_back(test.column);
  if (test.metadata_column >= 0) columns_.push_back(test.metadata_column);
  tests_.push_back(std::move(test));
  return node;
}

FilterNode BoundFilter::bind_node(const Expression& e, bool negated, const Schema& schema) {
  using K = Expression::Kind;
  FilterNode node;
  switch (e.kind()) {
    case K::kNot:
      return bind_node(*e.children()[0], !negated, schema);
    case K::kAnd:
    case K::kOr: {
      const bool is_and = (e.kind() == K::kAnd) != negated;
      node.kind = is_and ? FilterNode::Kind::kAnd : FilterNode::Kind::kOr;
      for (const auto& c : e.children()) node.children.push_back(bind_node(*c, negated, schema));
      if (node.children.empty()) node.kind = is_and ? FilterNode::Kind::kTrue : FilterNode::Kind::kFalse;
      return node;
    }
    default:
      break;
  }
  if (e.kind() == K::kBboxIntersects) {
    const ColumnDescriptor& column = leaf_column(schema, e.column());
    const format::LogicalType& logical = column.type.logical;
    if (column.type.physical != format::Type::BYTE_ARRAY ||
        !(logical.GEOMETRY || logical.GEOGRAPHY || !has_logical_type(logical)))
      throw Error("filter: column " + column.dotted_path() +
                      ": bbox_intersects applies to GEOMETRY, GEOGRAPHY and binary columns holding WKB",
                  ErrorKind::kInvalidArgument);
    LeafTest test;
    test.kind = negated ? LeafTest::Kind::kNotBboxIntersects : LeafTest::Kind::kBboxIntersects;
    test.column = column.column_index;
    test.order = ValueOrder::kUnordered;
    const auto& b = e.box();
    test.box = {b[0], b[1], b[2], b[3]};
    return add_test(std::move(test));
  }
  if (schema.find_column(e.column()) < 0 && variant_field(schema, e.column()))
    return bind_variant_path(e, negated, schema);
  const ColumnDescriptor& column = leaf_column(schema, e.column());
  LeafTest test;
  test.column = column.column_index;
  test.order = value_order(column);
  switch (e.kind()) {
    case K::kIsNull:
      test.kind = negated ? LeafTest::Kind::kIsNotNull : LeafTest::Kind::kIsNull;
      return add_test(std::move(test));
    case K::kCompare: {
      const Literal& literal = e.literals()[0];
      if (literal.kind == Literal::Kind::kNull) {
        node.kind = FilterNode::Kind::kUnknown;  // a comparison with NULL is never true, negated or not
        return node;
      }
      test.kind = LeafTest::Kind::kCompare;
      test.op = negated ? inverse(e.op()) : e.op();
      if (test.order == ValueOrder::kUnordered && test.op != CompareOp::kEqual && test.op != CompareOp::kNotEqual)
        throw Error("filter: column " + column.dotted_path() + " has no order; only = and != apply to it",
                    ErrorKind::kInvalidArgument);
      test.values.push_back(bind_literal(column, literal));
      return add_test(std::move(test));
    }
    case K::kIn: {
      test.kind = negated ? LeafTest::Kind::kNotIn : LeafTest::Kind::kIn;
      for (const Literal& literal : e.literals()) {
        if (literal.kind == Literal::Kind::kNull) {
          test.list_has_null = true;
        } else {
          test.values.push_back(bind_literal(column, literal));
        }
      }
      if (test.values.empty() || (negated && test.list_has_null)) {
        node.kind = FilterNode::Kind::kUnknown;
        return node;
      }
      return add_test(std::move(test));
    }
    case K::kStartsWith: {
      if (test.order != ValueOrder::kBytes || column.type.physical != format::Type::BYTE_ARRAY)
        throw Error("filter: column " + column.dotted_path() +
                        ": a prefix match applies to strings and binary (BYTE_ARRAY) columns",
                    ErrorKind::kInvalidArgument);
      test.kind = negated ? LeafTest::Kind::kNotStartsWith : LeafTest::Kind::kStartsWith;
      PhysicalValue prefix;
      prefix.bytes = e.literals()[0].text;
      test.values.push_back(std::move(prefix));
      return add_test(std::move(test));
    }
    default:
      break;
  }
  throw Error("filter: an expression of unknown kind", ErrorKind::kInvalidArgument);
}

FilterNode BoundFilter::bind_variant_path(const Expression& e, bool negated, const Schema& schema) {
  using K = Expression::Kind;
  const VariantFieldColumns field = *variant_field(schema, e.column());
  auto node_of = [](FilterNode::Kind kind, std::vector<FilterNode> children) {
    FilterNode n;
    n.kind = kind;
    n.children = std::move(children);
    return n;
  };
  auto null_test = [&](const ColumnDescriptor& c, bool is_null) {
    LeafTest t;
    t.kind = is_null ? LeafTest::Kind::kIsNull : LeafTest::Kind::kIsNotNull;
    t.column = c.column_index;
    t.order = value_order(c);
    return add_test(std::move(t));
  };
  const bool has_null = std::any_of(e.literals().begin(), e.literals().end(),
                                    [](const Literal& l) { return l.kind == Literal::Kind::kNull; });
  if ((e.kind() == K::kCompare && has_null) || (e.kind() == K::kIn && negated && has_null))
    return node_of(FilterNode::Kind::kUnknown, {});
  if (!field.rest.empty()) return bind_unshredded_path(e, negated, field.value, *field.metadata, field.rest);

  // The test on the typed column, as on any column; one whose literal cannot
  // be the column's type holds for none of its values, negated or not.
  std::optional<FilterNode> typed;
  if (field.typed) {
    const std::string t = field.typed->dotted_path();
    ExpressionPtr same;
    switch (e.kind()) {
      case K::kCompare:
        same = Expression::compare(t, e.op(), e.literals()[0]);
        break;
      case K::kIn:
        same = Expression::in(t, e.literals());
        break;
      case K::kIsNull:
        same = Expression::is_null(t);
        break;
      case K::kStartsWith:
        same = Expression::starts_with(t, e.literals()[0].text);
        break;
      default:
        throw Error("filter: an expression of unknown kind", ErrorKind::kInvalidArgument);
    }
    try {
      typed = bind_node(*same, negated, schema);
    } catch (const Error&) {
      typed = node_of(FilterNode::Kind::kFalse, {});
    }
  }
  // The test on the `value` column's variant-encoded values.
  std::optional<FilterNode> encoded;
  if (field.value) {
    const VariantTerms v = variant_terms(e, negated);
    if (e.kind() == K::kIn && v.literals.empty()) {
      encoded = node_of(FilterNode::Kind::kUnknown, {});
    } else {
      LeafTest t;
      t.kind = LeafTest::Kind::kVariant;
      t.column = field.value->column_index;
      t.order = ValueOrder::kBytes;
      t.variant = std::make_shared<const VariantPredicate>(v.kind, v.op, v.literals, e.column());
      encoded = add_test(std::move(t));
    }
  }
  using NK = FilterNode::Kind;
  if (e.kind() == K::kIsNull) {
    // Null: the field is missing (both columns null) or the variant null.
    std::optional<FilterNode> value_side;
    if (field.value)
      value_side = negated ? node_of(NK::kAnd, {null_test(*field.value, false), *encoded})
                           : node_of(NK::kOr, {null_test(*field.value, true), *encoded});
    if (!typed) return *value_side;
    if (!value_side) return *typed;
    return node_of(negated ? NK::kOr : NK::kAnd, {*typed, *value_side});
  }
  if (!typed) return *encoded;
  if (!encoded) return *typed;
  // The typed column holds the value where it is not null, else `value`
  // does; written so that it stays exact when negated.
  if (!negated)
    return node_of(NK::kOr, {node_of(NK::kAnd, {null_test(*field.typed, false), *typed}),
                             node_of(NK::kAnd, {null_test(*field.typed, true), *encoded})});
  return node_of(NK::kAnd, {node_of(NK::kOr, {null_test(*field.typed, true), *typed}),
                            node_of(NK::kOr, {null_test(*field.typed, false), *encoded})});
}

// A path whose last fields are not shredded: one test on the deepest
// shredded field's `value` column that follows them inside each value
// (VariantPredicate::holds_at), reading the variant's metadata beside it.
FilterNode BoundFilter::bind_unshredded_path(const Expression& e, bool negated, const ColumnDescriptor* value,
                                             const ColumnDescriptor& metadata, const std::vector<std::string>& rest) {
  using VK = VariantPredicate::Kind;
  const VariantTerms v = variant_terms(e, negated);
  const VK kind = v.kind;
  FilterNode constant;
  if (e.kind() == Expression::Kind::kIn && v.literals.empty()) {
    constant.kind = FilterNode::Kind::kUnknown;
    return constant;
  }
  auto predicate = std::make_shared<VariantPredicate>(kind, v.op, v.literals, e.column());
  if (value == nullptr) {
    // Nothing unshredded is stored: the field is missing from every row.
    constant.kind = kind == VK::kIsNull      ? FilterNode::Kind::kTrue
                    : kind == VK::kIsNotNull ? FilterNode::Kind::kFalse
                                             : FilterNode::Kind::kUnknown;
    return constant;
  }
  predicate->set_path(rest);
  LeafTest t;
  t.kind = LeafTest::Kind::kVariant;
  t.column = value->column_index;
  t.metadata_column = metadata.column_index;
  t.order = ValueOrder::kBytes;
  t.variant = std::move(predicate);
  return add_test(std::move(t));
}

std::string LeafTest::to_string(const Schema& schema) const {
  const std::string name = schema.column(static_cast<size_t>(column)).dotted_path();
  const std::string list = values.size() == 1 ? "1 value" : std::to_string(values.size()) + " values";
  switch (kind) {
    case Kind::kCompare:
      return name + " " + filter::to_string(op) + " <value>";
    case Kind::kIn:
      return name + " IN (" + list + ")";
    case Kind::kNotIn:
      return name + " NOT IN (" + list + ")";
    case Kind::kIsNull:
      return name + " IS NULL";
    case Kind::kIsNotNull:
      return name + " IS NOT NULL";
    case Kind::kStartsWith:
      return name + " starts with <prefix>";
    case Kind::kNotStartsWith:
      return name + " does not start with <prefix>";
    case Kind::kVariant:
      return name + ": " + variant->to_string();
    case Kind::kBboxIntersects:
      return name + " bbox intersects <box>";
    case Kind::kNotBboxIntersects:
      return name + " bbox misses <box>";
  }
  return name;
}

std::string BoundFilter::to_string(const Schema& schema) const {
  struct Printer {
    const BoundFilter& f;
    const Schema& schema;
    std::string print(const FilterNode& n) const {
      switch (n.kind) {
        case FilterNode::Kind::kTrue:
          return "TRUE";
        case FilterNode::Kind::kFalse:
          return "FALSE";
        case FilterNode::Kind::kUnknown:
          return "NULL";
        case FilterNode::Kind::kTest:
          return f.tests_[n.test].to_string(schema);
        default: {
          std::string out = "(";
          for (size_t i = 0; i < n.children.size(); ++i)
            out += (i ? (n.kind == FilterNode::Kind::kAnd ? " AND " : " OR ") : "") + print(n.children[i]);
          return out + ")";
        }
      }
    }
  };
  return Printer{*this, schema}.print(root_);
}

// ---------------------------------------------------------------------------
// Values of a leaf, by their dense form.

namespace {

using Int128 = __int128;

// The dense value j compared with `lit`: byte strings as they lie, other
// values through their PLAIN bytes (what a dense value is) into a scratch
// value that keeps its capacity from one value to the next.
struct ValueAt {
  ValueOrder order;
  const DenseValues& v;
  mutable PhysicalValue scratch;

  std::string_view bytes(size_t j) const {
    if (v.offsets != nullptr)
      return {reinterpret_cast<const char*>(v.data) + v.offsets[j],
              static_cast<size_t>(v.offsets[j + 1] - v.offsets[j])};
    return {reinterpret_cast<const char*>(v.fixed) + j * static_cast<size_t>(v.width), static_cast<size_t>(v.width)};
  }

  int compare(size_t j, const PhysicalValue& lit) const {
    if (order == ValueOrder::kBytes || order == ValueOrder::kUnordered) {
      const int c = bytes(j).compare(lit.bytes);
      return (c > 0) - (c < 0);
    }
    if (!from_plain_bytes(*v.column, bytes(j), scratch)) return -1;  // decoders produce whole values
    return compare_values(order, scratch, lit);
  }
};

// Comparisons of fixed-width values with one literal, in loops the compiler
// can vectorize: the operator is chosen outside them.
template <class T>
void compare_loop(const uint8_t* raw, size_t n, CompareOp op, T lit, uint8_t* out) {
  const T* v = reinterpret_cast<const T*>(raw);
  switch (op) {
    case CompareOp::kEqual:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] == lit;
      break;
    case CompareOp::kNotEqual:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] != lit;
      break;
    case CompareOp::kLess:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] < lit;
      break;
    case CompareOp::kLessEqual:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] <= lit;
      break;
    case CompareOp::kGreater:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] > lit;
      break;
    case CompareOp::kGreaterEqual:
      for (size_t j = 0; j < n; ++j) out[j] = v[j] >= lit;
      break;
  }
}

bool starts_with(std::string_view v, std::string_view prefix) {
  return v.size() >= prefix.size() && std::memcmp(v.data(), prefix.data(), prefix.size()) == 0;
}

// Whether each of n dense values makes the (non-null) test true.
void match_dense(const LeafTest& t, const DenseValues& values, size_t n, uint8_t* out) {
  const ValueAt at{t.order, values};
  if (t.kind == LeafTest::Kind::kCompare) {
    const PhysicalValue& lit = t.values[0];
    const bool reals = t.order == ValueOrder::kFloat || t.order == ValueOrder::kDouble;
    // Loops where the storage compares natively: integers always, floats
    // when the literal is not NaN (NaN values are fixed up after).
    switch (t.order) {
      case ValueOrder::kInt32:
        return compare_loop<int32_t>(values.fixed, n, t.op, static_cast<int32_t>(lit.integer), out);
      case ValueOrder::kUInt32:
        return compare_loop<uint32_t>(values.fixed, n, t.op, static_cast<uint32_t>(lit.integer), out);
      case ValueOrder::kInt64:
        return compare_loop<int64_t>(values.fixed, n, t.op, lit.integer, out);
      case ValueOrder::kUInt64:
        return compare_loop<uint64_t>(values.fixed, n, t.op, static_cast<uint64_t>(lit.integer), out);
      default:
        break;
    }
    if (reals && !std::isnan(lit.real)) {
      // IEEE comparisons are right for every pair without a NaN; a NaN
      // value is above every number: only != , > and >= hold for it.
      const bool nan_result =
          t.op == CompareOp::kNotEqual || t.op == CompareOp::kGreater || t.op == CompareOp::kGreaterEqual;
      if (t.order == ValueOrder::kFloat) {
        compare_loop<float>(values.fixed, n, t.op, static_cast<float>(lit.real), out);
        const float* v = reinterpret_cast<const float*>(values.fixed);
        for (size_t j = 0; j < n; ++j)
          if (v[j] != v[j]) out[j] = nan_result;
      } else {
        compare_loop<double>(values.fixed, n, t.op, lit.real, out);
        const double* v = reinterpret_cast<const double*>(values.fixed);
        for (size_t j = 0; j < n; ++j)
          if (v[j] != v[j]) out[j] = nan_result;
      }
      return;
    }
    for (size_t j = 0; j < n; ++j) out[j] = compare_holds(t.op, at.compare(j, lit));
    return;
  }
  switch (t.kind) {
    case LeafTest::Kind::kIn:
    case LeafTest::Kind::kNotIn: {
      const bool in = t.kind == LeafTest::Kind::kIn;
      for (size_t j = 0; j < n; ++j) {
        bool found = false;
        for (const auto& lit : t.values)
          if (at.compare(j, lit) == 0) {
            found = true;
            break;
          }
        out[j] = found == in;
      }
      return;
    }
    case LeafTest::Kind::kStartsWith:
    case LeafTest::Kind::kNotStartsWith: {
      const bool want = t.kind == LeafTest::Kind::kStartsWith;
      for (size_t j = 0; j < n; ++j) out[j] = starts_with(at.bytes(j), t.values[0].bytes) == want;
      return;
    }
    case LeafTest::Kind::kBboxIntersects:
    case LeafTest::Kind::kNotBboxIntersects: {
      const bool want = t.kind == LeafTest::Kind::kBboxIntersects;
      for (size_t j = 0; j < n; ++j) {
        const std::string_view b = at.bytes(j);
        geo::WkbSummary s;
        try {
          s = geo::read_wkb({reinterpret_cast<const uint8_t*>(b.data()), b.size()});
        } catch (const Error& e) {
          throw Error("filter: bbox_intersects on column " + values.column->dotted_path() + ": " + e.detail(),
                      ErrorKind::kCorrupt);
        }
        out[j] = geo::intersects(s.bounds, t.box) == want;
      }
      return;
    }
    case LeafTest::Kind::kVariant:
      for (size_t j = 0; j < n; ++j) {
        const std::string_view b = at.bytes(j);
        out[j] = t.variant->holds({reinterpret_cast<const uint8_t*>(b.data()), b.size()});
      }
      return;
    default:
      std::fill_n(out, n, uint8_t{1});
      return;
  }
}

}  // namespace

DenseValues dense_values(const ColumnDescriptor& column, const uint8_t* fixed, const int32_t* offsets,
                         const uint8_t* data) {
  DenseValues v;
  v.column = &column;
  if (column.type.physical == format::Type::BYTE_ARRAY) {
    v.offsets = offsets;
    v.data = data;
    return v;
  }
  v.width = plain_width(column.type.physical, column.type.type_length);
  v.fixed = fixed;
  return v;
}

void evaluate_test(const LeafTest& test, const DenseValues& values, const int16_t* def, int16_t max_def, int64_t rows,
                   uint8_t* out) {
  const size_t n = static_cast<size_t>(rows);
  if (test.kind == LeafTest::Kind::kIsNull || test.kind == LeafTest::Kind::kIsNotNull) {
    const uint8_t when_null = test.kind == LeafTest::Kind::kIsNull ? kRowTrue : kRowFalse;
    const uint8_t when_value = test.kind == LeafTest::Kind::kIsNull ? kRowFalse : kRowTrue;
    for (size_t i = 0; i < n; ++i) out[i] = def == nullptr || def[i] == max_def ? when_value : when_null;
    return;
  }
  if (def == nullptr) {
    match_dense(test, values, n, out);
    for (size_t i = 0; i < n; ++i) out[i] = out[i] ? kRowTrue : kRowFalse;
    return;
  }
  const auto defined = static_cast<size_t>(count_levels_equal(def, static_cast<int64_t>(n), max_def));
  std::vector<uint8_t> dense(defined);
  match_dense(test, values, defined, dense.data());
  size_t j = 0;
  for (size_t i = 0; i < n; ++i) {
    if (def[i] == max_def) {
      out[i] = dense[j++] ? kRowTrue : kRowFalse;
    } else {
      out[i] = kRowUnknown;
    }
  }
}

void evaluate_path_test(const LeafTest& test, const DenseValues& values, const int16_t* def, int16_t max_def,
                        const DenseValues& metadata, const int16_t* metadata_def, int16_t metadata_max_def,
                        int64_t rows, uint8_t* out) {
  auto bytes = [](const DenseValues& v, size_t j) {
    return std::span<const uint8_t>(v.data + v.offsets[j], static_cast<size_t>(v.offsets[j + 1] - v.offsets[j]));
  };
  size_t jm = 0, jv = 0;
  for (size_t i = 0; i < static_cast<size_t>(rows); ++i) {
    const bool has_metadata = metadata_def == nullptr || metadata_def[i] == metadata_max_def;
    const bool has_value = def == nullptr || def[i] == max_def;
    std::span<const uint8_t> m, v;
    if (has_metadata) m = bytes(metadata, jm++);
    if (has_value) v = bytes(values, jv++);
    // A null variant, like a row without a value, has nothing at the path.
    const bool holds = test.variant->holds_at(m, has_metadata && has_value ? &v : nullptr);
    out[i] = holds ? kRowTrue : kRowFalse;
  }
}

void evaluate_tree(const FilterNode& node, const std::vector<std::vector<uint8_t>>& truths, int64_t rows,
                   uint8_t* out) {
  const size_t n = static_cast<size_t>(rows);
  switch (node.kind) {
    case FilterNode::Kind::kTrue:
      std::fill_n(out, n, kRowTrue);
      return;
    case FilterNode::Kind::kFalse:
      std::fill_n(out, n, kRowFalse);
      return;
    case FilterNode::Kind::kUnknown:
      std::fill_n(out, n, kRowUnknown);
      return;
    case FilterNode::Kind::kTest:
      std::copy_n(truths[node.test].data(), n, out);
      return;
    case FilterNode::Kind::kAnd:
    case FilterNode::Kind::kOr: {
      const bool is_and = node.kind == FilterNode::Kind::kAnd;
      std::fill_n(out, n, is_and ? kRowTrue : kRowFalse);
      std::vector<uint8_t> child(n);
      for (const auto& c : node.children) {
        const uint8_t* part;
        if (c.kind == FilterNode::Kind::kTest) {
          part = truths[c.test].data();
        } else {
          evaluate_tree(c, truths, rows, child.data());
          part = child.data();
        }
        if (is_and) {
          for (size_t i = 0; i < n; ++i) out[i] = std::min(out[i], part[i]);
        } else {
          for (size_t i = 0; i < n; ++i) out[i] = std::max(out[i], part[i]);
        }
      }
      return;
    }
  }
}

bool value_matches(const LeafTest& t, const PhysicalValue& value) {
  switch (t.kind) {
    case LeafTest::Kind::kIsNull:
      return false;
    case LeafTest::Kind::kIsNotNull:
      return true;
    case LeafTest::Kind::kCompare:
      return compare_holds(t.op, compare_values(t.order, value, t.values[0]));
    case LeafTest::Kind::kIn:
    case LeafTest::Kind::kNotIn: {
      bool found = false;
      for (const auto& lit : t.values) found = found || compare_values(t.order, value, lit) == 0;
      return found == (t.kind == LeafTest::Kind::kIn);
    }
    case LeafTest::Kind::kStartsWith:
      return starts_with(value.bytes, t.values[0].bytes);
    case LeafTest::Kind::kNotStartsWith:
      return !starts_with(value.bytes, t.values[0].bytes);
    case LeafTest::Kind::kVariant:
      if (t.metadata_column >= 0) return true;  // needs the row's metadata too
      return t.variant->holds({reinterpret_cast<const uint8_t*>(value.bytes.data()), value.bytes.size()});
    case LeafTest::Kind::kBboxIntersects:
    case LeafTest::Kind::kNotBboxIntersects:
      try {
        const geo::WkbSummary s =
            geo::read_wkb({reinterpret_cast<const uint8_t*>(value.bytes.data()), value.bytes.size()});
        return geo::intersects(s.bounds, t.box) == (t.kind == LeafTest::Kind::kBboxIntersects);
      } catch (const Error&) {
        return true;
      }
  }
  return true;
}

bool may_be_true(const LeafTest& t, const ValueSummary& s) {
  // A path test's value column holds whole values: neither its bounds nor
  // its nulls say what lies at the path (a null value is a missing field,
  // which IS NULL is true for).
  if (t.metadata_column >= 0) return true;
  if (t.kind == LeafTest::Kind::kIsNull) return s.may_have_null;
  if (t.kind == LeafTest::Kind::kIsNotNull) return s.may_have_non_null;
  if (!s.may_have_non_null) return false;  // every value null: nothing else is true
  if (t.kind == LeafTest::Kind::kBboxIntersects)
    return s.bbox == nullptr || geo::statistics_may_intersect(*s.bbox, t.box);
  if (t.kind == LeafTest::Kind::kNotBboxIntersects) return true;
  if (s.min == nullptr || s.max == nullptr || t.order == ValueOrder::kUnordered) return true;
  const bool nan = is_floating(t.order) && s.may_have_nan;
  auto cmp = [&](const PhysicalValue& a, const PhysicalValue& b) { return compare_values(t.order, a, b); };
  const PhysicalValue& lo = *s.min;
  const PhysicalValue& hi = *s.max;
  // Could a value equal `v`? NaN literals equal only NaN values.
  auto may_equal = [&](const PhysicalValue& v) {
    if (is_floating(t.order) && std::isnan(v.real)) return nan;
    return cmp(lo, v) <= 0 && cmp(v, hi) <= 0;
  };
  switch (t.kind) {
    case LeafTest::Kind::kCompare: {
      const PhysicalValue& v = t.values[0];
      const bool v_nan = is_floating(t.order) && std::isnan(v.real);
      switch (t.op) {
        case CompareOp::kEqual:
          return may_equal(v);
        case CompareOp::kNotEqual:
          if (v_nan) return true;  // any number differs from NaN
          return nan || !(cmp(lo, v) == 0 && cmp(hi, v) == 0);
        case CompareOp::kLess:
          return v_nan || cmp(lo, v) < 0;
        case CompareOp::kLessEqual:
          return v_nan || cmp(lo, v) <= 0;
        case CompareOp::kGreater:
          return !v_nan && (nan || cmp(hi, v) > 0);
        case CompareOp::kGreaterEqual:
          return v_nan ? nan : (nan || cmp(hi, v) >= 0);
      }
      return true;
    }
    case LeafTest::Kind::kIn:
      for (const auto& v : t.values)
        if (may_equal(v)) return true;
      return false;
    case LeafTest::Kind::kNotIn: {
      if (nan || cmp(lo, hi) != 0) return true;
      for (const auto& v : t.values)
        if (cmp(lo, v) == 0) return false;
      return true;
    }
    case LeafTest::Kind::kStartsWith: {
      const std::string& p = t.values[0].bytes;
      if (hi.bytes.compare(p) < 0) return false;  // every value sorts below the prefix
      // The first byte string above every string with the prefix.
      std::string upper = p;
      while (!upper.empty() && static_cast<uint8_t>(upper.back()) == 0xff) upper.pop_back();
      if (upper.empty()) return true;
      upper.back() = static_cast<char>(static_cast<uint8_t>(upper.back()) + 1);
      return lo.bytes.compare(upper) < 0;
    }
    case LeafTest::Kind::kNotStartsWith:
      return !(starts_with(lo.bytes, t.values[0].bytes) && starts_with(hi.bytes, t.values[0].bytes));
    default:
      return true;
  }
}

}  // namespace parq::filter
