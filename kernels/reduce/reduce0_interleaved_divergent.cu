// reduce0 — interleaved addressing with divergent branching (slides, kernel 1).
// Each block loads one element per thread into shared memory and folds it as a
// tree: at stride s, threads whose index is a multiple of 2s add the partner
// s away. The test `tid % (2*s)` leaves most lanes of every warp idle yet
// still scheduled (divergence), and `%` is slow. The starting point.
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce0_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = load_or_identity<T, Op>(in, i, n);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] = Op{}(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

struct Reduce0 : Multipass<Reduce0, 1> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{reduce0_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce0, Reduce0, Ladder::slides, false,
                     "interleaved addressing, tid % (2*s): divergent warps")
