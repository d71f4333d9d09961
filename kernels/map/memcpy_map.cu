// The ceiling: cudaMemcpyAsync of the first input into the output, device to
// device (n elements; for grayscale n bytes). It reads and writes about as
// many bytes as the operation moves, with no arithmetic, so its GB/s (of
// the bytes it moves) is what the kernels' GB/s is measured against.
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

void run_copy(const Problem& p, const Workspace& ws) {
  const std::size_t bytes = std::size_t(p.n) * (p.op == Op::grayscale ? 1 : dtype_size(p.dtype));
  GPUBENCH_CUDA(cudaMemcpyAsync(p.out, p.a, bytes, cudaMemcpyDeviceToDevice, ws.stream));
}

}  // namespace

const Step& step_memcpy() {
  static const Step step{"memcpy", Ladder::baseline, "cudaMemcpyAsync of the input, device to device", Where::device,
                         &run_copy, nullptr, false, true};
  return step;
}

}  // namespace gpubench::map
