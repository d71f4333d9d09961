// coarsened_interleaved — lecture 13's second coarsening: the same grid, but
// thread t counts samples t, t + T, t + 2T, ... (T threads in all), so the
// lanes of a warp read consecutive samples and every load is coalesced.
// It costs nothing in resources (14 registers against coarsened_contiguous's
// 22, the same shared histogram: int32, 1024 bins); a thread's samples are
// no longer neighbours, so equal neighbouring samples go to different
// threads, which is what aggregated's runs then have to work with.
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void coarsened_interleaved(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    count(h, bin, samples[i]);
  }
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct CoarsenedInterleaved : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &coarsened_interleaved<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(coarsened_interleaved, CoarsenedInterleaved, Ladder::course,
                        "the same grid, each thread every T-th sample (coalesced)")
