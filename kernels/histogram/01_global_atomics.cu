// global_atomics — lecture 13's first kernel: one thread per sample, one
// atomicAdd on the histogram in global memory. Every count is a round trip
// to L2, and samples of the same bin queue on one address: the fewer the
// distinct bins in the input, the longer the queue (a constant input is the
// worst case).
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void global_atomics(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  count(hist, bin, samples[i]);
}

struct GlobalAtomics {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t) { return 0; }
  static std::size_t shared_bytes(const Problem&) { return 0; }
  template <class T, class Bin>
  static auto main_kernel() {
    return &global_atomics<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    GPUBENCH_CUDA(cudaMemsetAsync(p.hist, 0, p.bins * sizeof(std::uint32_t), ws.stream));
    if (p.n == 0) return;
    global_atomics<<<blocks_for(p.n, kThreads), kThreads, 0, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin,
                                                                          p.hist);
    GPUBENCH_CHECK_LAUNCH();
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(global_atomics, GlobalAtomics, Ladder::course,
                        "one thread per sample, atomicAdd on the global histogram")
