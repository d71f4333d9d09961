// wmma-tf32 — the tensor cores, TF32 inputs, FP32 accumulation.
// A block computes a 128 x 128 tile of C with 8 warps, each a 64 x 32 warp
// tile made of 4 x 2 tensor-core fragments of 16 x 16. Per slab of BK = 32
// the block stages A and B in shared memory (rows padded by 4 floats against
// bank conflicts), then each warp runs 16 x 16 x 8 mma operations through
// the wmma API, rounding its operands to TF32. The tensor cores do 8 times
// the FP32 work of the CUDA cores per cycle; feeding them is now the problem.
// It costs precision (TF32 keeps 10 of FP32's 23 mantissa bits), 140
// registers and 43,520 bytes of shared memory, and at 4096^3 it runs at
// 0.48x stream_k: every fragment is loaded from shared memory into
// registers before each multiply, which the next rung removes.
#include <mma.h>

#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {
namespace {

namespace wmma = nvcuda::wmma;

constexpr int kBM = 128, kBN = 128, kBK = 32, kPad = 4;
constexpr int kWM = 64, kWN = 32;                     // warp tile
constexpr int kFragsM = kWM / 16, kFragsN = kWN / 16;  // 4 x 2 fragments per warp
constexpr int kWarps = (kBM / kWM) * (kBN / kWN);      // 8
constexpr int kThreads = kWarps * 32;

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragC = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

template <class Frag>
__device__ __forceinline__ void to_tf32(Frag& f) {
#pragma unroll
  for (int t = 0; t < f.num_elements; ++t) f.x[t] = wmma::__float_to_tf32(f.x[t]);
}

__global__ void __launch_bounds__(kThreads) wmma_tf32_kernel(const float* a, const float* b, float* c, int m, int n,
                                                              int k) {
  __shared__ __align__(32) float as[kBM][kBK + kPad];
  __shared__ __align__(32) float bs[kBK][kBN + kPad];
  __shared__ __align__(32) float staging[kWarps][16 * 16];  // for fragments on the edge of C
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (kBN / kWN)) * kWM, warp_col = (warp % (kBN / kWN)) * kWN;

  FragC acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < k; k0 += kBK) {
    for (int e = threadIdx.x; e < kBM * kBK; e += kThreads)
      as[e / kBK][e % kBK] = at_or_zero(a, row0 + e / kBK, k0 + e % kBK, m, k, k);
    for (int e = threadIdx.x; e < kBK * kBN; e += kThreads)
      bs[e / kBN][e % kBN] = at_or_zero(b, k0 + e / kBN, col0 + e % kBN, k, n, n);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 8) {
      FragA fa[kFragsM];
      FragB fb[kFragsN];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        wmma::load_matrix_sync(fa[i], &as[warp_row + i * 16][kk], kBK + kPad);
        to_tf32(fa[i]);
      }
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        wmma::load_matrix_sync(fb[j], &bs[kk][warp_col + j * 16], kBN + kPad);
        to_tf32(fb[j]);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }

  // Fragments wholly inside C (and a row stride wmma can store with) go
  // straight out; the rest through the warp's staging tile, element by element.
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const int r = row0 + warp_row + i * 16, col = col0 + warp_col + j * 16;
      if (r + 16 <= m && col + 16 <= n && n % 4 == 0) {
        wmma::store_matrix_sync(c + std::int64_t(r) * n + col, acc[i][j], n, wmma::mem_row_major);
      } else {
        wmma::store_matrix_sync(staging[warp], acc[i][j], 16, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 256; e += 32)
          if (r + e / 16 < m && col + e % 16 < n) c[std::int64_t(r + e / 16) * n + col + e % 16] = staging[warp][e];
        __syncwarp();
      }
    }
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  wmma_tf32_kernel<<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(wmma_tf32, Ladder::tensor_core, Precision::tf32,
                   "tensor cores via wmma: TF32 16x16x8, 128x128x32 block tile, 8 warps", run, wmma_tf32_kernel)
