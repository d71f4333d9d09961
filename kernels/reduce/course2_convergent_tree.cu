// course2 — convergent tree in global memory (course lecture 10, second kernel).
// Thread t now owns element t and the stride starts at blockDim and halves:
// the active threads stay contiguous (whole warps retire together) and each
// level's reads and writes are coalesced. It costs nothing: the same adds
// and barriers as course1. Still every level goes to global memory and the
// input is overwritten.
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void course2_kernel(T* in, T* out, std::int64_t n) {
  const std::int64_t segment = std::int64_t(blockIdx.x) * blockDim.x * 2;
  const std::int64_t i = segment + threadIdx.x;
  for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
    if (threadIdx.x < stride && i + stride < n) in[i] = Op{}(in[i], in[i + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = segment < n ? in[segment] : Op::template identity<T>();
}

struct Course2 : Multipass<Course2, 2> {
  template <class T, class Op>
  static auto launch(const Problem&) {
    return Launch{course2_kernel<T, Op>, std::size_t{0}};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(course2, Course2, Ladder::course, true,
                     "convergent tree in global memory: coalesced, no divergence")
