// coalesced — the same work, the warp along a row of C (course lecture 6).
// threadIdx.x now walks along a row of C: a warp reads one element of A
// (broadcast) and 32 consecutive elements of B per step, and writes 32
// consecutive elements of C. One transaction where naive needed 32.
// It costs nothing (32 registers, no shared memory, as naive), and every
// element of A and B is still read from global memory k times: 5.75
// TFLOP/s at 4096^3, 11.3% of cuBLAS.
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

__global__ void coalesced_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[std::int64_t(row) * k + p] * b[std::int64_t(p) * n + col];
  c[std::int64_t(row) * n + col] = acc;
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 block(32, 32), grid(ceil_div(p.n, 32), ceil_div(p.m, 32));
  coalesced_kernel<<<grid, block, 0, ws.stream>>>(p.a, p.b,
                                                   p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(coalesced, Ladder::cuda_core, Precision::fp32,
                   "warp along a row of C: coalesced B loads and C stores", run, coalesced_kernel)
