// course4 — thread coarsening (course lecture 10, fourth kernel).
// Each thread first adds 2 * kCoarsening elements a block apart in a
// register (no barrier, no divergence), then the block runs the shared-memory
// tree once. A block covers 2 * kCoarsening * blockDim elements, so there are
// that many times fewer trees to pay for. (course3, the shared-memory tree, is
// the same kernel as reduce3.)
// It costs parallelism on small inputs: a block needs 8 x blockDim elements, so
// a given n launches a quarter of course3's blocks.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

constexpr int kCoarsening = 4;

template <class T, class Op>
__global__ void course4_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x * (2 * kCoarsening) + threadIdx.x;
  T v = Op::template identity<T>();
#pragma unroll
  for (int tile = 0; tile < 2 * kCoarsening; ++tile)
    v = Op{}(v, load_or_identity<T, Op>(in, i + std::int64_t(tile) * blockDim.x, n));
  sdata[threadIdx.x] = v;
  __syncthreads();
  v = tree_sequential<T, Op>(sdata);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Course4 : Multipass<Course4, 2 * kCoarsening> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{course4_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(course4, Course4, Ladder::course, false,
                     "thread coarsening: 8 elements per thread in registers, then the tree")
