// double-buffered — two shared-memory stages filled by asynchronous copies.
// The bank-conflict-free kernel waits for each slab to arrive before it
// computes on it. Here the block keeps two slabs in shared memory: while it
// computes on one, cp.async (Ampere and later) copies the next one from
// global memory straight into the other, without passing through registers,
// so memory latency hides behind the multiply-adds. A still lands transposed
// (4-byte copies); B arrives in 16-byte copies when n allows. Copies that
// would read past the matrix edge fill zeros instead (the zero-fill operand).
// It costs twice the shared memory (16640 against 8320 bytes) and four 4-byte
// cp.async copies of A where one 16-byte load did: 0.94x at 4096^3.
#include <cuda_pipeline.h>

#include "kernels/gemm/vectorized_tile.cuh"

namespace gpubench::gemm {
namespace {

using vectorized::kBK, vectorized::kBM, vectorized::kBN, vectorized::kThreads, vectorized::kTM, vectorized::kTN;
constexpr int kLdA = kBM + 4;  // padded as in bank_conflict_free

// Issues the copies of slab k0 into one stage.
template <bool kVec>
__device__ __forceinline__ void copy_slab(const float* a, const float* b, float* as, float* bs, int row0, int col0,
                                          int k0, int m, int n, int k) {
  const int a_row = threadIdx.x / (kBK / 4), a_col = (threadIdx.x % (kBK / 4)) * 4;
  const int b_row = threadIdx.x / (kBN / 4), b_col = (threadIdx.x % (kBN / 4)) * 4;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int row = row0 + a_row, col = k0 + a_col + i;
    const bool in = row < m && col < k;
    __pipeline_memcpy_async(&as[(a_col + i) * kLdA + a_row], in ? a + std::int64_t(row) * k + col : a, 4,
                            in ? 0 : 4);
  }
  const int row = k0 + b_row;
  if constexpr (kVec) {
    const int col = col0 + b_col;
    const bool in = row < k && col < n;
    __pipeline_memcpy_async(&bs[b_row * kBN + b_col], in ? b + std::int64_t(row) * n + col : b, 16, in ? 0 : 16);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int col = col0 + b_col + j;
      const bool in = row < k && col < n;
      __pipeline_memcpy_async(&bs[b_row * kBN + b_col + j], in ? b + std::int64_t(row) * n + col : b, 4, in ? 0 : 4);
    }
  }
  __pipeline_commit();
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads) double_buffered_kernel(const float* a, const float* b, float* c, int m,
                                                                    int n, int k) {
  __shared__ __align__(16) float as[2][kBK * kLdA];
  __shared__ __align__(16) float bs[2][kBK * kBN];
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int thread_col = threadIdx.x % (kBN / kTN), thread_row = threadIdx.x / (kBN / kTN);
  float acc[kTM][kTN] = {};
  float reg_a[kTM], reg_b[kTN];
  const int slabs = ceil_div(k, kBK);
  copy_slab<kVec>(a, b, as[0], bs[0], row0, col0, 0, m, n, k);
  for (int s = 0; s < slabs; ++s) {
    if (s + 1 < slabs) {
      copy_slab<kVec>(a, b, as[(s + 1) % 2], bs[(s + 1) % 2], row0, col0, (s + 1) * kBK, m, n, k);
      __pipeline_wait_prior(1);  // slab s has landed; s + 1 may still be in flight
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    const float* sa = as[s % 2];
    const float* sb = bs[s % 2];
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
#pragma unroll
      for (int i = 0; i < kTM; i += 4)
        vectorized::unpack(*reinterpret_cast<const float4*>(&sa[p * kLdA + thread_row * kTM + i]), &reg_a[i]);
#pragma unroll
      for (int j = 0; j < kTN; j += 4)
        vectorized::unpack(*reinterpret_cast<const float4*>(&sb[p * kBN + thread_col * kTN + j]), &reg_b[j]);
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];
    }
    __syncthreads();  // this stage is refilled two slabs from now
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; j += 4)
      vectorized::store4<kVec>(c, row0 + thread_row * kTM + i, col0 + thread_col * kTN + j, m, n, n,
                               make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  if (p.n % 4 == 0)
    double_buffered_kernel<true><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  else
    double_buffered_kernel<false><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(double_buffered, Ladder::cuda_core, Precision::fp32,
                   "two shared stages filled by cp.async: the next slab loads during this one's math", run,
                   double_buffered_kernel<true>)
