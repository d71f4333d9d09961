// vectorized — beyond the course: coarsened_interleaved with 128-bit loads,
// four in flight per thread (16 uint8 samples each, 4 of the wider types).
// One load instruction brings 4 to 16 samples, so the SM issues fewer
// memory instructions per sample and keeps more bytes in flight to cover
// DRAM latency. It drops the course's aggregation: on the H200 a warp's
// shared-memory atomics on one address cost no more than on different ones,
// and the run test only adds work (docs/ladders/histogram.md).
// It costs registers for the four vectors in flight (32 against
// coarsened_interleaved's 14, histogram-i32.txt) and scalar loops for an
// unaligned head and tail.
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4;

template <class T, class Bin>
__global__ void vectorized(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x, [&](T s) { count(h, bin, s); });
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct Vectorized : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &vectorized<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(vectorized, Vectorized, Ladder::modern,
                        "coarsened_interleaved with 128-bit loads, four in flight per thread")
