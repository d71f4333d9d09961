// reduce1 — interleaved addressing with a strided index (slides, kernel 2).
// Thread tid now works on element 2*s*tid, so the active threads are the
// first ones of the block and whole warps retire together: no divergence and
// no `%`. But at stride s, lanes of a warp touch words 2*s apart, which land
// in the same shared-memory bank: 2-way, 4-way, ... bank conflicts.
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce1_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  sdata[tid] = load_or_identity<T, Op>(in, i, n);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] = Op{}(sdata[index], sdata[index + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

struct Reduce1 : Multipass<Reduce1, 1> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{reduce1_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce1, Reduce1, Ladder::slides, false,
                     "interleaved addressing, strided index: no divergence, bank conflicts")
