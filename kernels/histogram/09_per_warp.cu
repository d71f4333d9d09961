// per_warp — `vectorized` with a sub-histogram per warp in shared memory
// (as many as fit in 48 KiB, up to one per warp: each of the 8 warps has
// its own up to 1,536 bins), added together at the end. Warps then no longer
// contend for one copy's addresses, so a skewed input's hot bins are spread
// over several counters; the cost is the sub-histograms' shared memory and a
// longer merge. Lanes of one warp still meet in banks.
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4;

template <class T, class Bin>
__global__ void per_warp(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins, int copies) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins * copies);
  __syncthreads();
  std::uint32_t* mine = h + std::size_t(threadIdx.x / 32 % copies) * bins;
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x, [&](T s) { count(mine, bin, s); });
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    std::uint32_t sum = 0;
    for (int c = 0; c < copies; ++c) sum += h[std::size_t(c) * bins + b];
    if (sum) atomicAdd(&hist[b], sum);
  }
}

struct PerWarp {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t shared) { return shared_bins(shared); }
  // Sub-histograms: as many as fit in 48 KiB, at least one, at most one per warp.
  static int copies(const Problem& p) {
    return int(std::clamp<std::size_t>((48 << 10) / (std::size_t(p.bins) * 4), 1, kThreads / 32));
  }
  static std::size_t shared_bytes(const Problem& p) { return std::size_t(copies(p)) * p.bins * sizeof(std::uint32_t); }
  template <class T, class Bin>
  static auto main_kernel() {
    return &per_warp<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins, copies(p));
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(per_warp, PerWarp, Ladder::modern,
                        "vectorized with a sub-histogram per warp in shared memory")
