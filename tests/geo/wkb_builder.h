// WKB values for tests, written byte by byte in either byte order, so that
// the tests state each geometry's layout instead of trusting a second
// encoder.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace parq::testing {

class Wkb {
 public:
  explicit Wkb(bool big_endian = false) : big_(big_endian) {}

  // A geometry header: byte order, then the ISO type code.
  Wkb& header(uint32_t code) {
    bytes_.push_back(big_ ? 0 : 1);
    return u32(code);
  }
  Wkb& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) put_byte(v, i, 4);
    return *this;
  }
  Wkb& f64(double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    for (int i = 0; i < 8; ++i) put_byte(v, i, 8);
    return *this;
  }
  Wkb& coords(std::initializer_list<double> c) {
    for (double d : c) f64(d);
    return *this;
  }
  // Another geometry's bytes, as a part (it keeps its own byte order).
  Wkb& part(const Wkb& child) {
    bytes_.insert(bytes_.end(), child.bytes_.begin(), child.bytes_.end());
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::string str() const { return std::string(bytes_.begin(), bytes_.end()); }

 private:
  void put_byte(uint64_t v, int i, int width) {
    const int shift = big_ ? (width - 1 - i) * 8 : i * 8;
    bytes_.push_back(static_cast<uint8_t>(v >> shift));
  }

  bool big_;
  std::vector<uint8_t> bytes_;
};

// A point of `dims` coordinates (2 to 4) with the given ISO code.
inline Wkb wkb_point(uint32_t code, std::initializer_list<double> c, bool big = false) {
  Wkb w(big);
  w.header(code).coords(c);
  return w;
}

}  // namespace parq::testing
