// A file with GEOMETRY, GEOGRAPHY and plain binary WKB columns whose every
// row's geometry is known by its coordinates, for the statistics and filter
// tests: row groups of 100 rows, the i-th row group's X within
// [10 i, 10 i + 7], nulls, empties, points, lines with Z and polygons in
// both byte orders.
#pragma once

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "geo/wkb_builder.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/field.h"

namespace parq::testing {

struct GeoRow {
  bool null = false;
  uint32_t code = 0;                            // ISO type code (not null)
  std::vector<std::array<double, 3>> vertices;  // x, y, z (z NaN: none)
  std::string wkb;
};

inline GeoRow geo_row(int64_t i) {
  GeoRow r;
  if (i % 7 == 3) {
    r.null = true;
    return r;
  }
  const bool big = i % 2 == 1;
  Wkb w(big);
  if (i % 11 == 5) {
    if (i % 2 == 0) {
      r.code = 1;
      w.header(1).coords({std::nan(""), std::nan("")});
    } else {
      r.code = 2;
      w.header(2).u32(0);
    }
    r.wkb = w.str();
    return r;
  }
  const double x = static_cast<double>(i / 100 * 10 + i % 5);
  const double y = static_cast<double>(i % 13);
  switch (i % 3) {
    case 0:
      r.code = 1;
      r.vertices = {{x, y, std::nan("")}};
      w.header(1).coords({x, y});
      break;
    case 1:
      r.code = 1002;
      r.vertices = {{x, y, static_cast<double>(i)}, {x + 2, y + 1, static_cast<double>(-i)}};
      w.header(1002).u32(2).coords({x, y, static_cast<double>(i), x + 2, y + 1, static_cast<double>(-i)});
      break;
    default:
      r.code = 3;
      r.vertices = {{x, y, std::nan("")}, {x + 1, y, std::nan("")}, {x + 1, y + 3, std::nan("")}};
      w.header(3).u32(1).u32(4).coords({x, y, x + 1, y, x + 1, y + 3, x, y});
      break;
  }
  r.wkb = w.str();
  return r;
}

// A nullable BYTE_ARRAY array.
inline Array wkb_array(const std::string& name, const ValueType& type,
                       const std::vector<std::optional<std::string>>& v) {
  Array a;
  a.name = name;
  a.type = type;
  a.length = static_cast<int64_t>(v.size());
  a.validity.resize((v.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  a.offsets.append_value<int32_t>(0);
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i]) {
      a.values.append(*v[i]);
      a.validity.data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    } else {
      ++a.null_count;
    }
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  return a;
}

inline Schema geo_schema() {
  return make_schema({
      Field::int64("id").required(),
      Field::binary("g").logical_type({.GEOMETRY = format::GeometryType{}}),
      Field::binary("geog").logical_type({.GEOGRAPHY = format::GeographyType{}}),
      Field::binary("raw"),
  });
}

// Writes `rows` rows of geo_row(i) into g, geog and raw; `edit` may change
// a row's value (same in every column) before it is written.
template <class Edit>
std::vector<uint8_t> write_geo_file(int64_t rows, const WriteOptions& options, Edit&& edit) {
  const Schema schema = geo_schema();
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> values;
  RecordBatch batch;
  batch.num_rows = rows;
  Array id;
  id.name = "id";
  id.type = schema.column(0).type;
  id.length = rows;
  for (int64_t i = 0; i < rows; ++i) {
    id.values.append(&i, sizeof i);
    GeoRow r = geo_row(i);
    std::optional<std::string> v;
    if (!r.null) v = r.wkb;
    edit(i, v);
    values.push_back(std::move(v));
  }
  batch.columns.push_back(std::move(id));
  batch.columns.push_back(wkb_array("g", schema.column(1).type, values));
  batch.columns.push_back(wkb_array("geog", schema.column(2).type, values));
  batch.columns.push_back(wkb_array("raw", schema.column(3).type, values));
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  auto writer = FileWriter::open(std::move(out), schema, options);
  writer->write(batch);
  writer->close();
  return std::vector<uint8_t>(sink->buffer().data(), sink->buffer().data() + sink->buffer().size());
}

inline WriteOptions geo_write_options(bool dictionary) {
  WriteOptions options;
  options.row_group_rows = 100;
  options.page_rows = 25;
  options.dictionary = dictionary;
  options.weigh_dictionary = false;  // dictionaries of distinct shapes, for dictionary pruning
  return options;
}

}  // namespace parq::testing
