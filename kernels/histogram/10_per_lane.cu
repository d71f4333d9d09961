// per_lane — beyond the course: every lane owns 16-bit counters for all bins
// in shared memory, laid out so lane l's counters all sit in bank l. A count
// is a plain load and store, with no atomic, no bank conflict and no
// contention whatever the input; two counters share a word. A lane's
// counters are added into the block's histogram before any can overflow
// (every 65,535 samples). The price is shared memory: 64 bytes per bin per
// warp, so only a few hundred bins fit, and fewer warps per SM.
#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4, kWarps = 4;

// 32-bit words of one warp's counters: two bins per word, 32 lanes per row.
__host__ __device__ constexpr std::size_t lane_words(int bins) { return std::size_t(bins + 1) / 2 * 32; }

__host__ __device__ constexpr std::size_t lane_shared_bytes(int bins) {
  return (kWarps * lane_words(bins) + std::size_t(bins)) * 4;
}

// Adds the warp's lane counters into the block histogram and zeroes them.
__device__ __forceinline__ void drain(std::uint32_t* lanes, std::uint32_t* block, int bins) {
  const int lane = threadIdx.x % 32;
  __syncwarp();
  for (int row = lane; row < (bins + 1) / 2; row += 32) {
    std::uint32_t lo = 0, hi = 0;
    for (int j = 0; j < 32; ++j) {
      std::uint32_t& c = lanes[row * 32 + (j + lane) % 32];  // lanes of a warp read different banks
      lo += c & 0xffffu;
      hi += c >> 16;
      c = 0;
    }
    if (lo) atomicAdd(&block[2 * row], lo);
    if (hi) atomicAdd(&block[2 * row + 1], hi);
  }
  __syncwarp();
}

template <class T, class Bin>
__global__ void __launch_bounds__(kWarps * 32) per_lane(const T* samples, std::int64_t n, Bin bin, std::uint32_t* hist,
                                                        int bins) {
  extern __shared__ std::uint32_t shared[];
  std::uint32_t* block = shared + kWarps * lane_words(bins);
  for (std::size_t i = threadIdx.x; i < kWarps * lane_words(bins) + bins; i += blockDim.x) shared[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  std::uint32_t* lanes = shared + threadIdx.x / 32 * lane_words(bins);
  // A round gives each lane at most 65,534 samples (whole vectors, plus at
  // most one of the tail), so no 16-bit counter can overflow within it.
  constexpr int kVec = Vec<T>::kVec;
  const std::int64_t threads = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t round = threads * (65534 / kVec) * kVec;
  for (std::int64_t first = 0; first < n; first += round) {
    const std::int64_t count = n - first < round ? n - first : round;
    for_each_sample<kLoads>(samples + first, count, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x, threads,
                            [&](T s) {
                              const int b = bin(s);
                              if (b >= 0) lanes[(b >> 1) * 32 + lane] += 1u << ((b & 1) * 16);
                            });
    drain(lanes, block, bins);
  }
  __syncthreads();
  merge_shared(block, hist, bins);
}

struct PerLane {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t shared) {
    int bins = 1;
    while (lane_shared_bytes(bins + 1) <= shared) ++bins;
    return bins;
  }
  static std::size_t shared_bytes(const Problem& p) { return lane_shared_bytes(p.bins); }
  template <class T, class Bin>
  static auto main_kernel() {
    return &per_lane<T, Bin>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    GPUBENCH_CUDA(cudaMemsetAsync(p.hist, 0, p.bins * sizeof(std::uint32_t), ws.stream));
    if (p.n == 0) return;
    const std::size_t shared = shared_bytes(p);
    auto* kernel = main_kernel<T, Bin>();
    allow_shared(kernel, shared);
    const unsigned grid = std::min(resident_blocks(kernel, kWarps * 32, shared), blocks_for(p.n, kWarps * 32));
    kernel<<<grid, kWarps * 32, shared, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin, p.hist, p.bins);
    GPUBENCH_CHECK_LAUNCH();
  }
};

}  // namespace
}  // namespace gpubench::histogram

GPUBENCH_HISTOGRAM_STEP(per_lane, PerLane, Ladder::modern,
                        "16-bit counters per lane, one bank per lane: no atomics, no conflicts")
