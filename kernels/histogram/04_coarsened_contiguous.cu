// coarsened_contiguous — lecture 13's thread coarsening, first form: only as
// many blocks as fit on the GPU at once, each thread counting a contiguous
// run of n / threads samples. The merge is paid once per resident block
// instead of once per 256 samples. But at any instant the lanes of a warp
// read addresses a run apart: every load touches 32 sectors for 32 samples,
// and the caches must hold each thread's run.
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void coarsened_contiguous(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t per = (n + threads - 1) / threads;
  const std::int64_t begin = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * per;
  const std::int64_t end = begin + per < n ? begin + per : n;
  for (std::int64_t i = begin; i < end; ++i) {
    count(h, bin, samples[i]);
  }
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct CoarsenedContiguous : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &coarsened_contiguous<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(coarsened_contiguous, CoarsenedContiguous, Ladder::course,
                        "a GPU-filling grid, each thread a contiguous run of samples (uncoalesced)")
