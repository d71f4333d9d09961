// aggregated — lecture 13's aggregation: a thread keeps the bin of its last
// sample and a count in registers, and adds the count with one atomic only
// when the bin changes. Skewed and constant inputs, whose runs are long,
// make far fewer atomics; a uniform input pays a little for the compare.
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void aggregated(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  int run_bin = -1;
  std::uint32_t run = 0;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int b = bin(samples[i]);
    if (b == run_bin) {
      ++run;
    } else {
      if (run_bin >= 0) atomicAdd(&h[run_bin], run);
      run_bin = b;
      run = 1;
    }
  }
  if (run_bin >= 0) atomicAdd(&h[run_bin], run);
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct Aggregated : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &aggregated<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_on_resident_grid(main_kernel<T, Bin>(), kThreads, shared_bytes(p), p, ws, bin, p.hist, p.bins);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(aggregated, Aggregated, Ladder::course,
                        "runs of one bin counted in a register, one atomic per run")
