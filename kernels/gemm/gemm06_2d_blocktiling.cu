// 2d-blocktiling — an 8 x 8 outer product per thread (course lecture P24).
// A block computes a 128 x 128 tile of C in slabs of BK = 8. Per slab
// element each thread loads 8 values of A and 8 of B from shared memory into
// registers and does their 64 products: 16 shared loads for 64 multiply-adds
// (1D tiling needed 9 for 8). The arithmetic now outweighs the loads.
// It costs registers: 128 a thread against blocktiling_1d's 37 (gemm-4096.txt),
// for 64 accumulators and 16 operands, so fewer threads fit an SM.
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 8, kTM = 8, kTN = 8;
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256

__global__ void __launch_bounds__(kThreads) blocktiling_2d_kernel(const float* a, const float* b, float* c, int m,
                                                                   int n, int k) {
  __shared__ float as[kBM * kBK];
  __shared__ float bs[kBK * kBN];
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int thread_col = threadIdx.x % (kBN / kTN), thread_row = threadIdx.x / (kBN / kTN);
  const int a_row = threadIdx.x / kBK, a_col = threadIdx.x % kBK;  // rows a_row + 32 i
  const int b_row = threadIdx.x / kBN, b_col = threadIdx.x % kBN;  // rows b_row + 2 i
  constexpr int kStrideA = kThreads / kBK, kStrideB = kThreads / kBN;
  float acc[kTM][kTN] = {};
  float reg_a[kTM], reg_b[kTN];
  for (int k0 = 0; k0 < k; k0 += kBK) {
#pragma unroll
    for (int r = 0; r < kBM; r += kStrideA)
      as[(a_row + r) * kBK + a_col] = at_or_zero(a, row0 + a_row + r, k0 + a_col, m, k, k);
#pragma unroll
    for (int r = 0; r < kBK; r += kStrideB)
      bs[(b_row + r) * kBN + b_col] = at_or_zero(b, k0 + b_row + r, col0 + b_col, k, n, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
#pragma unroll
      for (int i = 0; i < kTM; ++i) reg_a[i] = as[(thread_row * kTM + i) * kBK + p];
#pragma unroll
      for (int j = 0; j < kTN; ++j) reg_b[j] = bs[p * kBN + thread_col * kTN + j];
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = row0 + thread_row * kTM + i;
#pragma unroll
    for (int j = 0; j < kTN; ++j) {
      const int col = col0 + thread_col * kTN + j;
      if (row < m && col < n) c[std::int64_t(row) * n + col] = acc[i][j];
    }
  }
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  blocktiling_2d_kernel<<<grid, kThreads, 0, ws.stream>>>(p.a,
                                                           p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(blocktiling_2d, Ladder::cuda_core, Precision::fp32,
                   "2D register tiling: 128x128x8 block tile, 8x8 outer product per thread", run,
                   blocktiling_2d_kernel)
