// reduce9 — single pass: one launch, last block done.
// reduce8 needs a second launch to fold its per-block partials, and at small
// sizes that launch and the gap before it cost as much as the work. Here each
// block writes its partial, then takes a ticket from an atomic counter; the
// block that draws the last ticket knows every other partial is visible and
// folds them itself, then resets the counter for the next launch. Every
// block costs a ticket on one counter and a partial for the last block to
// fold, so the grid holds kThreadsPerSm threads per SM whatever the block
// size (reduce8's full-occupancy grid gave 128-thread blocks 2048 tickets
// at 2^22 and made reduce9 slower than reduce8 there); 16-byte loads, 4 in
// flight per thread, keep 64 KB per SM in flight at that occupancy.
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
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) v = Op{}(v, __ldcg(partials + b));
  v = block_reduce_shuffle<T, Op>(v, warp_partials);
  if (threadIdx.x == 0) {
    out[0] = v;
    *counter = 0;
  }
}

constexpr int kThreadsPerSm = 1024;

struct Reduce9 {
  template <class T>
  static unsigned grid(const Problem& p, const Workspace& ws) {
    const unsigned cap = unsigned(ws.sm_count) * unsigned(std::max(1, kThreadsPerSm / p.block));
    return std::min(cap, GridStrideTwoPass<kVectorLoadsInFlight, 16>::grid<T>(p, ws));
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
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce9, Reduce9, Ladder::modern, false,
                     "single pass: vectorized loads, last block folds the partials")
