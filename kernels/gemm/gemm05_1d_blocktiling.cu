// 1d-blocktiling — each thread a column of TM outputs in registers.
// A block computes a 64 x 64 tile of C in slabs of BK = 8 along k. Each
// thread keeps TM = 8 results of one column in registers and, per slab
// element, loads one B value from shared memory and reuses it for all 8:
// 9 shared loads per 8 multiply-adds, against 2 per multiply-add in the
// 32 x 32 tiling.
// It costs two barriers every 8 k-steps instead of every 32, and 37 registers a
// thread against coarsened's 32 (gemm-4096.txt).
#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 64, kBN = 64, kBK = 8, kTM = 8;
constexpr int kThreads = kBM * kBN / kTM;  // 512

__global__ void __launch_bounds__(kThreads) blocktiling_1d_kernel(const float* a, const float* b, float* c, int m,
                                                                   int n, int k) {
  __shared__ float as[kBM * kBK];
  __shared__ float bs[kBK * kBN];
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int thread_col = threadIdx.x % kBN, thread_row = threadIdx.x / kBN;  // 64 x 8
  const int a_row = threadIdx.x / kBK, a_col = threadIdx.x % kBK;            // 64 x 8 loads of A
  const int b_row = threadIdx.x / kBN, b_col = threadIdx.x % kBN;            // 8 x 64 loads of B
  float acc[kTM] = {};
  for (int k0 = 0; k0 < k; k0 += kBK) {
    as[a_row * kBK + a_col] = at_or_zero(a, row0 + a_row, k0 + a_col, m, k, k);
    bs[b_row * kBN + b_col] = at_or_zero(b, k0 + b_row, col0 + b_col, k, n, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
      const float bv = bs[p * kBN + thread_col];
#pragma unroll
      for (int i = 0; i < kTM; ++i) acc[i] += as[(thread_row * kTM + i) * kBK + p] * bv;
    }
    __syncthreads();
  }
  const int col = col0 + thread_col;
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = row0 + thread_row * kTM + i;
    if (row < m && col < n) c[std::int64_t(row) * n + col] = acc[i];
  }
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  blocktiling_1d_kernel<<<grid, kThreads, 0, ws.stream>>>(p.a,
                                                           p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(blocktiling_1d, Ladder::cuda_core, Precision::fp32,
                   "1D register tiling: 64x64x8 block tile, 8 outputs per thread", run, blocktiling_1d_kernel)
