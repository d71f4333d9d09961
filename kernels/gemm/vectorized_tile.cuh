// The 128 x 128 x 8 register-tiled kernel with 16-byte global accesses and A
// transposed in shared memory, shared by the vectorized step (kPadA = 0) and
// the bank-conflict-free step (kPadA = 4).
#pragma once

#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm::vectorized {

constexpr int kBM = 128, kBN = 128, kBK = 8, kTM = 8, kTN = 8;
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256

// Four consecutive elements from (row, col). kVec: one 16-byte load, valid
// because cols % 4 == 0 and col % 4 == 0 put all four on the same side of
// the edge; otherwise element by element.
template <bool kVec>
__device__ __forceinline__ float4 load4(const float* p, int row, int col, int rows, int cols, int ld) {
  if constexpr (kVec) {
    if (row < rows && col < cols) return *reinterpret_cast<const float4*>(p + std::int64_t(row) * ld + col);
    return make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
    return make_float4(at_or_zero(p, row, col, rows, cols, ld), at_or_zero(p, row, col + 1, rows, cols, ld),
                       at_or_zero(p, row, col + 2, rows, cols, ld), at_or_zero(p, row, col + 3, rows, cols, ld));
  }
}

template <bool kVec>
__device__ __forceinline__ void store4(float* p, int row, int col, int rows, int cols, int ld, float4 v) {
  if (row >= rows) return;
  float* dst = p + std::int64_t(row) * ld + col;
  if constexpr (kVec) {
    if (col < cols) *reinterpret_cast<float4*>(dst) = v;
  } else {
    const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (col + j < cols) dst[j] = e[j];
  }
}

__device__ __forceinline__ void unpack(float4 v, float* dst) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// as[p * (kBM + kPadA) + row] holds A transposed.
template <bool kVec, int kPadA>
__global__ void __launch_bounds__(kThreads) kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  constexpr int kLdA = kBM + kPadA;
  __shared__ __align__(16) float as[kBK * kLdA];
  __shared__ __align__(16) float bs[kBK * kBN];
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int thread_col = threadIdx.x % (kBN / kTN), thread_row = threadIdx.x / (kBN / kTN);
  const int a_row = threadIdx.x / (kBK / 4), a_col = (threadIdx.x % (kBK / 4)) * 4;  // 128 rows x 2 float4
  const int b_row = threadIdx.x / (kBN / 4), b_col = (threadIdx.x % (kBN / 4)) * 4;  // 8 rows x 32 float4
  float acc[kTM][kTN] = {};
  float reg_a[kTM], reg_b[kTN];
  for (int k0 = 0; k0 < k; k0 += kBK) {
    const float4 va = load4<kVec>(a, row0 + a_row, k0 + a_col, m, k, k);
    as[(a_col + 0) * kLdA + a_row] = va.x;
    as[(a_col + 1) * kLdA + a_row] = va.y;
    as[(a_col + 2) * kLdA + a_row] = va.z;
    as[(a_col + 3) * kLdA + a_row] = va.w;
    *reinterpret_cast<float4*>(&bs[b_row * kBN + b_col]) = load4<kVec>(b, k0 + b_row, col0 + b_col, k, n, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
#pragma unroll
      for (int i = 0; i < kTM; i += 4) unpack(*reinterpret_cast<const float4*>(&as[p * kLdA + thread_row * kTM + i]), &reg_a[i]);
#pragma unroll
      for (int j = 0; j < kTN; j += 4) unpack(*reinterpret_cast<const float4*>(&bs[p * kBN + thread_col * kTN + j]), &reg_b[j]);
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; j += 4)
      store4<kVec>(c, row0 + thread_row * kTM + i, col0 + thread_col * kTN + j, m, n, n,
                   make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

// Launches the kernel: 16-byte accesses when k and n allow them.
template <int kPadA>
void launch(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  if (p.k % 4 == 0 && p.n % 4 == 0)
    kernel<true, kPadA><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  else
    kernel<false, kPadA><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace gpubench::gemm::vectorized
