// multipass — beyond the course, the other path for bin counts that do not
// fit in shared memory: split the bins into as few equal ranges as fit in
// a block's shared memory (65,536 bins: two of 32,768), and run
// `vectorized` once per range, each pass counting only the samples that
// fall in its range. Every pass reads the whole input again, but counts
// stay in shared memory, whose atomics are far faster than L2's.
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4, kPassThreads = 1024;

template <class T, class Bin>
__global__ void __launch_bounds__(kPassThreads) multipass(const T* samples, std::int64_t n, Bin bin,
                                                          std::uint32_t* hist, int first, int width) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, width);
  __syncthreads();
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x, [&](T s) {
                            const unsigned b = unsigned(bin(s) - first);  // outside: -1 - first, huge
                            if (b < unsigned(width)) atomicAdd(&h[b], 1u);
                          });
  __syncthreads();
  merge_shared(h, hist + first, width);
}

// The ranges' width: the bins split evenly into as few ranges as fit in
// what a block may have of shared memory.
int range_width(int bins) {
  int device = 0, optin = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const int most = optin / 4;
  const int passes = (bins + most - 1) / most;
  return (bins + passes - 1) / passes;
}

struct Multipass {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t) { return 0; }
  static std::size_t shared_bytes(const Problem& p) { return std::size_t(range_width(p.bins)) * 4; }
  template <class T, class Bin>
  static auto main_kernel() {
    return &multipass<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    GPUBENCH_CUDA(cudaMemsetAsync(p.hist, 0, p.bins * sizeof(std::uint32_t), ws.stream));
    if (p.n == 0) return;
    const int width = range_width(p.bins);
    const std::size_t shared = std::size_t(width) * 4;
    auto* kernel = main_kernel<T, Bin>();
    allow_shared(kernel, shared);
    const unsigned grid = std::min(resident_blocks(kernel, kPassThreads, shared), blocks_for(p.n, kPassThreads));
    for (int first = 0; first < p.bins; first += width) {
      kernel<<<grid, kPassThreads, shared, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin, p.hist, first,
                                                        std::min(width, p.bins - first));
      GPUBENCH_CHECK_LAUNCH();
    }
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(multipass, Multipass, Ladder::modern,
                        "bins beyond shared memory: one vectorized pass per range of bins that fits")
