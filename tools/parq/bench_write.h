// `parq bench write`: lives beside `parq bench read` (bench_command.cc).
#pragma once

#include <string>
#include <vector>

namespace parq::tool {

int run_bench_write(const std::vector<std::string>& argv);

}  // namespace parq::tool
