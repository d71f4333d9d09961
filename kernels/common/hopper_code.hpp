// Whether a kernel carries its Hopper code on the current GPU. A build
// whose CMAKE_CUDA_ARCHITECTURES stops below 90 runs its PTX on a Hopper
// GPU, and in that PTX whatever sits behind __CUDA_ARCH__ >= 900 (the TMA
// copies, griddepcontrol) is compiled out.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <utility>

#include "src/detail/cuda_check.hpp"

namespace gpubench {

// Whether `kernel` was compiled for compute_90 or later. Per device (the
// image CUDA picks is the device's), asked once and kept, under a lock:
// with --concurrent a thread per device asks, and scan asks on every launch.
inline bool has_hopper_code(const void* kernel) {
  static std::map<std::pair<int, const void*>, bool> known;
  static std::mutex m;
  int device = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find({device, kernel});
  if (it == known.end()) {
    cudaFuncAttributes attr{};
    GPUBENCH_CUDA(cudaFuncGetAttributes(&attr, kernel));
    it = known.emplace(std::make_pair(device, kernel), attr.ptxVersion >= 90).first;
  }
  return it->second;
}

}  // namespace gpubench
