// Statistics bounds as text; see stat_text.h.
#include "stat_text.h"

#include "parq/text/value_text.h"

namespace parq::tool {

std::string render_bound(const ValueType& type, const std::string& bytes) { return text::bound_text(type, bytes); }

}  // namespace parq::tool
