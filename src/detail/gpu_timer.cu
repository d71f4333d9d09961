#include "src/detail/gpu_timer.hpp"

#include "src/detail/cuda_check.hpp"

namespace gpubench {
namespace {

// Evicts the L2 by reading a buffer twice its size. Reading rather than
// writing (cudaMemset) leaves clean lines behind: a memset would leave L2
// full of dirty lines whose write-back would then steal DRAM bandwidth from
// the timed kernel. The store never happens (the buffer is zeros) but keeps
// the loads alive.
__global__ void read_to_evict_l2(const int4* buf, std::size_t n, int* sink) {
  int acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const int4 v = buf[i];
    acc |= v.x | v.y | v.z | v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

}  // namespace

GpuTimer::GpuTimer(cudaStream_t stream, std::size_t flush_bytes) : stream_(stream), flush_(flush_bytes) {
  if (flush_bytes) GPUBENCH_CUDA(cudaMemsetAsync(flush_.get(), 0, flush_bytes, stream_));
  GPUBENCH_CUDA(cudaEventCreate(&start_));
  GPUBENCH_CUDA(cudaEventCreate(&stop_));
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

double GpuTimer::time(const std::function<void()>& prepare, const std::function<void()>& body) {
  if (prepare) prepare();
  if (flush_.bytes()) {
    read_to_evict_l2<<<1024, 256, 0, stream_>>>(static_cast<const int4*>(flush_.get()), flush_.bytes() / sizeof(int4),
                                                static_cast<int*>(flush_.get()));
    GPUBENCH_CHECK_LAUNCH();
  }
  GPUBENCH_CUDA(cudaEventRecord(start_, stream_));
  body();
  GPUBENCH_CUDA(cudaEventRecord(stop_, stream_));
  GPUBENCH_CUDA(cudaEventSynchronize(stop_));
  float ms = 0;
  GPUBENCH_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

}  // namespace gpubench
