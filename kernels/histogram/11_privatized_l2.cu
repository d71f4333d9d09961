// privatized_l2 — beyond the course, for bin counts that do not fit in
// shared memory (65,536 bins take 256 KiB; a block may have 227 KiB):
// `vectorized`'s loads and aggregated's runs, counted with atomics into
// private copies in global memory that together stay within 32 MiB, so they
// live in the 60 MiB L2. Blocks share a copy round robin; a second kernel
// adds the copies up. L2 atomics are slower than shared-memory ones, but
// spread over many copies they rarely meet on one address.
#include "kernels/histogram/private_copies.cuh"
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4;

unsigned copies_for(const Problem& p) {
  return unsigned(std::clamp<std::size_t>((std::size_t(32) << 20) / (std::size_t(p.bins) * 4), 1, 256));
}

template <class T, class Bin>
__global__ void privatized_l2(const T* samples, std::int64_t n, Bin bin, std::uint32_t* copies, int bins,
                              unsigned n_copies) {
  std::uint32_t* mine = copies + std::size_t(blockIdx.x % n_copies) * bins;
  // Runs of one bin add up in a register first: unlike shared memory's, L2
  // atomics on one address queue, and a constant input would put every
  // count of the GPU on one.
  int run_bin = -1;
  std::uint32_t run = 0;
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x, [&](T s) {
                            const int b = bin(s);
                            if (b == run_bin) {
                              ++run;
                            } else {
                              if (run_bin >= 0) atomicAdd(&mine[run_bin], run);
                              run_bin = b;
                              run = 1;
                            }
                          });
  if (run_bin >= 0) atomicAdd(&mine[run_bin], run);
}

struct PrivatizedL2 {
  static std::size_t scratch_bytes(const Problem& p) { return std::size_t(copies_for(p)) * p.bins * 4; }
  static int max_bins(std::size_t) { return 0; }
  static std::size_t shared_bytes(const Problem&) { return 0; }
  template <class T, class Bin>
  static auto main_kernel() {
    return &privatized_l2<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    auto* kernel = main_kernel<T, Bin>();
    const unsigned grid = p.n > 0 ? std::min(resident_blocks(kernel, kThreads, 0), blocks_for(p.n, kThreads)) : 0;
    count_into_copies(kernel, grid, copies_for(p), p, ws, bin);
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(privatized_l2, PrivatizedL2, Ladder::modern,
                        "vectorized into private copies in global memory sized to stay in L2 (any bin count)")
