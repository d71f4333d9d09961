// Private copies of the histogram in global memory (privatized_global,
// privatized_l2): the pass that adds them up.
#pragma once

#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

// Bin b of the histogram is the sum of bin b over the copies.
__global__ void merge_copies_kernel(const std::uint32_t* copies, unsigned n_copies, std::uint32_t* hist, int bins) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < bins; b += gridDim.x * blockDim.x) {
    std::uint32_t sum = 0;
    for (unsigned c = 0; c < n_copies; ++c) sum += copies[std::size_t(c) * bins + b];
    hist[b] = sum;
  }
}

// Writes the histogram from n_copies private copies of it in global memory.
inline void merge_copies(const std::uint32_t* copies, unsigned n_copies, std::uint32_t* hist, int bins,
                         cudaStream_t stream) {
  merge_copies_kernel<<<std::min(blocks_for(bins, kThreads), 1024u), kThreads, 0, stream>>>(copies, n_copies, hist,
                                                                                           bins);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::histogram
