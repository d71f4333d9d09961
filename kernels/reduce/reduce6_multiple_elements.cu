// reduce6 — multiple elements per thread (slides, kernel 7).
// The grid is sized to what the GPU holds at once and each thread walks the
// input with a grid-stride loop, adding many elements in registers before the
// (unrolled) tree runs once. Fewer blocks means fewer trees, barriers and
// partials per element: the work per element approaches one load and one add.
// For float types it costs accuracy: each thread adds its hundreds of elements
// in one serial chain, whose rounding error grows with the chain's length.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"
#include "kernels/reduce/thread_loads.cuh"

namespace gpubench::reduce {
namespace {

template <unsigned kBlock, class T, class Op>
__global__ void reduce6_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  T v = grid_stride_pairs<T, Op>(in, n);
  sdata[threadIdx.x] = v;
  __syncthreads();
  v = tree_unrolled<kBlock, T, Op>(sdata, v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce6 : GridStride<Reduce6, 2> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    auto kernel = with_block_size(p.block, [](auto b) { return reduce6_kernel<decltype(b)::value, T, Op>; });
    return Launch{kernel, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce6, Reduce6, Ladder::slides, false,
                     "multiple elements per thread: grid-stride loop, grid sized to the GPU")
