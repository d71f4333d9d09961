// reduce5 — completely unrolled (slides, kernel 6).
// The block size becomes a template parameter, so the whole tree unrolls into
// straight-line code: no loop counters, and the tests on the block size are
// resolved at compile time. It costs code size: one instantiation per legal
// block size (32 to 1024), per type and operator, chosen on the host.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"

namespace gpubench::reduce {
namespace {

template <unsigned kBlock, class T, class Op>
__global__ void reduce5_kernel(const T* in, T* out, std::int64_t n) {
  T* sdata = shared_array<T>();
  const std::int64_t i = std::int64_t(blockIdx.x) * (2 * kBlock) + threadIdx.x;
  T v = Op{}(load_or_identity<T, Op>(in, i, n), load_or_identity<T, Op>(in, i + kBlock, n));
  sdata[threadIdx.x] = v;
  __syncthreads();
  v = tree_unrolled<kBlock, T, Op>(sdata, v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce5 : Multipass<Reduce5, 2> {
  template <class T, class Op>
  static auto launch(const Problem& p) {
    auto kernel = with_block_size(p.block, [](auto b) { return reduce5_kernel<decltype(b)::value, T, Op>; });
    return Launch{kernel, p.block * sizeof(T)};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce5, Reduce5, Ladder::slides, false,
                     "completely unrolled, block size as a template parameter")
