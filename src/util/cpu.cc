// CPU feature detection for kernel dispatch.
#include "parq/util/cpu.h"

#include <cstdlib>
#include <cstring>

namespace parq {
namespace {

SimdLevel detect() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("bmi2"))
    return SimdLevel::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) return SimdLevel::kAvx2;
#endif
  return SimdLevel::kScalar;
}

SimdLevel from_environment(SimdLevel detected) {
  const char* env = std::getenv("PARQ_SIMD");
  if (env == nullptr) return detected;
  SimdLevel wanted = detected;
  if (std::strcmp(env, "scalar") == 0) wanted = SimdLevel::kScalar;
  if (std::strcmp(env, "avx2") == 0) wanted = SimdLevel::kAvx2;
  if (std::strcmp(env, "avx512") == 0) wanted = SimdLevel::kAvx512;
  return wanted < detected ? wanted : detected;
}

SimdLevel& current() {
  static SimdLevel level = from_environment(detected_simd_level());
  return level;
}

}  // namespace

const char* to_string(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
  }
  return "unknown";
}

SimdLevel detected_simd_level() {
  static const SimdLevel level = detect();
  return level;
}

SimdLevel simd_level() { return current(); }

void set_simd_level(SimdLevel level) {
  SimdLevel detected = detected_simd_level();
  current() = level < detected ? level : detected;
}

}  // namespace parq
