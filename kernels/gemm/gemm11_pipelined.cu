// pipelined — warp tiling fed by a four-stage asynchronous-copy pipeline.
// warptiled still waits for every slab: it loads, synchronizes, computes,
// synchronizes. Here cp.async keeps three slabs in flight while the warps
// compute on the fourth, with one barrier per slab, and the copies land in
// shared memory without passing through registers, which leaves room for a
// larger block tile (128 x 256, 8 warps of 64 x 64, 16 x 8 results per
// thread), so each loaded element feeds more multiply-adds. A is copied
// element by element into its transposed place: a warp's copies cover 4
// rows x 8 columns (one 32-byte sector per row) and land in 32 different
// banks.
#include <cuda_pipeline.h>

#include "kernels/gemm/vectorized_tile.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 8, kStages = 4;
constexpr int kWM = 64, kWN = 64;
constexpr int kLaneRows = 4, kLaneCols = 32 / kLaneRows;       // lanes of a warp as 4 x 8
constexpr int kTM = kWM / kLaneRows, kTN = kWN / kLaneCols;    // 16 x 8 per thread
constexpr int kThreads = (kBM / kWM) * (kBN / kWN) * 32;       // 256
constexpr int kLdA = kBM + 4;  // 132 = 4 mod 32: a warp's 8 k-rows x 4 rows of copies cover all 32 banks
constexpr int kStageFloats = kBK * (kLdA + kBN);
constexpr int kSharedBytes = kStages * kStageFloats * 4;       // 49664: dynamic, past the 48 KB static limit
static_assert(kBM * kBK % kThreads == 0 && kBK * kBN % (4 * kThreads) == 0);

// Copies slab `t` (k0 = t * kBK) into pipeline stage `stage`; elements past
// the matrix edge are zero-filled. kVec: B rows in 16-byte pieces.
template <bool kVec>
__device__ __forceinline__ void copy_slab(const float* a, const float* b, float* stage, int row0, int col0, int k0,
                                          int m, int n, int k) {
  float* as = stage;
  float* bs = stage + kBK * kLdA;
#pragma unroll
  for (int v = 0; v < kBM * kBK / kThreads; ++v) {
    const int e = threadIdx.x + v * kThreads, kk = e % kBK, r = e / kBK;
    const bool in = row0 + r < m && k0 + kk < k;
    __pipeline_memcpy_async(&as[kk * kLdA + r], in ? a + std::int64_t(row0 + r) * k + k0 + kk : a, 4, in ? 0 : 4);
  }
#pragma unroll
  for (int v = 0; v < kBK * kBN / (4 * kThreads); ++v) {
    const int e = threadIdx.x + v * kThreads, r = e / (kBN / 4), cc = (e % (kBN / 4)) * 4;
    if constexpr (kVec) {
      const bool in = k0 + r < k && col0 + cc < n;
      __pipeline_memcpy_async(&bs[r * kBN + cc], in ? b + std::int64_t(k0 + r) * n + col0 + cc : b, 16, in ? 0 : 16);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const bool in = k0 + r < k && col0 + cc + j < n;
        __pipeline_memcpy_async(&bs[r * kBN + cc + j], in ? b + std::int64_t(k0 + r) * n + col0 + cc + j : b, 4,
                                in ? 0 : 4);
      }
    }
  }
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads) pipelined_kernel(const float* a, const float* b, float* c, int m, int n,
                                                              int k) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (kBN / kWN)) * kWM, warp_col = (warp % (kBN / kWN)) * kWN;
  const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
  const int slabs = (k + kBK - 1) / kBK;
  // Copy slab t, or nothing past the last, and close a commit group either
  // way so that "all but the newest kStages - 2 groups" is always slab t's.
  auto issue = [&](int t) {
    if (t < slabs) copy_slab<kVec>(a, b, smem + (t % kStages) * kStageFloats, row0, col0, t * kBK, m, n, k);
    __pipeline_commit();
  };
#pragma unroll
  for (int t = 0; t < kStages - 1; ++t) issue(t);

  // A thread's rows are 4 runs of 4 (16 apart), its columns 2 runs of 4
  // (32 apart): each read is one 16-byte load, broadcast or consecutive.
  float acc[kTM][kTN] = {};
  for (int t = 0; t < slabs; ++t) {
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();  // slab t visible to all; stage (t - 1) % kStages free to refill
    issue(t + kStages - 1);
    const float* as = smem + (t % kStages) * kStageFloats;
    const float* bs = as + kBK * kLdA;
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
      float ra[kTM], rb[kTN];
#pragma unroll
      for (int i = 0; i < kTM / 4; ++i)
        vectorized::unpack(*reinterpret_cast<const float4*>(&as[p * kLdA + warp_row + i * 4 * kLaneRows + lane_row * 4]),
                           &ra[i * 4]);
#pragma unroll
      for (int j = 0; j < kTN / 4; ++j)
        vectorized::unpack(*reinterpret_cast<const float4*>(&bs[p * kBN + warp_col + j * 4 * kLaneCols + lane_col * 4]),
                           &rb[j * 4]);
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += ra[i] * rb[j];
    }
  }
  __pipeline_wait_prior(0);  // no copy may still target shared memory when the block exits

#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int row = row0 + warp_row + (i / 4) * 4 * kLaneRows + lane_row * 4 + i % 4;
      const int col = col0 + warp_col + (j / 4) * 4 * kLaneCols + lane_col * 4;
      vectorized::store4<kVec>(c, row, col, m, n, n, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
    }
}

template <bool kVec>
void launch(const Problem& p, const Workspace& ws) {
  static const cudaError_t raised =  // once per kernel: allow more than 48 KB of dynamic shared memory
      cudaFuncSetAttribute(pipelined_kernel<kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  GPUBENCH_CUDA(raised);
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  pipelined_kernel<kVec><<<grid, kThreads, kSharedBytes, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

void run(const Problem& p, const Workspace& ws) {
  if (p.n % 4 == 0)
    launch<true>(p, ws);
  else
    launch<false>(p, ws);
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_DYN(pipelined, Ladder::cuda_core, Precision::fp32,
                       "warp tiling + 4-stage cp.async pipeline, 128x256x8 block tile, 16x8 per thread", run,
                       pipelined_kernel<true>, kSharedBytes, 0)
