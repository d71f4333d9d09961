// Private copies of the histogram in global memory (privatized_global,
// privatized_l2): counting into them, and the pass that adds them up.
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

// Zeroes n_copies private copies of the histogram in ws.scratch, runs
// kernel(samples, n, bin, copies, bins, n_copies) on `grid` blocks (for
// n > 0), then writes the histogram from the copies.
template <class T, class Bin>
void count_into_copies(void (*kernel)(const T*, std::int64_t, Bin, std::uint32_t*, int, unsigned), unsigned grid,
                       unsigned n_copies, const Problem& p, const Workspace& ws, Bin bin) {
  auto* copies = static_cast<std::uint32_t*>(ws.scratch);
  GPUBENCH_CUDA(cudaMemsetAsync(copies, 0, std::size_t(n_copies) * p.bins * sizeof(std::uint32_t), ws.stream));
  if (p.n > 0) {
    kernel<<<grid, kThreads, 0, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin, copies, p.bins, n_copies);
    GPUBENCH_CHECK_LAUNCH();
  }
  merge_copies(copies, n_copies, p.hist, p.bins, ws.stream);
}

}  // namespace
}  // namespace gpubench::histogram
