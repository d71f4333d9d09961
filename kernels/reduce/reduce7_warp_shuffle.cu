// reduce7 — warp-shuffle tree (Kepler and later).
// The tree no longer goes through shared memory: each warp folds its 32
// values with __shfl_down_sync (registers to registers), one value per warp
// is parked in shared memory, and the first warp folds those. One barrier
// per block instead of log2(block), and no shared-memory traffic to speak of.
// It costs nothing, and buys little on the H200: after reduce6's
// grid-stride loop the tree is a small part of the time (1.00x at 2^28,
// 0.92x to 1.09x at 2^22 over three runs, int32 sum).
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"
#include "kernels/reduce/thread_loads.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce7_kernel(const T* in, T* out, std::int64_t n) {
  __shared__ T warp_partials[32];
  T v = grid_stride_pairs<T, Op>(in, n);
  v = block_reduce_shuffle<T, Op>(v, warp_partials);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce7 : GridStride<Reduce7, 2> {
  template <class T, class Op>
  static auto launch(const Problem&) {
    return Launch{reduce7_kernel<T, Op>, std::size_t{0}};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce7, Reduce7, Ladder::modern, false,
                     "warp-shuffle tree: registers instead of shared memory, one barrier")
