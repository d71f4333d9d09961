// privatized_shared — lecture 13's shared-memory privatization: each block
// counts into its own histogram in shared memory, then adds every non-zero
// bin into the global one with one atomic. Counting atomics stay in the SM;
// with one thread per sample, though, a block of 256 samples pays a merge of
// up to `bins` global atomics, as many as it saved.
#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void privatized_shared(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist, int bins) {
  extern __shared__ std::uint32_t h[];
  zero_shared(h, bins);
  __syncthreads();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) count(h, bin, samples[i]);
  __syncthreads();
  merge_shared(h, hist, bins);
}

struct PrivatizedShared : SharedHistogram {
  template <class T, class Bin>
  static auto main_kernel() {
    return &privatized_shared<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    GPUBENCH_CUDA(cudaMemsetAsync(p.hist, 0, p.bins * sizeof(std::uint32_t), ws.stream));
    if (p.n == 0) return;
    const std::size_t shared = shared_bytes(p);
    auto* kernel = main_kernel<T, Bin>();
    allow_shared(kernel, shared);
    kernel<<<blocks_for(p.n, kThreads), kThreads, shared, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin,
                                                                       p.hist, p.bins);
    GPUBENCH_CHECK_LAUNCH();
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(privatized_shared, PrivatizedShared, Ladder::course,
                        "a private histogram per block in shared memory, one atomic per non-zero bin to merge")
