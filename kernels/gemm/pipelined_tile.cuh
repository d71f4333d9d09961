// The block tile of the pipelined step (128 x 256 x 16 slabs in a
// three-stage cp.async ring, 8 warps of 64 x 64, 16 x 8 results per thread),
// shared by pipelined and fragment_prefetch, which give each block one tile,
// and stream_k, which gives each resident block a run of tiles and pieces
// of tiles.
#pragma once

#include <cuda_pipeline.h>

#include "kernels/gemm/vectorized_tile.cuh"

namespace gpubench::gemm::pipelined {

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

// The fragments of k-step p of a slab: the thread's 16 rows of A^T, 4 runs
// of 4 (16 apart), and its 8 columns of B, 2 runs of 4 (32 apart); each
// read is one 16-byte load, broadcast or consecutive.
__device__ __forceinline__ void load_fragments(const float* as, const float* bs, int p, int warp_row, int warp_col,
                                               int lane_row, int lane_col, float (&ra)[kTM], float (&rb)[kTN]) {
#pragma unroll
  for (int i = 0; i < kTM / 4; ++i)
    vectorized::unpack(*reinterpret_cast<const float4*>(&as[p * kLdA + warp_row + i * 4 * kLaneRows + lane_row * 4]),
                       &ra[i * 4]);
#pragma unroll
  for (int j = 0; j < kTN / 4; ++j)
    vectorized::unpack(*reinterpret_cast<const float4*>(&bs[p * kBN + warp_col + j * 4 * kLaneCols + lane_col * 4]),
                       &rb[j * 4]);
}

// Adds slabs first .. last - 1 of the block tile at (row0, col0) into acc,
// through the ring in `smem`, which must be free when it is called.
// kPrefetch: each k-step's fragments are loaded before the previous k-step's
// multiply-adds, into a second set of registers (fragment_prefetch).
template <bool kVec, bool kPrefetch>
__device__ __forceinline__ void multiply_slabs(float (&acc)[kTM][kTN], float* smem, const float* a, const float* b,
                                               int row0, int col0, int first, int last, int m, int n, int k) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (kBN / kWN)) * kWM, warp_col = (warp % (kBN / kWN)) * kWN;
  const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
  const Copies my;
  const float* a_src = a + std::int64_t(row0 + my.a_row) * k + my.a_col;  // slab 0's elements,
  const float* b_src = b + std::int64_t(my.b_row) * n + col0 + my.b_col;  // pass 0
  const std::int64_t a_pass = std::int64_t(kARowsPerPass) * k, b_pass = std::int64_t(kBRowsPerPass) * n;
  // With the math this dense, the copies' address arithmetic and bounds
  // checks were most of the sixth of issued instructions that are not
  // multiply-adds, so blocks that lie wholly inside the matrix copy from
  // per-thread base pointers plus the slab's offset, without checks; only
  // edge blocks and a ragged last slab take the checked copy.
  const bool inside = kVec && row0 + kBM <= m && col0 + kBN <= n;
  // Copy slab t, or nothing past the last, and close a commit group either
  // way so that "all but the newest kStages - 2 groups" is always slab t's.
  auto issue = [&](int t) {
    if (t < last) {
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
  for (int t = 0; t < kStages - 1; ++t) issue(first + t);

  for (int t = first; t < last; ++t) {
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();  // slab t visible to all; stage (t - 1) % kStages free to refill
    const float* as = smem + (t % kStages) * kStageFloats;
    const float* bs = as + kBK * kLdA;
    if constexpr (kPrefetch) {
      float ra[2][kTM], rb[2][kTN];
      load_fragments(as, bs, 0, warp_row, warp_col, lane_row, lane_col, ra[0], rb[0]);
#pragma unroll
      for (int p = 0; p < kBK; ++p) {
        if (p + 1 < kBK) load_fragments(as, bs, p + 1, warp_row, warp_col, lane_row, lane_col, ra[(p + 1) % 2], rb[(p + 1) % 2]);
        if (p == kIssueAfter) issue(t + kStages - 1);
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
          for (int j = 0; j < kTN; ++j) acc[i][j] += ra[p % 2][i] * rb[p % 2][j];
      }
    } else {
#pragma unroll
      for (int p = 0; p < kBK; ++p) {
        if (p == kIssueAfter) issue(t + kStages - 1);
        float ra[kTM], rb[kTN];
        load_fragments(as, bs, p, warp_row, warp_col, lane_row, lane_col, ra, rb);
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
          for (int j = 0; j < kTN; ++j) acc[i][j] += ra[i] * rb[j];
      }
    }
  }
  __pipeline_wait_prior(0);  // no copy may still target shared memory when the block moves on or exits
}

// Writes the thread's 16 x 8 results of the block tile at (row0, col0) to C.
template <bool kVec>
__device__ __forceinline__ void store_results(float* c, const float (&acc)[kTM][kTN], int row0, int col0, int m, int n) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (kBN / kWN)) * kWM, warp_col = (warp % (kBN / kWN)) * kWN;
  const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int row = row0 + warp_row + (i / 4) * 4 * kLaneRows + lane_row * 4 + i % 4;
      const int col = col0 + warp_col + (j / 4) * 4 * kLaneCols + lane_col * 4;
      vectorized::store4<kVec>(c, row, col, m, n, n, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
    }
}

// One block per tile: the kernel of pipelined (kPrefetch false) and of
// fragment_prefetch (true).
template <bool kVec, bool kPrefetch>
__global__ void __launch_bounds__(kThreads) tile_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[kTM][kTN] = {};
  multiply_slabs<kVec, kPrefetch>(acc, smem, a, b, row0, col0, 0, (k + kBK - 1) / kBK, m, n, k);
  store_results<kVec>(c, acc, row0, col0, m, n);
}

template <bool kVec, bool kPrefetch>
void launch_tiles(const Problem& p, const Workspace& ws) {
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(tile_kernel<kVec, kPrefetch>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  tile_kernel<kVec, kPrefetch><<<grid, kThreads, kSharedBytes, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

// B and C rows in 16-byte pieces where n allows.
template <bool kPrefetch>
void run_tiles(const Problem& p, const Workspace& ws) {
  if (p.n % 4 == 0)
    launch_tiles<true, kPrefetch>(p, ws);
  else
    launch_tiles<false, kPrefetch>(p, ws);
}

}  // namespace gpubench::gemm::pipelined
