#include "src/core/checked_output.hpp"

#include <cstring>

#include "src/detail/cuda_check.hpp"

namespace gpubench {

void run_on_host(StepRun& r, const CheckedOutput& out, std::function<void()> body) {
  r.prepare = [out] { std::memset(out.host, out.poison, out.bytes); };
  r.body = std::move(body);
  r.check = out.verify;
}

void run_on_device(StepRun& r, const CheckedOutput& out, cudaStream_t stream, std::function<void()> body,
                   std::function<void()> before) {
  r.prepare = [out, stream, before = std::move(before)] {
    if (before) before();
    GPUBENCH_CUDA(cudaMemsetAsync(out.device, out.poison, out.bytes, stream));
  };
  r.body = std::move(body);
  r.check = [out, stream] {
    GPUBENCH_CUDA(cudaMemcpyAsync(out.host, out.device, out.bytes, cudaMemcpyDeviceToHost, stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(stream));
    return out.verify();
  };
}

}  // namespace gpubench
