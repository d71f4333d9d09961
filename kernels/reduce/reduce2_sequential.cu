// reduce2 — sequential addressing (slides, kernel 3).
// The stride now starts at blockDim/2 and halves: thread tid adds element
// tid + s. Active threads stay contiguous and each warp reads 32 consecutive
// words, so the bank conflicts of reduce1 are gone. It costs nothing: the
// same loop and the same number of adds. Left: half the threads idle from
// the first iteration on.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce2_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = load_or_identity<T, Op>(in, i, n);
  __syncthreads();
  const T v = tree_sequential<T, Op>(sdata);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce2 : Multipass<Reduce2, 1> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    return Launch{reduce2_kernel<T, Op>, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce2, Reduce2, Ladder::slides, false,
                     "sequential addressing: conflict-free, but half the threads idle at once")
