// How far each block of a marching kernel goes (stencil3d's planes in z,
// conv2d's tile rows down a column): march_piece_length's choice
// (march_plan.hpp) for as many resident blocks as this GPU holds at once,
// asked of the GPU once, outside the timed region.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/common/march_plan.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench {

template <class Kernel>
std::int64_t march_length(Kernel kernel, int threads, int dynamic_shared, std::int64_t columns,
                          std::int64_t length, std::int64_t longest, std::int64_t start, std::int64_t max_pieces) {
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared));
  const std::int64_t slots = std::int64_t(sms) * std::max(per_sm, 1);
  return march_piece_length(slots, columns, length, longest, start, max_pieces);
}

}  // namespace gpubench
