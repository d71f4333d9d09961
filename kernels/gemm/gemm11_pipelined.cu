// pipelined — warp tiling fed by a three-stage asynchronous-copy pipeline.
// warptiled still waits for every slab: it loads, synchronizes, computes,
// synchronizes. Here cp.async keeps up to two slabs in flight while the
// warps compute on a third, with one barrier per slab, and the copies land in
// shared memory without passing through registers, which leaves room for a
// larger block tile (128 x 256 x 16, 8 warps of 64 x 64, 16 x 8 results per
// thread), so each loaded element feeds more multiply-adds. A is copied
// element by element into its transposed place (see Copies).
// With the math this dense, the copies' address arithmetic and bounds
// checks were most of the sixth of issued instructions that are not
// multiply-adds, so blocks that lie wholly inside the matrix copy from
// per-thread base pointers plus the slab's offset, without checks; only
// edge blocks and a ragged last slab take the checked copy.
#include <cuda_pipeline.h>

#include "kernels/gemm/vectorized_tile.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 16, kStages = 3;
// The next slab's copies are issued after this many k-steps of the current
// slab's math: right after the barrier every warp has multiply-adds ready,
// and the copies' address arithmetic fills the gaps between them (on the
// H200, 2% faster than issuing them first).
constexpr int kIssueAfter = 2;
static_assert(kIssueAfter < kBK, "every slab must issue the next copies");
constexpr int kWM = 64, kWN = 64;
constexpr int kLaneRows = 4, kLaneCols = 32 / kLaneRows;       // lanes of a warp as 4 x 8
constexpr int kTM = kWM / kLaneRows, kTN = kWN / kLaneCols;    // 16 x 8 per thread
constexpr int kThreads = (kBM / kWM) * (kBN / kWN) * 32;       // 256
constexpr int kLdA = kBM + 4;  // rows of A^T 4 banks apart: see Copies
constexpr int kStageFloats = kBK * (kLdA + kBN);
constexpr int kSharedBytes = kStages * kStageFloats * 4;       // 74496: dynamic, past the 48 KB static limit

// Which elements of a slab this thread copies. A (4-byte copies): a warp
// reads 2 rows x 16 columns, 64 bytes per row; they land in banks
// 4 * column + row, 2-way conflicted. (A conflict-free 4 x 8 layout reads 4
// lines per warp instead of 2 and ran 3% slower on the H200.) Pass v adds
// 16 rows. B (16-byte copies): a row of 64 threads covers 256 columns; pass
// v adds 4 rows.
constexpr int kARowsPerPass = kThreads / kBK, kACopies = kBM / kARowsPerPass;
constexpr int kBRowsPerPass = kThreads / (kBN / 4), kBCopies = kBK / kBRowsPerPass;
static_assert(kThreads % kBK == 0 && kBM % kARowsPerPass == 0 && kThreads % (kBN / 4) == 0 &&
              kBK % kBRowsPerPass == 0);
struct Copies {
  int a_row, a_col, b_row, b_col;
  __device__ Copies() {
    a_row = threadIdx.x / kBK;
    a_col = threadIdx.x % kBK;
    b_row = threadIdx.x / (kBN / 4);
    b_col = threadIdx.x % (kBN / 4) * 4;
  }
};

// The checked copy of the slab at k0 into pipeline stage `stage`; elements
// past the matrix edge are zero-filled. kVec: B rows in 16-byte pieces.
template <bool kVec>
__device__ __forceinline__ void copy_slab_checked(const Copies& my, const float* a, const float* b, float* stage,
                                                  int row0, int col0, int k0, int m, int n, int k) {
  float* as = stage;
  float* bs = stage + kBK * kLdA;
#pragma unroll
  for (int v = 0; v < kACopies; ++v) {
    const int r = my.a_row + v * kARowsPerPass, kk = my.a_col;
    const bool in = row0 + r < m && k0 + kk < k;
    __pipeline_memcpy_async(&as[kk * kLdA + r], in ? a + std::int64_t(row0 + r) * k + k0 + kk : a, 4, in ? 0 : 4);
  }
#pragma unroll
  for (int v = 0; v < kBCopies; ++v) {
    const int r = my.b_row + v * kBRowsPerPass, cc = my.b_col;
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
  const Copies my;
  const float* a_src = a + std::int64_t(row0 + my.a_row) * k + my.a_col;  // slab 0's elements,
  const float* b_src = b + std::int64_t(my.b_row) * n + col0 + my.b_col;  // pass 0
  const std::int64_t a_pass = std::int64_t(kARowsPerPass) * k, b_pass = std::int64_t(kBRowsPerPass) * n;
  const bool inside = kVec && row0 + kBM <= m && col0 + kBN <= n;
  // Copy slab t, or nothing past the last, and close a commit group either
  // way so that "all but the newest kStages - 2 groups" is always slab t's.
  auto issue = [&](int t) {
    if (t < slabs) {
      float* as = smem + (t % kStages) * kStageFloats;
      float* bs = as + kBK * kLdA;
      const int k0 = t * kBK;
      if (inside && k0 + kBK <= k) {
#pragma unroll
        for (int v = 0; v < kACopies; ++v)
          __pipeline_memcpy_async(&as[my.a_col * kLdA + my.a_row + v * kARowsPerPass], a_src + k0 + v * a_pass, 4);
#pragma unroll
        for (int v = 0; v < kBCopies; ++v)
          __pipeline_memcpy_async(&bs[(my.b_row + v * kBRowsPerPass) * kBN + my.b_col],
                                  b_src + std::int64_t(k0) * n + v * b_pass, 16);
      } else {
        copy_slab_checked<kVec>(my, a, b, as, row0, col0, k0, m, n, k);
      }
    }
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
    const float* as = smem + (t % kStages) * kStageFloats;
    const float* bs = as + kBK * kLdA;
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
      if (p == kIssueAfter) issue(t + kStages - 1);
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
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(pipelined_kernel<kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
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
                       "warp tiling + 3-stage cp.async pipeline, 128x256x16 block tile, 16x8 per thread", run,
                       pipelined_kernel<true>, kSharedBytes, 0)
