// Maps C++ structs onto the compact protocol.
//
// A struct is described once, by a StructInfo specialisation listing its
// fields (name, Thrift id, member pointer); the reader and the writer are both
// instantiated from that list, so they cannot drift apart. Reading goes
// straight into the final structure: there is no generic intermediate tree.
// The field lookup is a fold over compile-time ids that the compiler turns
// into a jump table; unknown fields are skipped (forward compatibility).
//
// Member types decide the wire form: bool, int8/16/32/64 and enums with an
// int32 underlying type, double, std::string (binary), std::vector<T> (list),
// described structs, and std::optional<T> of those for optional fields.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "parq/thrift/compact_protocol.h"

namespace parq::thrift {

template <size_t N>
struct FixedString {
  char value[N];
  constexpr FixedString(const char (&s)[N]) {
    for (size_t i = 0; i < N; ++i) value[i] = s[i];
  }
};

// One field. `Required` only matters for non-optional members: a member with
// a default that old writers omit (ColumnChunk.file_offset) says false.
template <FixedString Name, int16_t Id, auto Member, bool Required = true>
struct Field {
  static constexpr int16_t id = Id;
  static constexpr auto member = Member;
  static constexpr const char* name = Name.value;
  static constexpr bool required = Required;
};

template <class... Fs>
struct FieldList {};

// Specialise for every described struct:
//   template <> struct StructInfo<X> {
//     static constexpr const char* name = "X";
//     static constexpr bool is_union = false;
//     using fields = FieldList<Field<"a", 1, &X::a>, ...>;
//   };
template <class T>
struct StructInfo;

template <class T, class = void>
struct is_described : std::false_type {};
template <class T>
struct is_described<T, std::void_t<decltype(StructInfo<T>::name)>> : std::true_type {};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

template <class P>
struct member_type;
template <class S, class M>
struct member_type<M S::*> {
  using type = M;
};

template <class F>
using field_member_t = typename member_type<std::remove_cv_t<decltype(F::member)>>::type;

template <class T>
using unwrap_optional_t = typename std::conditional_t<is_optional<T>::value, T, std::optional<T>>::value_type;

// The compact type a value of C++ type T is written with.
template <class T>
constexpr CompactType wire_type_of() {
  if constexpr (std::is_same_v<T, bool>) {
    return CompactType::kBoolTrue;
  } else if constexpr (std::is_enum_v<T>) {
    return CompactType::kI32;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return CompactType::kI8;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return CompactType::kI16;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return CompactType::kI32;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return CompactType::kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return CompactType::kDouble;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return CompactType::kBinary;
  } else if constexpr (is_vector<T>::value) {
    return CompactType::kList;
  } else {
    static_assert(is_described<T>::value, "no Thrift description for this type");
    return CompactType::kStruct;
  }
}

inline bool is_bool_type(CompactType t) { return t == CompactType::kBoolTrue || t == CompactType::kBoolFalse; }
inline bool is_int_type(CompactType t) {
  return t == CompactType::kI8 || t == CompactType::kI16 || t == CompactType::kI32 || t == CompactType::kI64;
}

// Whether a value found on the wire as `actual` can be read into a T. Integer
// widths are interchangeable (range-checked on read).
template <class T>
bool wire_type_matches(CompactType actual) {
  constexpr CompactType expected = wire_type_of<T>();
  if constexpr (expected == CompactType::kBoolTrue) return is_bool_type(actual);
  if constexpr (expected == CompactType::kI8 || expected == CompactType::kI16 || expected == CompactType::kI32 ||
                expected == CompactType::kI64)
    return is_int_type(actual);
  if constexpr (expected == CompactType::kList) return actual == CompactType::kList || actual == CompactType::kSet;
  return actual == expected;
}

[[noreturn]] void fail_wire_type(CompactReader& r, const char* struct_name, const char* field_name,
                                 CompactType expected, CompactType actual);
[[noreturn]] void fail_missing_field(CompactReader& r, const char* struct_name, const char* field_name);
[[noreturn]] void fail_union(CompactReader& r, const char* struct_name, int members_set);
[[noreturn, gnu::cold, gnu::noinline]] void fail_integer_range(CompactReader& r, int64_t v);

template <class S>
void read_struct(CompactReader& r, S& out);
template <class S>
void write_struct(CompactWriter& w, const S& in);

template <class T>
T read_integer(CompactReader& r, CompactType actual) {
  int64_t v = actual == CompactType::kI8 ? r.read_i8() : r.read_zigzag();
  using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::type_identity<T>>;
  using I = typename U::type;
  if (v < static_cast<int64_t>(std::numeric_limits<I>::min()) ||
      v > static_cast<int64_t>(std::numeric_limits<I>::max())) [[unlikely]]
    fail_integer_range(r, v);
  return static_cast<T>(static_cast<I>(v));
}

// Reads one value whose wire type has been checked. `in_field` says whether a
// bool travels in the field header (true) or as a byte (collection element).
template <class T>
void read_value(CompactReader& r, CompactType actual, T& out, bool in_field) {
  if constexpr (std::is_same_v<T, bool>) {
    out = in_field ? actual == CompactType::kBoolTrue : r.read_bool_byte();
  } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
    out = read_integer<T>(r, actual);
  } else if constexpr (std::is_same_v<T, double>) {
    out = r.read_double();
  } else if constexpr (std::is_same_v<T, std::string>) {
    out.assign(r.read_binary());
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    r.enter();
    CollectionHeader h = r.read_collection_header();
    if (h.element_type == CompactType::kStop) h.element_type = wire_type_of<E>();  // see read_collection_header
    if (!wire_type_matches<E>(h.element_type)) fail_wire_type(r, "list", "element", wire_type_of<E>(), h.element_type);
    out.clear();
    if constexpr (std::is_same_v<E, bool>) {
      out.reserve(h.size);
      for (uint32_t i = 0; i < h.size; ++i) out.push_back(r.read_bool_byte());
    } else {
      out.resize(h.size);
      for (auto& e : out) read_value(r, h.element_type, e, false);
    }
    r.leave();
  } else {
    read_struct(r, out);
  }
}

template <class T>
void write_value(CompactWriter& w, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    w.write_bool_byte(v);
  } else if constexpr (std::is_enum_v<T>) {
    w.write_i32(static_cast<int32_t>(v));
  } else if constexpr (std::is_same_v<T, int8_t>) {
    w.write_i8(v);
  } else if constexpr (std::is_integral_v<T>) {
    w.write_zigzag(v);
  } else if constexpr (std::is_same_v<T, double>) {
    w.write_double(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.write_binary(v);
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    w.write_collection_header(wire_type_of<E>(), static_cast<uint32_t>(v.size()));
    for (const auto& e : v) write_value<E>(w, e);
  } else {
    write_struct(w, v);
  }
}

namespace detail {

// Reads one known field. A value whose wire type does not fit the member is
// skipped, as generated Thrift code does: some old writers used ids that the
// spec later gave to other fields (dict-page-offset-zero.parquet carries a
// list where bloom_filter_length now is). Returns whether the field was read.
template <class S, class F>
bool read_field(CompactReader& r, S& out, CompactType actual) {
  using M = field_member_t<F>;
  using V = unwrap_optional_t<M>;
  if (!wire_type_matches<V>(actual)) {
    if (!is_bool_type(actual)) r.skip(actual);
    return false;
  }
  if constexpr (is_optional<M>::value) {
    read_value(r, actual, (out.*F::member).emplace(), true);
  } else {
    read_value(r, actual, out.*F::member, true);
  }
  return true;
}

template <class S, class... Fs, size_t... I>
bool dispatch_field([[maybe_unused]] CompactReader& r, [[maybe_unused]] S& out, [[maybe_unused]] FieldHeader h,
                    [[maybe_unused]] uint64_t& seen, FieldList<Fs...>, std::index_sequence<I...>) {
  return ((h.id == Fs::id ? (read_field<S, Fs>(r, out, h.type) ? seen |= uint64_t{1} << I : 0, true) : false) || ...);
}

template <class F>
constexpr bool is_required_field() {
  using M = field_member_t<F>;
  return !is_optional<M>::value && F::required;
}

template <class... Fs, size_t... I>
constexpr uint64_t required_mask(FieldList<Fs...>, std::index_sequence<I...>) {
  return ((is_required_field<Fs>() ? uint64_t{1} << I : 0) | ... | 0);
}

template <class S, class... Fs, size_t... I>
void report_missing(CompactReader& r, uint64_t missing, FieldList<Fs...>, std::index_sequence<I...>) {
  ((missing & (uint64_t{1} << I) ? fail_missing_field(r, StructInfo<S>::name, Fs::name) : void()), ...);
}

template <class S, class F>
void write_field(CompactWriter& w, const S& in, int16_t& last_id) {
  using M = field_member_t<F>;
  using V = unwrap_optional_t<M>;
  const V* value;
  if constexpr (is_optional<M>::value) {
    if (!(in.*F::member).has_value()) return;
    value = &*(in.*F::member);
  } else {
    value = &(in.*F::member);
  }
  if constexpr (std::is_same_v<V, bool>) {
    w.write_field_header(*value ? CompactType::kBoolTrue : CompactType::kBoolFalse, F::id, last_id);
  } else {
    w.write_field_header(wire_type_of<V>(), F::id, last_id);
    write_value<V>(w, *value);
  }
}

template <class S, class... Fs>
void write_fields([[maybe_unused]] CompactWriter& w, [[maybe_unused]] const S& in, FieldList<Fs...>) {
  [[maybe_unused]] int16_t last_id = 0;
  (write_field<S, Fs>(w, in, last_id), ...);
}

template <class... Fs>
constexpr size_t field_count(FieldList<Fs...>) {
  return sizeof...(Fs);
}

}  // namespace detail

template <class S>
void read_struct(CompactReader& r, S& out) {
  using Info = StructInfo<S>;
  using Fields = typename Info::fields;
  constexpr size_t n = detail::field_count(Fields{});
  static_assert(n <= 64, "presence is tracked in a 64-bit mask");
  using Seq = std::make_index_sequence<n>;
  r.enter();
  uint64_t seen = 0;
  int16_t last_id = 0;
  for (;;) {
    FieldHeader h = r.read_field_header(last_id);
    if (h.type == CompactType::kStop) break;
    if (!detail::dispatch_field(r, out, h, seen, Fields{}, Seq{})) {
      if (is_bool_type(h.type)) continue;  // the value was the header itself
      r.skip(h.type);
    }
  }
  r.leave();
  constexpr uint64_t required = detail::required_mask(Fields{}, Seq{});
  if ((seen & required) != required) detail::report_missing<S>(r, required & ~seen, Fields{}, Seq{});
  if constexpr (Info::is_union) {
    int set = std::popcount(seen);
    if (set > 1) fail_union(r, Info::name, set);
  }
}

template <class S>
void write_struct(CompactWriter& w, const S& in) {
  detail::write_fields(w, in, typename StructInfo<S>::fields{});
  w.write_stop();
}

}  // namespace parq::thrift
