// reduce8 — 128-bit vectorized loads, several in flight.
// At DRAM speed a thread must keep many bytes in flight to cover the memory
// latency (Little's law: ~4.8 TB/s x ~600 ns is ~3 MB across the chip). Each
// thread now issues four 16-byte loads before using any of them: a quarter
// of the load instructions of reduce7 and four times the bytes in flight.
// It costs 64 bytes of registers a thread for the four vectors in flight, and
// scalar paths for an unaligned head and a ragged tail.
#include "kernels/reduce/block_tree.cuh"
#include "kernels/reduce/multipass.cuh"
#include "kernels/reduce/step_registration.cuh"
#include "kernels/reduce/thread_loads.cuh"

namespace gpubench::reduce {
namespace {

template <class T, class Op>
__global__ void reduce8_kernel(const T* in, T* out, std::int64_t n) {
  __shared__ T warp_partials[32];
  T v = grid_stride_vectorized<T, Op>(in, n);
  v = block_reduce_shuffle<T, Op>(v, warp_partials);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

struct Reduce8 : GridStride<Reduce8, kVectorLoadsInFlight, 16> {
  template <class T, class Op>
  static auto launch(const Problem&) {
    return Launch{reduce8_kernel<T, Op>, std::size_t{0}};
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_STEP(reduce8, Reduce8, Ladder::modern, false,
                     "128-bit vectorized loads, 4 in flight per thread")
