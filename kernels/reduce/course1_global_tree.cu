// course1 — reduction tree in global memory (course lecture 10, first kernel).
// Each block owns 2*blockDim consecutive elements; thread t owns element 2t
// and at stride s (1, 2, 4, ...) threads whose index is a multiple of s add
// the element s to their right, in place in the input. Every level goes
// through global memory, the accesses are strided, and warps diverge.
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void course1_kernel(T* in, T* out, std::int64_t n) {
  const std::int64_t segment = std::int64_t(blockIdx.x) * blockDim.x * 2;
  const std::int64_t i = segment + 2 * threadIdx.x;
  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    if (threadIdx.x % stride == 0 && i + stride < n) in[i] = Op{}(in[i], in[i + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = segment < n ? in[segment] : Op::template identity<T>();
}

struct Course1 : Multipass<Course1, 2> {
  template <class T, class Op>
  static auto launch(const Problem&) {
    return Launch{course1_kernel<T, Op>, std::size_t{0}};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(course1, Course1, Ladder::course, true,
                     "tree in global memory, in place: strided, divergent")
