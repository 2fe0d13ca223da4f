// Error reporting for the struct codec, kept out of line so that the
// instantiated readers stay small.
#include "thrift/struct_codec.h"

namespace parq::thrift {

void fail_wire_type(CompactReader& r, const char* struct_name, const char* field_name, CompactType expected,
                    CompactType actual) {
  r.fail(std::string(struct_name) + "." + field_name + ": expected " + compact_type_name(expected) + ", found " +
         compact_type_name(actual));
}

void fail_missing_field(CompactReader& r, const char* struct_name, const char* field_name) {
  r.fail(std::string(struct_name) + ": required field '" + field_name + "' is missing");
}

void fail_union(CompactReader& r, const char* struct_name, int members_set) {
  r.fail(std::string(struct_name) + ": union has " + std::to_string(members_set) + " members set, expected one");
}

void fail_integer_range(CompactReader& r, int64_t v) {
  r.fail("integer " + std::to_string(v) + " out of range for its field");
}

}  // namespace parq::thrift
