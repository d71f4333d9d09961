// managed_prefetch — lecture 23: managed, with cudaMemPrefetchAsync moving
// a, b and c to the GPU before the kernel and c to the host after it.
// Whole ranges migrate in bulk instead of page by page (c both ways, as in
// managed; GB/s counts the 12 bytes per element the operation needs).
// It costs the code knowing where each buffer is used next: four prefetch calls
// a run, on one stream, so migrations and the add do not overlap.
#include "kernels/transfer/transfer_common.hpp"

namespace gpubench::transfer {
namespace {

void run_prefetched(const Problem& p, const Workspace& ws) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(float);
  cudaMemLocation gpu{}, host{};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = p.device;
  host.type = cudaMemLocationTypeHost;
  GPUBENCH_CUDA(cudaMemPrefetchAsync(p.a, bytes, gpu, 0, ws.stream));
  GPUBENCH_CUDA(cudaMemPrefetchAsync(p.b, bytes, gpu, 0, ws.stream));
  GPUBENCH_CUDA(cudaMemPrefetchAsync(p.c, bytes, gpu, 0, ws.stream));
  add_on(p.a, p.b, p.c, p.n, ws.stream);
  GPUBENCH_CUDA(cudaMemPrefetchAsync(p.c, bytes, host, 0, ws.stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));
}

}  // namespace
}  // namespace gpubench::transfer

GPUBENCH_TRANSFER_STEP(managed_prefetch, Ladder::course, "managed, with cudaMemPrefetchAsync to the GPU and back",
                       Memory::managed, &run_prefetched, nullptr)
