// A kernel's Resources from cudaFuncGetAttributes, with the dynamic shared
// memory its launch adds.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/common/resources.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench {

template <class Kernel>
Resources resources_of(Kernel kernel, int dynamic_shared = 0) {
  cudaFuncAttributes attr{};
  GPUBENCH_CUDA(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)));
  return {attr.numRegs, int(attr.sharedSizeBytes) + dynamic_shared, int(attr.localSizeBytes)};
}

}  // namespace gpubench
