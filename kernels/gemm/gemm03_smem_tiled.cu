// smem-tiled — shared-memory tiling (course lecture 5).
// A block computes a 32 x 32 tile of C. Per phase it loads a 32 x 32 tile
// of A and one of B into shared memory (each thread one element of each),
// waits, and every thread takes its 32 multiply-adds from shared memory.
// Each element loaded from global memory is now used 32 times.
// It costs 8192 bytes of shared memory a block, two barriers per 32-deep phase,
// and zero-padded edge tiles whose products are computed anyway.
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kTile = 32;

__global__ void smem_tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    as[ty][tx] = at_or_zero(a, row, k0 + tx, m, k, k);
    bs[ty][tx] = at_or_zero(b, k0 + ty, col, k, n, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kTile; ++p) acc += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[std::int64_t(row) * n + col] = acc;
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 block(kTile, kTile), grid(ceil_div(p.n, kTile), ceil_div(p.m, kTile));
  smem_tiled_kernel<<<grid, block, 0, ws.stream>>>(p.a, p.b,
                                                    p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(smem_tiled, Ladder::cuda_core, Precision::fp32,
                   "32x32 shared-memory tiles, two barriers per phase: 32x reuse", run, smem_tiled_kernel)
