#include "kernels/transfer/transfer_common.hpp"

#include <algorithm>

namespace gpubench::transfer {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) vector_add(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kThreads)
    c[i] = a[i] + b[i];
}

}  // namespace

void add_on(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  int device = 0, sms = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned blocks = unsigned(std::min<std::int64_t>((n + kThreads - 1) / kThreads, std::int64_t(sms) * 8));
  vector_add<<<blocks, kThreads, 0, stream>>>(a, b, c, n);
  GPUBENCH_CHECK_LAUNCH();
}

void copy_add_copy(const Problem& p, const Workspace& ws) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(float);
  GPUBENCH_CUDA(cudaMemcpy(p.da, p.a, bytes, cudaMemcpyHostToDevice));
  GPUBENCH_CUDA(cudaMemcpy(p.db, p.b, bytes, cudaMemcpyHostToDevice));
  // A cudaMemcpy from pageable memory may return once its data is staged,
  // before the DMA lands; the harness's stream does not wait for it.
  GPUBENCH_CUDA(cudaStreamSynchronize(nullptr));
  add_on(p.da, p.db, p.dc, p.n, ws.stream);
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));  // the harness's stream does not sync with cudaMemcpy's
  GPUBENCH_CUDA(cudaMemcpy(p.c, p.dc, bytes, cudaMemcpyDeviceToHost));
}

void pipeline(const Problem& p, const Workspace& ws) {
  const std::size_t f = sizeof(float);
  for (std::int64_t first = 0, k = 0; first < p.n; first += p.chunk, ++k) {
    const std::int64_t m = std::min(p.chunk, p.n - first);
    const cudaStream_t s = ws.streams[k % p.streams];
    GPUBENCH_CUDA(cudaMemcpyAsync(p.da + first, p.a + first, m * f, cudaMemcpyHostToDevice, s));
    GPUBENCH_CUDA(cudaMemcpyAsync(p.db + first, p.b + first, m * f, cudaMemcpyHostToDevice, s));
    add_on(p.da + first, p.db + first, p.dc + first, m, s);
    GPUBENCH_CUDA(cudaMemcpyAsync(p.c + first, p.dc + first, m * f, cudaMemcpyDeviceToHost, s));
  }
}

}  // namespace gpubench::transfer
