// Run-time choice of SIMD kernels. Kernels are compiled for several
// instruction sets side by side (function-level target attributes), and the
// best one the CPU supports is picked once. Tests force each level in turn to
// check every kernel against the scalar one.
#pragma once

namespace parq {

enum class SimdLevel {
  kScalar = 0,
  kAvx2 = 1,    // AVX2 + BMI2
  kAvx512 = 2,  // AVX-512 F, BW, VL, VBMI
};

const char* to_string(SimdLevel level);

// What this CPU supports.
SimdLevel detected_simd_level();

// What kernels use: the detected level, lowered by the PARQ_SIMD environment
// variable (scalar, avx2, avx512) or by set_simd_level().
SimdLevel simd_level();

// Caps the level kernels use (never above what the CPU has); for tests and
// benchmarks. Not thread-safe against kernels running at the same time.
void set_simd_level(SimdLevel level);

}  // namespace parq
