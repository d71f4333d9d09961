// coarsened — thread coarsening (course lecture 6).
// Each thread computes kCoarse outputs kTile columns apart, so a block covers
// a 32 x (32 * kCoarse) strip of C. The A tile of a phase is loaded once and
// used for all kCoarse B tiles: fewer A loads and fewer blocks, at the price
// of kCoarse accumulators per thread.
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kTile = 32;
constexpr int kCoarse = 4;

__global__ void coarsened_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col0 = blockIdx.x * kTile * kCoarse + tx;
  float acc[kCoarse] = {};
  for (int k0 = 0; k0 < k; k0 += kTile) {
    as[ty][tx] = at_or_zero(a, row, k0 + tx, m, k, k);
#pragma unroll
    for (int j = 0; j < kCoarse; ++j) {
      bs[ty][tx] = at_or_zero(b, k0 + ty, col0 + j * kTile, k, n, n);
      __syncthreads();
#pragma unroll
      for (int p = 0; p < kTile; ++p) acc[j] += as[ty][p] * bs[p][tx];
      __syncthreads();
    }
  }
#pragma unroll
  for (int j = 0; j < kCoarse; ++j) {
    const int col = col0 + j * kTile;
    if (row < m && col < n) c[std::int64_t(row) * n + col] = acc[j];
  }
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 block(kTile, kTile), grid(ceil_div(p.n, kTile * kCoarse), ceil_div(p.m, kTile));
  coarsened_kernel<<<grid, block, 0, ws.stream>>>(p.a, p.b,
                                                   p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(coarsened, Ladder::cuda_core, Precision::fp32,
                   "thread coarsening: 4 outputs per thread share each A tile", run, coarsened_kernel)
