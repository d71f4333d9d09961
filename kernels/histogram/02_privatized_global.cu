// privatized_global — lecture 13's privatization: blocks count into private
// copies of the histogram in global memory, and a second kernel adds the
// copies up. Contention on one address drops by the number of copies; the
// copies cost zeroing, a merge pass, and L2 traffic. One copy per block, as
// in the lecture, would be a copy per 256 samples; blocks share copies round
// robin instead, at most 1024 of them and 256 MiB.
#include "kernels/histogram/private_copies.cuh"

namespace gpubench::histogram {
namespace {

template <class T, class Bin>
__global__ void count_private(const T* samples, std::int64_t n, Bin bin, std::uint32_t* copies, int bins,
                              unsigned n_copies) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  count(copies + std::size_t(blockIdx.x % n_copies) * bins, bin, samples[i]);
}

unsigned copies_for(const Problem& p) {
  const std::size_t by_memory = (std::size_t(256) << 20) / (std::size_t(p.bins) * 4);
  return unsigned(std::max<std::size_t>(1, std::min<std::size_t>({by_memory, 1024, blocks_for(p.n, kThreads)})));
}

struct PrivatizedGlobal {
  static std::size_t scratch_bytes(const Problem& p) { return std::size_t(copies_for(p)) * p.bins * 4; }
  static int max_bins(std::size_t) { return 0; }
  static std::size_t shared_bytes(const Problem&) { return 0; }
  template <class T, class Bin>
  static auto main_kernel() {
    return &count_private<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    count_into_copies(main_kernel<T, Bin>(), blocks_for(p.n, kThreads), copies_for(p), p, ws, bin);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(privatized_global, PrivatizedGlobal, Ladder::course,
                        "private copies in global memory, added up by a second kernel")
