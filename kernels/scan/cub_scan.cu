// The library baseline: cub::DeviceScan::InclusiveSum / ExclusiveSum, the
// decoupled look-back scan as NVIDIA tunes it for each GPU.
#include <cub/device/device_scan.cuh>

#include "kernels/scan/scan_common.cuh"

namespace gpubench::scan {
namespace {

// One call of CUB's scan; with scratch == nullptr it only sets bytes.
template <class T>
void cub_scan(const Problem& p, void* scratch, std::size_t& bytes, cudaStream_t stream) {
  const auto* in = static_cast<const T*>(p.in);
  auto* out = static_cast<T*>(p.out);
  if (p.kind == Kind::exclusive)
    GPUBENCH_CUDA(cub::DeviceScan::ExclusiveSum(scratch, bytes, in, out, p.n, stream));
  else
    GPUBENCH_CUDA(cub::DeviceScan::InclusiveSum(scratch, bytes, in, out, p.n, stream));
}

struct CubScan {
  template <class T>
  static std::size_t scratch_bytes(const Problem& p) {
    std::size_t bytes = 0;
    cub_scan<T>(p, nullptr, bytes, nullptr);
    return std::max<std::size_t>(1, bytes);
  }

  template <class T>
  static void run(const Problem& p, const Workspace& ws) {
    std::size_t bytes = scratch_bytes<T>(p);
    cub_scan<T>(p, ws.scratch, bytes, ws.stream);
    GPUBENCH_CHECK_LAUNCH();
  }
};

}  // namespace

const Step& step_cub() {
  static const Step step{"cub",     Ladder::baseline, "cub::DeviceScan (decoupled look-back, tuned by NVIDIA)",
                         Where::device, &scratch_dispatch<CubScan>, &run_dispatch<CubScan>, nullptr};
  return step;
}

}  // namespace gpubench::scan
