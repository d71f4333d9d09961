// Pieces every hand-written GEMM step shares: bounds-checked element access,
// the launch check, and the registration macro.
#pragma once

#include <cstdint>

#include "kernels/common/resources.cuh"
#include "kernels/gemm/gemm_step.hpp"
#include "kernels/gemm/tiles.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::gemm {

// m[row * ld + col] when (row, col) is inside rows x cols, else 0: tiles that
// hang over the matrix edge contribute nothing to the dot products.
__device__ __forceinline__ float at_or_zero(const float* m, int row, int col, int rows, int cols, int ld) {
  return row < rows && col < cols ? m[std::int64_t(row) * ld + col] : 0.0f;
}

}  // namespace gpubench::gemm

// Registers a hand-written step: RUN launches it, KERNEL is the kernel whose
// resources the report shows.
#define GPUBENCH_GEMM_STEP(NAME, LADDER, PRECISION, SUMMARY, RUN, KERNEL) \
  GPUBENCH_GEMM_STEP_DYN(NAME, LADDER, PRECISION, SUMMARY, RUN, KERNEL, 0, 0)

// The same for a kernel that takes DYNAMIC_SHARED bytes of dynamic shared
// memory and, when ONLY_CC is nonzero, runs on that compute capability only.
#define GPUBENCH_GEMM_STEP_DYN(NAME, LADDER, PRECISION, SUMMARY, RUN, KERNEL, DYNAMIC_SHARED, ONLY_CC) \
  GPUBENCH_GEMM_STEP_SCRATCH(NAME, LADDER, PRECISION, SUMMARY, RUN, KERNEL, DYNAMIC_SHARED, ONLY_CC, nullptr)

// The same for a step that needs SCRATCH(m, n, k) bytes of device memory.
#define GPUBENCH_GEMM_STEP_SCRATCH(NAME, LADDER, PRECISION, SUMMARY, RUN, KERNEL, DYNAMIC_SHARED, ONLY_CC, SCRATCH) \
  namespace gpubench::gemm {                                                                                     \
  const Step& step_##NAME() {                                                                                    \
    static const Step step{#NAME,   LADDER, SUMMARY, PRECISION, RUN,                                             \
                           [] { return resources_of(KERNEL, DYNAMIC_SHARED); },                                  \
                           ONLY_CC, 0,      false,   nullptr,   SCRATCH};                                        \
    return step;                                                                                                 \
  }                                                                                                              \
  }
