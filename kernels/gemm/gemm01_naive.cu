// naive — one thread per output element (course lecture 3).
// Thread (x, y) computes C[x][y] as a k-long dot product, straight from
// global memory. threadIdx.x walks down a column of C, so the 32 threads of
// a warp read 32 different rows of A (32 separate transactions) and write
// 32 different rows of C: nothing is coalesced and nothing is reused.
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[std::int64_t(row) * k + p] * b[std::int64_t(p) * n + col];
  c[std::int64_t(row) * n + col] = acc;
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 block(32, 32), grid(ceil_div(p.m, 32), ceil_div(p.n, 32));
  naive_kernel<<<grid, block, 0, ws.stream>>>(p.a, p.b, p.c,
                                               p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(naive, Ladder::cuda_core, Precision::fp32,
                   "one thread per output, threadIdx.x down a column: uncoalesced", run, naive_kernel)
