// warp_aggregated — lecture 20's vote instructions applied to lecture 13's
// aggregation: __match_any_sync groups the lanes of a warp that hold the
// same bin, and the group's first lane adds the group's size with one
// atomic. Lanes of one bin no longer collide on one shared-memory address;
// a constant input makes one atomic per warp instead of 32 in a row. Each
// iteration's match costs the whole warp, whatever the input.
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void warp_aggregated(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  // base is the warp's first sample: the whole warp takes the loop together.
  for (std::int64_t base = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x - lane; base < n; base += stride) {
    const std::int64_t i = base + lane;
    const int b = i < n ? bin(samples[i]) : -1;
    const unsigned group = __match_any_sync(0xffffffffu, b);
    if (b >= 0 && lane == __ffs(group) - 1) atomicAdd(&h[b], unsigned(__popc(group)));
  }
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct WarpAggregated : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &warp_aggregated<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(warp_aggregated, WarpAggregated, Ladder::course,
                        "__match_any_sync groups a warp's lanes by bin; one atomic per group")
