// reduce9 — single pass: one launch, last block done.
// reduce8 needs a second launch to fold its per-block partials, and at small
// sizes that launch and the gap before it cost as much as the work. Here each
// block writes its partial, then takes a ticket from an atomic counter; the
// block that draws the last ticket knows every other partial is visible and
// folds them itself, then resets the counter for the next launch.
// Tickets and the fold grow with the grid (measured at 2^22 on an H200: about
// 1 us plus 1 ns a block, and one L2 round trip per partial a thread folds in
// turn), so the grid is not reduce8's full occupancy: each SM gets enough
// threads for 32 KB of loads in flight (512 threads, 4 loads of 16 bytes) in
// at least 4 blocks, never more than 1024 threads; and the last block issues
// kFoldLoads independent loads per trip over the partials. A thread's loads
// go kVectorLoadsInFlight at a time, and the vectors left after its last
// whole batch go one DRAM round trip each (at 2^22 with 528 blocks, 7.76
// vectors a thread: 3 round trips after the batch), so the grid shrinks
// until the vectors split into whole batches per thread (512 blocks of 8
// vectors), unless that would take away more than a quarter of its blocks
// and of the bytes they keep in flight (sizes where a thread has at most
// two vectors left over).
#include <algorithm>

#include <cuda/atomic>

#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"
#include "kernels/reduce/thread_loads.cuh"

namespace gpubench::reduce {
namespace {

// Scratch layout: the ticket counter, padded to 16 bytes, then one partial per block.
constexpr std::size_t kCounterBytes = 16;
constexpr int kFoldLoads = 8;

template <class T, class Op>
__global__ void reduce9_kernel(const T* in, T* out, std::int64_t n, unsigned* counter, T* partials) {
  __shared__ T warp_partials[32];
  __shared__ bool last_block;
  T v = grid_stride_vectorized<T, Op>(in, n);
  v = block_reduce_shuffle<T, Op>(v, warp_partials);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    // Release our partial, acquire everyone else's if we are last.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*counter);
    last_block = ticket.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  v = Op::template identity<T>();
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kFoldLoads * blockDim.x) {
    T chunk[kFoldLoads];
#pragma unroll
    for (int u = 0; u < kFoldLoads; ++u) {
      const unsigned i = b + u * blockDim.x;
      chunk[u] = i < gridDim.x ? __ldcg(partials + i) : Op::template identity<T>();
    }
#pragma unroll
    for (int u = 0; u < kFoldLoads; ++u) v = Op{}(v, chunk[u]);
  }
  v = block_reduce_shuffle<T, Op>(v, warp_partials);
  if (threadIdx.x == 0) {
    out[0] = v;
    *counter = 0;
  }
}

constexpr int kLoadThreadsPerSm = 512, kMinBlocksPerSm = 4, kMaxThreadsPerSm = 1024;
// A grid of whole load batches is taken when it keeps at least this share
// of the capped grid's blocks (numerator / denominator).
constexpr int kWholeBatchesKeep = 3, kWholeBatchesOf = 4;

struct Reduce9 {
  template <class T>
  static unsigned grid(const Problem& p, const Workspace& ws) {
    const int per_sm = std::max(1, std::min(kMaxThreadsPerSm / p.block,
                                            std::max(kMinBlocksPerSm, kLoadThreadsPerSm / p.block)));
    const unsigned cap = unsigned(ws.sm_count) * unsigned(per_sm);
    const unsigned most = std::min(cap, GridStrideTwoPass<kVectorLoadsInFlight, 16>::grid<T>(p, ws));
    const std::int64_t vectors = p.n / (16 / std::int64_t(sizeof(T)));
    const std::int64_t batches = ceil_div(std::max<std::int64_t>(1, ceil_div(vectors, std::int64_t(most) * p.block)),
                                          kVectorLoadsInFlight);
    const std::int64_t threads = ceil_div(vectors, batches * kVectorLoadsInFlight);
    const std::int64_t whole = std::clamp<std::int64_t>(ceil_div(threads, p.block), 1, most);
    return whole * kWholeBatchesOf >= std::int64_t(most) * kWholeBatchesKeep ? unsigned(whole) : most;
  }
  template <class T, class Op>
  static std::size_t scratch_bytes(const Problem& p, const Workspace& ws) {
    return kCounterBytes + grid<T>(p, ws) * sizeof(T);
  }
  template <class T, class Op>
  static void run(const Problem& p, const Workspace& ws) {
    auto* counter = static_cast<unsigned*>(ws.scratch);
    auto* partials = reinterpret_cast<T*>(static_cast<char*>(ws.scratch) + kCounterBytes);
    reduce9_kernel<T, Op><<<grid<T>(p, ws), p.block, 0, ws.stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, counter, partials);
    GPUBENCH_CHECK_LAUNCH();
  }
  template <class T, class Op>
  static Resources resources(const Problem&) {
    return resources_of(reduce9_kernel<T, Op>);
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce9, Reduce9, Ladder::modern, false,
                     "single pass: vectorized loads, last block folds the partials")
