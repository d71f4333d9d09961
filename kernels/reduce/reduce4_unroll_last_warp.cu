// reduce4 — unroll the last warp (slides, kernel 5).
// Once 32 or fewer threads are active they all sit in one warp, so the
// __syncthreads() barriers and the `tid < s` tests of the last six tree levels
// are wasted: one warp finishes the tree alone. The slides' `volatile`
// version is a race on Volta and later; see warp_tail_shared for the
// __syncwarp() version used here.
// It costs two __syncwarp() and a shared store by all 32 lanes per tail level,
// where reduce3 stored from the active lanes only.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce4_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const std::int64_t i = std::int64_t(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  T v = Op{}(load_or_identity<T, Op>(in, i, n), load_or_identity<T, Op>(in, i + blockDim.x, n));
  sdata[threadIdx.x] = v;
  __syncthreads();
  v = tree_warp_tail<T, Op>(sdata, v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce4 : Multipass<Reduce4, 2> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{reduce4_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce4, Reduce4, Ladder::slides, false,
                     "last warp unrolled with __syncwarp: no barriers for the last 6 levels")
