// per_lane — beyond the course: 32 copies of the histogram in shared memory,
// one per lane index, laid out so copy l sits entirely in bank l (bin b of
// copy l at word 32 b + l). A warp's 32 atomics then fall in 32 different
// banks whatever the bins: no bank conflict and no two lanes on one address,
// at any entropy. The warps of a block share the copies. The price is 32x
// the shared memory (128 bytes per bin: at most 1,816 bins) and a merge that
// adds 32 columns per bin.
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4, kLaneThreads = 512;

template <class T, class Bin>
__global__ void __launch_bounds__(kLaneThreads) per_lane(const T* samples, std::int64_t n, Bin bin,
                                                         std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, 32 * bins);
  __syncthreads();
  std::uint32_t* column = h + threadIdx.x % 32;
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x, [&](T s) {
                            const int b = bin(s);
                            if (Bin::kAlwaysInRange || b >= 0) atomicAdd(&column[32 * b], 1u);
                          });
  __syncthreads();
  // Bin b is the sum of row b; a warp's lanes read its 32 words rotated by
  // lane, so that the lanes summing different rows read different banks.
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    std::uint32_t sum = 0;
    for (int j = 0; j < 32; ++j) sum += h[32 * b + (j + threadIdx.x) % 32];
    if (sum) atomicAdd(&hist[b], sum);
  }
}

struct PerLane {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t shared) { return int(shared / (32 * sizeof(std::uint32_t))); }
  static std::size_t shared_bytes(const Problem& p) { return 32 * std::size_t(p.bins) * sizeof(std::uint32_t); }
  template <class T, class Bin>
  static auto main_kernel() {
    return &per_lane<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kLaneThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(per_lane, PerLane, Ladder::modern,
                        "32 bank-striped copies in shared memory, one per lane: no bank conflicts")
