// cub — the library baseline: cub::DeviceReduce from the CUDA toolkit, with
// its own tuning for this architecture. Every hand-written step is measured
// against it.
#include <cub/device/device_reduce.cuh>
#include <type_traits>

#include "kernels/reduce/step_registration.cuh"
#include "src/detail/cuda_check.hpp"

namespace gpubench::reduce {
namespace {

struct CubReduce {
  // One entry point for both calls: with temp == nullptr CUB only reports
  // the scratch size it needs.
  template <class T, class Op>
  static void call(void* temp, std::size_t& bytes, const Problem& p, cudaStream_t stream) {
    const T* in = static_cast<const T*>(p.in);
    T* out = static_cast<T*>(p.out);
    if constexpr (std::is_same_v<Op, SumOp>)
      GPUBENCH_CUDA(cub::DeviceReduce::Sum(temp, bytes, in, out, p.n, stream));
    else if constexpr (std::is_same_v<Op, MinOp>)
      GPUBENCH_CUDA(cub::DeviceReduce::Min(temp, bytes, in, out, p.n, stream));
    else
      GPUBENCH_CUDA(cub::DeviceReduce::Max(temp, bytes, in, out, p.n, stream));
  }
  template <class T, class Op>
  static std::size_t scratch_bytes(const Problem& p, const Workspace& ws) {
    std::size_t bytes = 0;
    call<T, Op>(nullptr, bytes, p, ws.stream);
    return bytes;
  }
  template <class T, class Op>
  static void run(const Problem& p, const Workspace& ws) {
    std::size_t bytes = scratch_bytes<T, Op>(p, ws);
    call<T, Op>(ws.scratch, bytes, p, ws.stream);
  }
};

}  // namespace
}  // namespace gpubench::reduce

GPUBENCH_REDUCE_LIBRARY_STEP(cub, CubReduce, Ladder::baseline, false,
                     "cub::DeviceReduce (CUDA toolkit library)")
