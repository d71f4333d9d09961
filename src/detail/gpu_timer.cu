#include "src/detail/gpu_timer.hpp"

#include <atomic>
#include <chrono>

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

// Spins until the host sets *release (or about a second passes, so a host
// that never releases cannot hang the GPU).
__global__ void hold_stream(volatile int* release) {
  const long long start = clock64();
  while (*release == 0 && clock64() - start < 2000000000LL) {
  }
}

}  // namespace

GpuTimer::GpuTimer(cudaStream_t stream, std::size_t flush_bytes) : stream_(stream), flush_(flush_bytes) {
  GPUBENCH_CUDA(cudaGetDevice(&device_));
  if (flush_bytes) GPUBENCH_CUDA(cudaMemsetAsync(flush_.get(), 0, flush_bytes, stream_));
  GPUBENCH_CUDA(cudaEventCreate(&start_));
  GPUBENCH_CUDA(cudaEventCreate(&stop_));
  void* flag = nullptr;
  GPUBENCH_CUDA(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  release_ = static_cast<volatile int*>(flag);
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaFreeHost(const_cast<int*>(release_));
}

void GpuTimer::flush_l2() {
  if (!flush_.bytes()) return;
  read_to_evict_l2<<<1024, 256, 0, stream_>>>(static_cast<const int4*>(flush_.get()), flush_.bytes() / sizeof(int4),
                                              static_cast<int*>(flush_.get()));
  GPUBENCH_CHECK_LAUNCH();
}

double GpuTimer::time_on_host(const std::vector<GpuTimer*>& timers, const std::function<void()>& prepare,
                              const std::function<void()>& body) {
  const auto on_each = [&](auto&& f) {
    for (GpuTimer* t : timers) {
      GPUBENCH_CUDA(cudaSetDevice(t->device_));
      f(*t);
    }
    GPUBENCH_CUDA(cudaSetDevice(timers.front()->device_));
  };
  if (prepare) prepare();
  on_each([](GpuTimer& t) { t.flush_l2(); });
  on_each([](GpuTimer&) { GPUBENCH_CUDA(cudaDeviceSynchronize()); });
  const auto t0 = std::chrono::steady_clock::now();
  body();
  on_each([](GpuTimer&) { GPUBENCH_CUDA(cudaDeviceSynchronize()); });
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double GpuTimer::time(const std::function<void()>& prepare, const std::function<void()>& body) {
  if (prepare) prepare();
  flush_l2();
  *release_ = 0;
  int* device_flag = nullptr;
  GPUBENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), const_cast<int*>(release_), 0));
  hold_stream<<<1, 1, 0, stream_>>>(device_flag);
  GPUBENCH_CHECK_LAUNCH();
  GPUBENCH_CUDA(cudaEventRecord(start_, stream_));
  try {
    body();
  } catch (...) {
    *release_ = 1;
    throw;
  }
  GPUBENCH_CUDA(cudaEventRecord(stop_, stream_));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *release_ = 1;
  GPUBENCH_CUDA(cudaEventSynchronize(stop_));
  float ms = 0;
  GPUBENCH_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

}  // namespace gpubench
