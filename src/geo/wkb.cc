// The WKB walk; see parq/geo/wkb.h.
#include "parq/geo/wkb.h"

#include <bit>
#include <cstring>
#include <string>

#include "parq/error.h"

namespace parq::geo {
namespace {

enum : uint32_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kCollection = 7,
};

// The least bytes any child geometry takes: its byte order, its type and
// either a count or a point's coordinates.
constexpr size_t kMinGeometryBytes = 1 + 4 + 4;

class Walker {
 public:
  explicit Walker(std::span<const uint8_t> wkb) : p_(wkb.data()), size_(wkb.size()) {}

  WkbSummary walk() {
    WkbSummary out;
    out.type_code = geometry(0, 0, out.bounds);
    if (at_ != size_) fail(std::to_string(size_ - at_) + " bytes follow the geometry");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("WKB: at byte " + std::to_string(at_) + ": " + what, ErrorKind::kCorrupt);
  }

  size_t left() const { return size_ - at_; }

  void need(size_t n, const char* what) const {
    if (left() < n)
      fail(std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(left()) + " left");
  }

  uint32_t u32(bool big) {
    need(4, "a count");
    uint32_t v;
    std::memcpy(&v, p_ + at_, 4);
    at_ += 4;
    return big ? __builtin_bswap32(v) : v;
  }

  // A count of items taking at least `each` bytes apiece, checked against
  // the bytes left before anything loops over it.
  uint32_t count(bool big, size_t each, const char* what) {
    const uint32_t n = u32(big);
    if (static_cast<uint64_t>(n) * each > left())
      fail(std::string(what) + " count " + std::to_string(n) + " needs at least " +
           std::to_string(static_cast<uint64_t>(n) * each) + " bytes, " + std::to_string(left()) + " left");
    return n;
  }

  // `n` points of `dims` coordinates each, already checked to fit.
  void points(uint32_t n, int dims, bool big, Bounds& b) {
    // The axes of coordinate k: X, Y, then Z or M or both.
    const int third = dims == 3 && has_m_ && !has_z_ ? kM : kZ;
    for (uint32_t i = 0; i < n; ++i) {
      for (int k = 0; k < dims; ++k) {
        uint64_t bits;
        std::memcpy(&bits, p_ + at_, 8);
        at_ += 8;
        if (big) bits = __builtin_bswap64(bits);
        const int axis = k < 2 ? k : (k == 2 ? third : kM);
        b.add(axis, std::bit_cast<double>(bits));
      }
    }
  }

  // One geometry at `depth`; `expect` is the type a multi-geometry's
  // children must have (0: any, at the top and in collections). Returns its
  // ISO type code.
  uint32_t geometry(int depth, uint32_t expect, Bounds& b) {
    if (depth > kMaxWkbDepth) fail("collections nest deeper than " + std::to_string(kMaxWkbDepth));
    need(1, "a byte order");
    const uint8_t order = p_[at_];
    if (order > 1) fail("byte order " + std::to_string(order) + " is neither 0 (big endian) nor 1 (little endian)");
    ++at_;
    const bool big = order == 0;
    need(4, "a geometry type");
    const size_t type_at = at_;
    const uint32_t code = u32(big);
    if (code & 0xE0000000u)
      fail("geometry type 0x" + hex(code) + " carries EWKB flags; GEOMETRY and GEOGRAPHY hold ISO WKB");
    const uint32_t type = code % 1000;
    const uint32_t dims_code = code / 1000;
    if (type < kPoint || type > kCollection || dims_code > 3) {
      at_ = type_at;
      fail("unknown geometry type " + std::to_string(code));
    }
    if (depth == 0) {
      has_z_ = dims_code == 1 || dims_code == 3;
      has_m_ = dims_code == 2 || dims_code == 3;
      dims_code_ = dims_code;
    } else {
      if (dims_code != dims_code_) {
        at_ = type_at;
        fail("a part of type " + std::to_string(code) + " has other dimensions than its geometry (" +
             std::to_string(dims_code_ * 1000) + "s)");
      }
      if (expect != 0 && type != expect) {
        at_ = type_at;
        fail("a multi-geometry of type " + std::to_string(dims_code_ * 1000 + expect + 3) + " holds a part of type " +
             std::to_string(code));
      }
    }
    const int dims = 2 + has_z_ + has_m_;
    const size_t point_bytes = static_cast<size_t>(dims) * 8;
    switch (type) {
      case kPoint:
        need(point_bytes, "a point");
        points(1, dims, big, b);
        break;
      case kLineString:
        points(count(big, point_bytes, "point"), dims, big, b);
        break;
      case kPolygon: {
        const uint32_t rings = count(big, 4, "ring");
        for (uint32_t r = 0; r < rings; ++r) points(count(big, point_bytes, "point"), dims, big, b);
        break;
      }
      default: {
        const uint32_t parts = count(big, kMinGeometryBytes, "part");
        const uint32_t child = type == kCollection ? 0 : type - 3;
        for (uint32_t i = 0; i < parts; ++i) geometry(depth + 1, child, b);
        break;
      }
    }
    return code;
  }

  static std::string hex(uint32_t v) {
    static const char* digits = "0123456789ABCDEF";
    std::string s(8, '0');
    for (int i = 7; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = digits[v & 15];
    return s;
  }

  const uint8_t* p_;
  size_t size_;
  size_t at_ = 0;
  bool has_z_ = false;
  bool has_m_ = false;
  uint32_t dims_code_ = 0;
};

// Do [lo, hi] and the query's X range meet? The query may wrap.
bool x_meets(double lo, double hi, const QueryBox& q) {
  if (q.xmin <= q.xmax) return lo <= q.xmax && hi >= q.xmin;
  return hi >= q.xmin || lo <= q.xmax;
}

}  // namespace

format::BoundingBox Bounds::to_thrift() const {
  format::BoundingBox out;
  out.xmin = min[kX];
  out.xmax = max[kX];
  out.ymin = min[kY];
  out.ymax = max[kY];
  if (has(kZ)) {
    out.zmin = min[kZ];
    out.zmax = max[kZ];
  }
  if (has(kM)) {
    out.mmin = min[kM];
    out.mmax = max[kM];
  }
  return out;
}

WkbSummary read_wkb(std::span<const uint8_t> wkb) { return Walker(wkb).walk(); }

bool intersects(const Bounds& value, const QueryBox& box) {
  if (!value.has_xy()) return false;
  return x_meets(value.min[kX], value.max[kX], box) && value.min[kY] <= box.ymax && value.max[kY] >= box.ymin;
}

bool statistics_may_intersect(const format::BoundingBox& s, const QueryBox& box) {
  if (std::isnan(s.xmin) || std::isnan(s.xmax) || std::isnan(s.ymin) || std::isnan(s.ymax)) return true;
  if (s.ymin > s.ymax) return true;  // not a box: rule nothing out
  if (s.ymin > box.ymax || s.ymax < box.ymin) return false;
  if (s.xmin > s.xmax) return true;
  return x_meets(s.xmin, s.xmax, box);
}

}  // namespace parq::geo
