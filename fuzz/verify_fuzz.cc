// libFuzzer target for `parq verify`: the input is a Parquet file, verified
// whole (every page, statistics, page index, bloom filters, offsets).
// Problems are the expected outcome; what must not happen is a crash, a
// hang, or an allocation sized by a count the file claims. Every problem is
// rendered, so that its text is built for every kind of damage. Seeded with
// the corpus files.
#include <string>

#include "parq/error.h"
#include "parq/file/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto file = parq::FileReader::open(parq::io::memory_input({data, size}, "fuzz"));
    parq::VerifyOptions options;
    // Bound the work a tiny input can ask for (a page claiming a huge size).
    options.max_page_bytes = 64 << 20;
    options.max_page_values = 1 << 22;
    options.max_kept_problems = 100;
    size_t text = 0;
    options.on_problem = [&](const parq::VerifyProblem& p) { text += p.to_string().size(); };
    const parq::VerifyReport report = parq::verify_file(*file, options);
    if (report.problem_count < static_cast<int64_t>(report.problems.size())) __builtin_trap();
  } catch (const parq::Error&) {
  }
  return 0;
}
