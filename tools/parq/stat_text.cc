// Statistics bounds as text; see stat_text.h.
#include "stat_text.h"

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/value_text.h"

namespace parq::tool {

std::string render_bound(const ValueType& type, const std::string& bytes) {
  std::string out;
  try {
    text::append_plain_value(out, type, bytes);
  } catch (const Error&) {
    out.clear();
    text::append_base64(out, bytes);
  }
  return out;
}

}  // namespace parq::tool
