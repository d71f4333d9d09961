// reduce3 — first add during the global load (slides, kernel 4).
// Each thread loads two elements a block apart and adds them before the tree,
// so a block covers 2*blockDim elements and half as many blocks are launched:
// no thread is idle in the first step any more. Also the course's third step
// (shared memory), registered as course3.
// It costs a second load per thread before its first add; the tree and its
// log2(block) barriers are unchanged.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce3_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const std::int64_t i = std::int64_t(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  sdata[threadIdx.x] = Op{}(load_or_identity<T, Op>(in, i, n),
                            load_or_identity<T, Op>(in, i + blockDim.x, n));
  __syncthreads();
  const T v = tree_sequential<T, Op>(sdata);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce3 : Multipass<Reduce3, 2> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{reduce3_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce3, Reduce3, Ladder::slides, false,
                     "first add during the global load: half the blocks, no idle first step")
