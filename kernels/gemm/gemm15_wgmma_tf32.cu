// wgmma-tf32 — the tensor-core rung in TF32 (the precision of cuBLAS's TF32
// mode) on Hopper's own path: TMA copies, mbarriers and warpgroup MMA.
// wmma_tf32 issues small synchronous 16 x 16 x 8 multiplies from registers
// that every warp first loads from shared memory, and loses to the CUDA
// cores. Here one warpgroup issues 64 x 256 x 8 multiplies that read both
// operands straight from 128-byte-swizzled shared memory, asynchronously,
// while the copy engine fills a 4-stage ring: wgmma_bf16's kernel, fed FP32
// tiles of 32 k-columns (one swizzle row) instead of BF16 tiles of 64. TF32
// operands must both be K-major, and B (k x n, row-major) is N-major, so a
// first kernel writes B transposed and rounded to TF32 into scratch, inside
// the timed run (2kn x 4 bytes: on an H100, 14% of the step's time at
// 4096^3 and 8% at 8192^3, results/h100/experiments/
// gemm-tf32-transpose-ncu.txt). A is read as it is (the tensor cores take
// the upper 19 bits of each value) when its rows are 16-byte aligned, else
// first copied to padded rows.
#include <algorithm>

#include "kernels/gemm/gemm_common.cuh"
#include "kernels/gemm/sm90_instructions.cuh"
#include "kernels/gemm/tensor_map.hpp"
#include "kernels/gemm/tiles.hpp"
#include "kernels/gemm/wgmma_fragment.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 32, kStages = 4;
constexpr int kThreads = 3 * 128;           // producer + 2 consumer warpgroups
constexpr int kTileBytesA = kBM * kBK * 4;  // 16 KB, rows of 128 bytes
constexpr int kTileBytesB = kBN * kBK * 4;  // 32 KB, n-rows of 128 bytes
constexpr int kSharedBytes = kStages * (kTileBytesA + kTileBytesB) + 2 * kStages * 8 + 1024;  // + barriers, alignment

// One block a tile, taken in bands of 16 tile rows walked column by column
// (ClusterTileOrder in tiles.hpp, as the cluster steps take theirs): the
// blocks running at once share A's rows and B's columns in L2. In
// row-major order each wave of 132 blocks spans all of B, which outgrows L2
// at 8192^3: on an H100 this kernel then read 14.5 GB from DRAM (3.2 GB in
// bands of 8), and the step took 1.8x as long as in bands of 16.
constexpr int kBandRows = 16;
using TileOrder = ClusterTileOrder<kBM, kBN, 1, kBandRows>;

__device__ __forceinline__ float to_tf32(float x) {
  std::uint32_t bits;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
  return __uint_as_float(bits);
}

// dst (cols x ld_dst) = src (rows x cols) transposed, rounded to TF32;
// 32 x 32 tiles through shared memory (padded: no bank conflicts on the
// column reads), both global sides coalesced.
__global__ void transpose_tf32_kernel(const float* __restrict__ src, float* __restrict__ dst, int rows, int cols,
                                      std::int64_t ld_dst) {
  __shared__ float tile[32][33];
  const int c0 = blockIdx.x * 32;
  // 64-bit: k reaches INT_MAX - 256, past which r0 + gridDim.y * 32 would wrap.
  for (std::int64_t r0 = blockIdx.y * 32; r0 < rows; r0 += gridDim.y * 32) {
    for (int i = threadIdx.y; i < 32; i += 8) {
      const std::int64_t r = r0 + i;
      const int c = c0 + threadIdx.x;
      tile[i][threadIdx.x] = r < rows && c < cols ? to_tf32(src[r * cols + c]) : 0.0f;
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += 8) {
      const int c = c0 + i;
      const std::int64_t r = r0 + threadIdx.x;
      if (c < cols && r < rows) dst[std::int64_t(c) * ld_dst + r] = tile[threadIdx.x][i];
    }
    __syncthreads();
  }
}

// dst (rows x ld_dst) = src (rows x cols), rounded to TF32, zero past cols.
__global__ void pad_rows_tf32_kernel(const float* __restrict__ src, float* __restrict__ dst, int rows, int cols,
                                     std::int64_t ld_dst) {
  const std::int64_t count = std::int64_t(rows) * ld_dst;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / ld_dst, c = i % ld_dst;
    dst[i] = c < cols ? to_tf32(src[r * cols + c]) : 0.0f;
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tf32_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float* c,
                      int m, int n, int k) {
  extern __shared__ std::uint8_t raw[];
  // The 128-byte swizzle repeats every 1024 bytes: tiles start on that boundary.
  std::uint8_t* tiles = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t(1023));
  std::uint8_t* tiles_a = tiles;
  std::uint8_t* tiles_b = tiles + kStages * kTileBytesA;
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(tiles_b + kStages * kTileBytesB);  // copy landed
  std::uint64_t* empty = full + kStages;                                                     // consumers done
  const int warpgroup = threadIdx.x / 128, tid = threadIdx.x % 128;
  int row0, col0;
  TileOrder(m, n).origin(blockIdx.x, 0, row0, col0);
  const int slabs = (k + kBK - 1) / kBK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      sm90::mbarrier_init(&full[s], 1);
      sm90::mbarrier_init(&empty[s], 256);  // every consumer thread arrives
    }
    sm90::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {  // producer
    GPUBENCH_SM90A(asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");)
    if (tid == 0) {
      for (int t = 0; t < slabs; ++t) {
        const int s = t % kStages;
        if (t >= kStages) sm90::mbarrier_wait(&empty[s], (t / kStages + 1) & 1);  // slab t - kStages consumed
        sm90::mbarrier_arrive_expect_bytes(&full[s], kTileBytesA + kTileBytesB);
        sm90::tma_load_2d(tiles_a + s * kTileBytesA, &map_a, &full[s], t * kBK, row0);
        sm90::tma_load_2d(tiles_b + s * kTileBytesB, &map_bt, &full[s], t * kBK, col0);
      }
    }
    return;
  }

  GPUBENCH_SM90A(asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");)
  const int consumer = warpgroup - 1;  // rows consumer * 64 .. + 63 of the block tile
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (int t = 0; t < slabs; ++t) {
    const int s = t % kStages;
    sm90::mbarrier_wait(&full[s], (t / kStages) & 1);
    sm90::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBK / 8; ++kk) {
      // Both K-major: rows of 128 bytes, 8-row groups 1024 bytes apart; the
      // 8-wide k step moves 32 bytes along the swizzled row.
      const std::uint64_t da = sm90::smem_descriptor(tiles_a + s * kTileBytesA + consumer * 64 * 128 + kk * 32, 16, 1024);
      const std::uint64_t db = sm90::smem_descriptor(tiles_b + s * kTileBytesB + kk * 32, 16, 1024);
      sm90::wgmma_m64n256k8_tf32(d, da, db);
    }
    sm90::wgmma_commit();
    sm90::wgmma_wait_all();
    sm90::mbarrier_arrive(&empty[s]);
  }

  store_fragment_64x256(c, m, n, row0 + consumer * 64, col0, d, tid);
}

// The operands' rows in scratch: k values padded to 16 bytes (TMA's row alignment).
std::int64_t padded_k(int k) { return (std::int64_t(k) + 3) / 4 * 4; }
std::size_t aligned_bytes(std::int64_t floats) { return std::size_t((floats * 4 + 255) / 256 * 256); }

// B transposed (n x padded k), and A's padded copy where its rows are not 16-byte aligned.
std::size_t scratch_bytes(int m, int n, int k) {
  return aligned_bytes(n * padded_k(k)) + (k % 4 ? aligned_bytes(m * padded_k(k)) : 0);
}

void run(const Problem& p, const Workspace& ws) {
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(wgmma_tf32_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const std::int64_t ld = padded_k(p.k);
  float* bt = static_cast<float*>(ws.scratch);
  float* a_padded = p.k % 4 ? bt + aligned_bytes(p.n * ld) / 4 : nullptr;
  const float* a = a_padded ? a_padded : p.a;
  // Both maps before the first launch: no host work between the kernels.
  const CUtensorMap map_a = swizzled_tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, a, p.m, p.k, a_padded ? ld : p.k, kBK, kBM);
  const CUtensorMap map_bt = swizzled_tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, bt, p.n, p.k, ld, kBK, kBN);
  const dim3 tiles(unsigned(ceil_div(p.n, 32)), unsigned(std::min(ceil_div(p.k, 32), 65535)));
  transpose_tf32_kernel<<<tiles, dim3(32, 8), 0, ws.stream>>>(p.b, bt, p.k, p.n, ld);
  GPUBENCH_CHECK_LAUNCH();
  if (a_padded) {
    pad_rows_tf32_kernel<<<1024, 256, 0, ws.stream>>>(p.a, a_padded, p.m, p.k, ld);
    GPUBENCH_CHECK_LAUNCH();
  }
  wgmma_tf32_kernel<<<TileOrder(p.m, p.n).count(), kThreads, kSharedBytes, ws.stream>>>(map_a, map_bt, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_SCRATCH(wgmma_tf32, Ladder::tensor_core, Precision::tf32,
                           "Hopper wgmma + TMA: TF32 64x256x8, 128x256x32 block tile, 4 stages, B transposed first",
                           run, wgmma_tf32_kernel, kSharedBytes, 90, scratch_bytes)
