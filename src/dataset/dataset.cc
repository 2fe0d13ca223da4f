// Opening a dataset: its files found, their footers read (or taken from a
// summary file), partition folders typed, schemas made one.
#include "parq/dataset/dataset.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "../filter/bound_filter.h"
#include "../util/hex.h"
#include "dataset_parts.h"
#include "discovery.h"
#include "parq/error.h"
#include "parq/file/footer.h"
#include "parq/schema/logical_type.h"
#include "parq/util/thread_pool.h"

namespace parq {
namespace dataset {

io::RandomAccessInput& LazyInput::inner() const {
  std::call_once(once_, [&] {
    inner_ = opener_(location_);
    opened_.store(true, std::memory_order_release);
  });
  return *inner_;
}

std::span<const uint8_t> LazyInput::view(uint64_t offset, size_t n) const {
  std::span<const uint8_t> v = inner().view(offset, n);
  if (v.data() != nullptr) count_view(n);
  return v;
}

std::vector<io::ByteRange> LazyInput::read_ranges(std::span<const io::FileRange> ranges) {
  std::vector<io::ByteRange> out = inner().read_ranges(ranges);
  uint64_t n = 0;
  for (const io::FileRange& r : ranges) n += r.length;
  count_view(n);
  return out;
}

void LazyInput::do_read_at(uint64_t offset, size_t n, uint8_t* out) { inner().read_at(offset, n, out); }

namespace {

std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() + 0 && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::optional<std::string>>> hive_folders(std::string_view relative) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  size_t start = 0;
  while (true) {
    const size_t slash = relative.find('/', start);
    if (slash == std::string_view::npos) break;  // the rest is the file's name
    std::string_view part = relative.substr(start, slash - start);
    start = slash + 1;
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    std::string value = unescape(part.substr(eq + 1));
    std::optional<std::string> v;
    if (!value.empty() && value != "__HIVE_DEFAULT_PARTITION__") v = std::move(value);
    out.emplace_back(unescape(part.substr(0, eq)), std::move(v));
  }
  return out;
}

bool partition_atom_true(const filter::Expression& atom, bool negated, const Schema& partitions,
                         const std::vector<std::optional<filter::PhysicalValue>>& values) {
  // Bound with NOT pushed into the test (a non-owning pointer to `atom`
  // for negate()), so that the tree's unknown and a null's tests are false.
  const filter::ExpressionPtr self(std::shared_ptr<void>(), &atom);
  const filter::BoundFilter f =
      filter::BoundFilter::bind(negated ? *filter::Expression::negate(self) : atom, partitions);
  const auto& value = values.at(static_cast<size_t>(partitions.find_column(atom.column())));
  return filter::may_match(f.root(), [&](size_t t) {
    const filter::LeafTest& test = f.tests()[t];
    return value ? filter::value_matches(test, *value) : test.kind == filter::LeafTest::Kind::kIsNull;
  });
}

namespace {

// partitions_may_match under `negated` NOTs.
bool may_match(const filter::Expression& e, bool negated, const Schema& partitions,
               const std::vector<std::optional<filter::PhysicalValue>>& values) {
  using K = filter::Expression::Kind;
  switch (e.kind()) {
    case K::kNot:
      return may_match(*e.children()[0], !negated, partitions, values);
    case K::kAnd:
    case K::kOr: {
      const bool conjunction = (e.kind() == K::kAnd) != negated;
      for (const auto& c : e.children())
        if (may_match(*c, negated, partitions, values) != conjunction) return !conjunction;
      return conjunction;
    }
    default:
      if (partitions.find_column(e.column()) < 0) return true;  // a file's column: anything
      return partition_atom_true(e, negated, partitions, values);
  }
}

}  // namespace

bool partitions_may_match(const filter::Expression& e, const Schema& partitions,
                          const std::vector<std::optional<filter::PhysicalValue>>& values) {
  return may_match(e, false, partitions, values);
}

Array constant_array(const std::string& name, const ValueType& type, const std::optional<filter::PhysicalValue>& value,
                     int64_t rows) {
  Array a;
  a.kind = ArrayKind::kLeaf;
  a.name = name;
  a.type = type;
  a.length = rows;
  const auto n = static_cast<size_t>(rows);
  if (!value) {
    a.null_count = rows;
    a.validity.resize((n + 7) / 8);
    if (!a.validity.empty()) std::memset(a.validity.data(), 0, a.validity.size());
  }
  switch (type.physical) {
    case format::Type::BOOLEAN: {
      a.values.resize((n + 7) / 8);
      if (!a.values.empty()) std::memset(a.values.data(), value && value->integer ? 0xff : 0, a.values.size());
      break;
    }
    case format::Type::INT32: {
      a.values.resize(n * 4);
      const auto v = static_cast<int32_t>(value ? value->integer : 0);
      std::fill_n(a.values.data_as<int32_t>(), n, v);
      break;
    }
    case format::Type::INT64: {
      a.values.resize(n * 8);
      std::fill_n(a.values.data_as<int64_t>(), n, value ? value->integer : 0);
      break;
    }
    case format::Type::FLOAT: {
      a.values.resize(n * 4);
      std::fill_n(a.values.data_as<float>(), n, static_cast<float>(value ? value->real : 0));
      break;
    }
    case format::Type::DOUBLE: {
      a.values.resize(n * 8);
      std::fill_n(a.values.data_as<double>(), n, value ? value->real : 0);
      break;
    }
    case format::Type::INT96:
    case format::Type::FIXED_LEN_BYTE_ARRAY: {
      const size_t w = type.physical == format::Type::INT96 ? 12 : static_cast<size_t>(type.type_length);
      a.values.resize(n * w);
      for (size_t i = 0; i < n; ++i) {
        uint8_t* dst = a.values.data() + i * w;
        if (value && value->bytes.size() == w)
          std::memcpy(dst, value->bytes.data(), w);
        else
          std::memset(dst, 0, w);
      }
      break;
    }
    case format::Type::BYTE_ARRAY: {
      const std::string empty;
      const std::string& bytes = value ? value->bytes : empty;
      if (static_cast<uint64_t>(bytes.size()) * n > INT32_MAX)
        throw Error("a partition value repeated over a batch passes 2 GiB", ErrorKind::kLimit);
      a.offsets.resize((n + 1) * 4);
      int32_t* off = a.offsets.data_as<int32_t>();
      a.values.resize(bytes.size() * n);
      for (size_t i = 0; i <= n; ++i) off[i] = static_cast<int32_t>(i * bytes.size());
      for (size_t i = 0; i < n && !bytes.empty(); ++i)
        std::memcpy(a.values.data() + i * bytes.size(), bytes.data(), bytes.size());
      break;
    }
  }
  return a;
}

Array null_array(const Array& prototype, int64_t rows) {
  Array a;
  a.kind = prototype.kind;
  a.name = prototype.name;
  a.type = prototype.type;
  a.length = rows;
  a.null_count = rows;
  const auto n = static_cast<size_t>(rows);
  a.validity.resize((n + 7) / 8);
  if (!a.validity.empty()) std::memset(a.validity.data(), 0, a.validity.size());
  switch (prototype.kind) {
    case ArrayKind::kLeaf: {
      Array c = constant_array(prototype.name, prototype.type, std::nullopt, rows);
      a.values = std::move(c.values);
      a.offsets = std::move(c.offsets);
      break;
    }
    case ArrayKind::kStruct:
      for (const Array& child : prototype.children) a.children.push_back(null_array(child, rows));
      break;
    case ArrayKind::kList:
    case ArrayKind::kMap:
      a.offsets.resize((n + 1) * 4);
      std::memset(a.offsets.data(), 0, a.offsets.size());
      a.children = prototype.children;  // zero elements
      for (Array& child : a.children) child.length = 0;
      break;
  }
  return a;
}

namespace {

std::string describe(const SchemaNode& node) {
  if (node.is_group()) {
    std::string l = logical_type_to_string(node.logical_type());
    return "a group" + (l.empty() ? std::string() : " (" + l + ")");
  }
  std::string out = format::to_string(*node.physical_type());
  if (node.type_length() > 0 && *node.physical_type() == format::Type::FIXED_LEN_BYTE_ARRAY)
    out += "(" + std::to_string(node.type_length()) + ")";
  std::string l = logical_type_to_string(node.logical_type());
  if (!l.empty()) out += " (" + l + ")";
  return out;
}

// Whether two subtrees are one type (names, nesting, repetition below the
// top, physical and logical types of the leaves).
bool same_tree(const SchemaNode& a, const SchemaNode& b, bool top) {
  if (!top && (a.name() != b.name() || a.repetition() != b.repetition())) return false;
  if (a.is_leaf() != b.is_leaf()) return false;
  if (a.is_leaf())
    return a.physical_type() == b.physical_type() && a.type_length() == b.type_length() &&
           a.logical_type() == b.logical_type();
  if (a.num_children() != b.num_children()) return false;
  if (static_cast<bool>(a.logical_type().LIST) != static_cast<bool>(b.logical_type().LIST) ||
      static_cast<bool>(a.logical_type().MAP) != static_cast<bool>(b.logical_type().MAP))
    return false;
  for (size_t i = 0; i < a.num_children(); ++i)
    if (!same_tree(a.child(i), b.child(i), false)) return false;
  return true;
}

// kWholeVariant: one VARIANT column shredded differently by the files; it
// becomes one column of whole values.
enum class Widening { kNone, kToInt64, kToDouble, kWholeVariant };

bool is_variant_group(const SchemaNode& n) { return n.is_group() && n.logical_type().VARIANT.has_value(); }

// A VARIANT field's elements in the whole form every file's values can be
// rebuilt into: the group, its metadata and its value.
std::vector<format::SchemaElement> whole_variant_elements(const format::SchemaElement& group) {
  std::vector<format::SchemaElement> out(3);
  out[0] = group;
  out[0].num_children = 2;
  for (size_t i = 1; i < 3; ++i) {
    out[i].name = i == 1 ? "metadata" : "value";
    out[i].type = format::Type::BYTE_ARRAY;
    out[i].repetition_type = format::FieldRepetitionType::REQUIRED;
  }
  return out;
}

bool plain_integer(const SchemaNode& n, int bits) {
  const auto& l = n.logical_type();
  if (l.INTEGER) return l.INTEGER->is_signed && l.INTEGER->bit_width <= bits;
  return l == format::LogicalType{} && !n.converted_type();
}

// How two top-level leaves of one name may be one column.
Widening widening(const SchemaNode& a, const SchemaNode& b) {
  if (!a.is_leaf() || !b.is_leaf()) return Widening::kNone;
  auto is = [](const SchemaNode& n, format::Type t) { return n.physical_type() == t; };
  if ((is(a, format::Type::INT32) || is(a, format::Type::INT64)) &&
      (is(b, format::Type::INT32) || is(b, format::Type::INT64)) && plain_integer(a, 64) && plain_integer(b, 64))
    return Widening::kToInt64;
  if ((is(a, format::Type::FLOAT) || is(a, format::Type::DOUBLE)) &&
      (is(b, format::Type::FLOAT) || is(b, format::Type::DOUBLE)) && a.logical_type() == format::LogicalType{} &&
      b.logical_type() == format::LogicalType{})
    return Widening::kToDouble;
  return Widening::kNone;
}

struct UnifiedField {
  std::string name;
  std::optional<int32_t> field_id;
  std::vector<format::SchemaElement> elements;  // the subtree, as first seen
  size_t first_file = 0;
  size_t first_field = 0;
  bool optional = false;
  Widening widen = Widening::kNone;  // of the first file's type, where files differ
};

// A file on its way into the dataset.
struct Candidate {
  FoundFile found;
  std::vector<std::optional<std::string>> values;           // its partition folders' texts
  std::vector<std::optional<filter::PhysicalValue>> typed;  // and values
  file::Footer footer;
  Schema schema;
};

// A folder's value as its column's: byte arrays (strings, JSON, plain
// binary) are the folder's text itself, as the dataset writer names them;
// the rest parse as `parq cat` prints them.
filter::PhysicalValue partition_value(const ColumnDescriptor& column, const std::string& text) {
  if (column.type.physical == format::Type::BYTE_ARRAY && !column.type.logical.DECIMAL) {
    filter::PhysicalValue v;
    v.bytes = text;
    return v;
  }
  return filter::physical_value_from_text(column, text);
}

ValueType inferred_type(const std::vector<std::optional<std::string>>& values) {
  auto all = [&](auto pred) {
    bool any = false;
    for (const auto& v : values)
      if (v) {
        if (!pred(*v)) return false;
        any = true;
      }
    return any;
  };
  auto is_integer = [](const std::string& s) {
    size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size() || s.size() - i > 18) return false;  // within int64 without a range check
    return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(i), s.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  auto is_date = [](const std::string& s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
      if (s[i] < '0' || s[i] > '9') return false;
    const int month = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
  };
  ValueType t;
  if (all(is_integer)) {
    t.physical = format::Type::INT64;
    t.logical.INTEGER = format::IntType{64, true};
  } else if (all(is_date)) {
    t.physical = format::Type::INT32;
    t.logical.DATE = format::DateType{};
  } else {
    t.physical = format::Type::BYTE_ARRAY;
    t.logical.STRING = format::StringType{};
  }
  return t;
}

format::SchemaElement leaf_element(const std::string& name, const ValueType& type) {
  format::SchemaElement e;
  e.name = name;
  e.type = type.physical;
  if (type.physical == format::Type::FIXED_LEN_BYTE_ARRAY) e.type_length = type.type_length;
  e.repetition_type = format::FieldRepetitionType::OPTIONAL;
  if (type.logical != format::LogicalType{}) e.logical_type = type.logical;
  if (type.logical.DECIMAL) {
    e.precision = type.logical.DECIMAL->precision;
    e.scale = type.logical.DECIMAL->scale;
  }
  e.converted_type = type.converted;
  return e;
}

InputOpener opener_of(const DatasetOptions& options) { return input_opener(options.reader); }

}  // namespace
}  // namespace dataset

struct DatasetBuilder {
  static std::shared_ptr<const Dataset> build(const std::vector<std::string>& locations, const DatasetOptions& options);
};

std::shared_ptr<const Dataset> DatasetBuilder::build(const std::vector<std::string>& locations,
                                                     const DatasetOptions& options) {
  using namespace dataset;
  if (locations.empty()) throw Error("a dataset needs at least one location", ErrorKind::kInvalidArgument);
  if (options.threads < 1) throw Error("thread count must be at least 1", ErrorKind::kInvalidArgument);
  auto ds = std::shared_ptr<Dataset>(new Dataset());
  ds->options_ = options;
  const InputOpener opener = opener_of(options);

  std::vector<Candidate> found;
  const bool summary = std::any_of(locations.begin(), locations.end(), [](auto& l) { return is_summary_file(l); });
  if (summary) {
    if (locations.size() != 1)
      throw Error("a _metadata summary file plans a dataset alone: give it as the only location",
                  ErrorKind::kInvalidArgument);
    const std::string& where = locations[0];
    ds->summary_file_ = where;
    auto input = opener(where);
    file::Footer footer = file::read_footer(*input, options.reader.footer);
    const Schema schema = Schema::from_elements(footer.metadata.schema);
    // Row groups by the file their chunks name, files in order of first
    // appearance.
    std::map<std::string, size_t> file_of;
    for (size_t g = 0; g < footer.metadata.row_groups.size(); ++g) {
      const auto& rg = footer.metadata.row_groups[g];
      std::optional<std::string> path = rg.columns.empty() ? std::nullopt : rg.columns[0].file_path;
      for (const auto& c : rg.columns)
        if (c.file_path != path)
          throw Error(ErrorKind::kCorrupt, {.file = where, .row_group = static_cast<int64_t>(g)},
                      "the row group's column chunks name different files");
      const std::string location = path ? resolve_chunk_path(where, *path) : where;
      auto [it, added] = file_of.emplace(location, found.size());
      if (added) {
        Candidate& c = found.emplace_back();
        c.found = {location, 0, path ? *path : std::string()};
        c.footer.metadata = footer.metadata;
        c.footer.metadata.row_groups.clear();
        c.footer.metadata.num_rows = 0;
        c.schema = schema;
      }
      format::FileMetaData& md = found[it->second].footer.metadata;
      md.row_groups.push_back(rg);
      for (auto& c : md.row_groups.back().columns) c.file_path.reset();
      md.num_rows += rg.num_rows;
    }
  } else {
    std::set<std::string> seen;
    for (const std::string& location : locations)
      for (FoundFile& f : find_files(location, options.reader.remote))
        if (seen.insert(f.location).second) found.emplace_back().found = std::move(f);
  }

  // Partition folders: every file must have the same keys, in one order.
  if (options.hive_partitioning) {
    for (size_t i = 0; i < found.size(); ++i) {
      std::vector<std::string> keys;
      for (auto& [k, v] : hive_folders(found[i].found.relative)) {
        if (std::find(keys.begin(), keys.end(), k) != keys.end())
          throw Error(ErrorKind::kInvalidArgument, {.file = found[i].found.location},
                      "the partition key '" + k + "' appears twice in the path");
        keys.push_back(k);
        found[i].values.push_back(std::move(v));
      }
      if (i == 0) {
        ds->partition_columns_ = keys;
      } else if (keys != ds->partition_columns_) {
        throw Error(ErrorKind::kInvalidArgument, {.file = found[i].found.location},
                    "its partition folders differ from those of " + found[0].found.location);
      }
    }
  }

  // Partition columns' types (from every file's folders, read or not), and
  // each value parsed as its type.
  std::vector<format::SchemaElement> partition_elements(1);
  partition_elements[0].name = "schema";
  partition_elements[0].num_children = static_cast<int32_t>(ds->partition_columns_.size());
  for (size_t p = 0; p < ds->partition_columns_.size(); ++p) {
    const std::string& key = ds->partition_columns_[p];
    std::optional<ValueType> declared;
    for (const auto& [name, type] : options.partition_types)
      if (name == key) declared = type;
    std::vector<std::optional<std::string>> column;
    for (const Candidate& c : found) column.push_back(c.values[p]);
    partition_elements.push_back(leaf_element(key, declared ? *declared : inferred_type(column)));
  }
  ds->partition_schema_ = Schema::from_elements(partition_elements);
  const Schema& partitions = ds->partition_schema_;
  for (Candidate& c : found)
    for (size_t p = 0; p < ds->partition_columns_.size(); ++p) {
      if (!c.values[p]) {
        c.typed.emplace_back();
        continue;
      }
      try {
        c.typed.push_back(partition_value(partitions.column(p), *c.values[p]));
      } catch (const Error& e) {
        throw Error(ErrorKind::kInvalidArgument, {.file = c.found.location, .column = ds->partition_columns_[p]},
                    "the partition value '" + *c.values[p] + "' is not of the column's type: " + e.detail());
      }
    }

  // The filter known at opening leaves out the files its partition values
  // rule out, before their footers are read. With none left, the first file
  // still gives the columns their types (and the dataset has no file).
  std::vector<size_t> kept;
  for (size_t i = 0; i < found.size(); ++i)
    if (!options.filter || ds->partition_columns_.empty() ||
        partitions_may_match(*options.filter, partitions, found[i].typed))
      kept.push_back(i);
  ds->files_pruned_at_open_ = static_cast<int64_t>(found.size() - kept.size());
  const bool schema_only = kept.empty();
  std::vector<Candidate> files;
  for (size_t i : schema_only ? std::vector<size_t>{0} : kept) files.push_back(std::move(found[i]));
  if (!summary) {
    ThreadPool pool(static_cast<int>(std::min<size_t>(static_cast<size_t>(options.threads), files.size())));
    pool.parallel_for(files.size(), [&](size_t i) {
      Candidate& c = files[i];
      auto input = opener(c.found.location);
      c.found.size = input->size();
      c.footer = file::read_footer(*input, options.reader.footer);
      try {
        c.schema = Schema::from_elements(c.footer.metadata.schema);
      } catch (const Error& e) {
        throw e.with_context("invalid schema").within({.file = c.found.location});
      }
    });
  }

  // The files' columns made one.
  std::vector<UnifiedField> fields;
  std::vector<std::vector<std::optional<std::string>>> names(files.size());
  const bool by_id = options.schema_match == SchemaMatch::kByFieldId;
  for (size_t i = 0; i < files.size(); ++i) {
    const Schema& s = files[i].schema;
    const SchemaNode& root = s.root();
    std::vector<bool> present(fields.size(), false);
    for (size_t c = 0; c < root.num_children(); ++c) {
      const SchemaNode& node = root.child(c);
      if (std::find(ds->partition_columns_.begin(), ds->partition_columns_.end(), node.name()) !=
          ds->partition_columns_.end())
        continue;  // the folder's value stands for the column
      if (by_id && !node.field_id())
        throw Error(ErrorKind::kInvalidArgument, {.file = files[i].found.location, .column = node.name()},
                    "the column has no field id to match by");
      size_t u = 0;
      for (; u < fields.size(); ++u)
        if (by_id ? fields[u].field_id == node.field_id() : fields[u].name == node.name()) break;
      if (u == fields.size()) {
        UnifiedField f;
        f.name = node.name();
        f.field_id = node.field_id();
        f.elements = s.field_elements(c);
        f.first_file = i;
        f.first_field = c;
        f.optional = i > 0;  // earlier files lack it
        fields.push_back(std::move(f));
        present.push_back(true);
      } else {
        if (present[u])
          throw Error(ErrorKind::kInvalidArgument, {.file = files[i].found.location, .column = node.name()},
                      by_id ? "two columns have one field id" : "two top-level columns have one name");
        present[u] = true;
        const SchemaNode& first = files[fields[u].first_file].schema.root().child(fields[u].first_field);
        if (!same_tree(first, node, true)) {
          const bool variants = is_variant_group(first) && is_variant_group(node);
          const Widening w = variants ? Widening::kWholeVariant : widening(first, node);
          ds->whole_variants_ = ds->whole_variants_ || variants;
          if (w == Widening::kNone)
            throw Error(ErrorKind::kInvalidArgument, {.file = files[i].found.location, .column = fields[u].name},
                        "the column is " + describe(node) + " here but " + describe(first) + " in " +
                            files[fields[u].first_file].found.location + ": they cannot be one column");
          fields[u].widen = w;
        }
      }
      if (node.repetition() != format::FieldRepetitionType::REQUIRED) fields[u].optional = true;
      names[i].resize(fields.size());
      names[i][u] = node.name();
    }
    for (size_t u = 0; u < fields.size(); ++u)
      if (!present[u]) fields[u].optional = true;
  }
  for (auto& n : names) n.resize(fields.size());

  // The unified elements: the root, each field's subtree, the partitions.
  std::vector<format::SchemaElement> elements(1);
  elements[0].name = "schema";
  elements[0].num_children = static_cast<int32_t>(fields.size() + ds->partition_columns_.size());
  for (UnifiedField& f : fields) {
    if (ds->whole_variants_ && f.elements[0].logical_type && f.elements[0].logical_type->VARIANT &&
        f.elements[0].num_children)
      f.elements = whole_variant_elements(f.elements[0]);
    format::SchemaElement& top = f.elements[0];
    if (f.optional && top.repetition_type == format::FieldRepetitionType::REQUIRED)
      top.repetition_type = format::FieldRepetitionType::OPTIONAL;
    if (f.widen == Widening::kToInt64) {
      top.type = format::Type::INT64;
      if (top.logical_type && top.logical_type->INTEGER) top.logical_type->INTEGER = format::IntType{64, true};
      if (top.converted_type) top.converted_type = format::ConvertedType::INT_64;
    } else if (f.widen == Widening::kToDouble) {
      top.type = format::Type::DOUBLE;
    }
    elements.insert(elements.end(), f.elements.begin(), f.elements.end());
  }
  elements.insert(elements.end(), partition_elements.begin() + 1, partition_elements.end());
  ds->schema_ = Schema::from_elements(elements);

  if (schema_only) return ds;
  for (size_t i = 0; i < files.size(); ++i) {
    Candidate& c = files[i];
    ds->files_.push_back({std::move(c.found.location), c.found.size, std::move(c.values)});
    ds->footers_.push_back(std::move(c.footer));
    ds->partition_physical_values_.push_back(std::move(c.typed));
    ds->file_field_names_.push_back(std::move(names[i]));
  }
  return ds;
}

std::shared_ptr<const Dataset> Dataset::open(const std::vector<std::string>& locations, const DatasetOptions& options) {
  return DatasetBuilder::build(locations, options);
}

int64_t Dataset::num_rows() const {
  int64_t n = 0;
  for (const auto& f : footers_) n += f.metadata.num_rows;
  return n;
}

std::unique_ptr<FileReader> Dataset::open_file(size_t i) const {
  const DatasetFile& f = files_.at(i);
  ReaderOptions reader = options_.reader;
  reader.opener = dataset::opener_of(options_);
  // Local files are mapped (the default access); a caller's opener may
  // give anything, and remote inputs copy.
  const bool resident =
      !options_.reader.opener && options_.reader.access == io::FileAccess::kMemoryMap && !io::is_url(f.location);
  return FileReader::open(std::make_unique<dataset::LazyInput>(f.location, f.size, reader.opener, resident),
                          footers_.at(i), reader);
}

bool is_dataset_location(const std::string& location) {
  if (dataset::is_summary_file(location)) return true;
  if (io::is_url(location))  // a listing: a glob after the scheme, or a prefix
    return dataset::has_glob(std::string_view(location).substr(location.find("://") + 3)) || location.back() == '/';
  if (dataset::has_glob(location)) return true;
  std::error_code ec;
  return std::filesystem::is_directory(location, ec);
}

std::vector<std::string> list_files(const std::vector<std::string>& locations, const io::RemoteOptions& remote) {
  std::vector<std::string> out;
  for (const std::string& location : locations) {
    if (!is_dataset_location(location) || dataset::is_summary_file(location)) {
      out.push_back(location);
      continue;
    }
    for (const dataset::FoundFile& f : dataset::find_files(location, remote)) out.push_back(f.location);
  }
  return out;
}

}  // namespace parq
