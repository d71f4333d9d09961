// wgmma-bf16 — Hopper's own tensor-core path: TMA copies, mbarriers and
// warpgroup MMA (sm_90a), BF16 inputs, FP32 accumulation.
// wmma_tf32 issues small synchronous 16 x 16 x 8 multiplies from registers
// that every thread first loads from shared memory. Here one warpgroup
// (4 warps) issues 64 x 256 x 16 multiplies that read both operands
// straight from shared memory, asynchronously; the copy engine (TMA) brings
// the tiles in, 128-byte swizzled so the tensor cores read them without
// bank conflicts, and zero-fills past the matrix edge. A block of 3
// warpgroups computes a 128 x 256 tile of C: one producer warpgroup (one
// thread issuing copies into a 4-stage ring) and two consumers of 64 x 256
// each, synchronized by a full and an empty mbarrier per stage. Registers
// are moved from the producer (40 per thread) to the consumers (232),
// which hold 128 fp32 accumulators per thread.
// It costs precision (BF16 keeps 7 mantissa bits; the check's tolerance
// grows with k), Hopper alone (sm_90a), and 197,696 bytes of shared memory,
// one block per SM.
#include "kernels/gemm/gemm_common.cuh"
#include "kernels/gemm/sm90_instructions.cuh"
#include "kernels/gemm/tensor_map.hpp"
#include "kernels/gemm/tiles.hpp"
#include "kernels/gemm/wgmma_fragment.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kThreads = 3 * 128;              // producer + 2 consumer warpgroups
constexpr int kBoxN = 64;                      // a 128-byte swizzle row holds 64 bf16
constexpr int kTileBytesA = kBM * kBK * 2;     // 16 KB, rows of 128 bytes
constexpr int kTileBytesB = kBK * kBN * 2;     // 32 KB, 4 boxes of 64 k-rows x 128 bytes
constexpr int kSharedBytes = kStages * (kTileBytesA + kTileBytesB) + 2 * kStages * 8 + 1024;  // + barriers, alignment

// One block a tile, taken in bands of 16 tile rows walked column by column
// (ClusterTileOrder in tiles.hpp, as the cluster steps take theirs): the
// blocks running at once share A's rows and B's columns in L2. In
// row-major order each wave of 132 blocks spans all of B, which outgrows L2
// at 8192^3: on an H100 the step then took 1.35x as long as in bands of 16.
constexpr int kBandRows = 16;
using TileOrder = ClusterTileOrder<kBM, kBN, 1, kBandRows>;

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_bf16_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float* c,
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
        for (int j = 0; j < kBN / kBoxN; ++j)
          sm90::tma_load_2d(tiles_b + s * kTileBytesB + j * kBoxN * kBK * 2, &map_b, &full[s], col0 + j * kBoxN, t * kBK);
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
    for (int kk = 0; kk < kBK / 16; ++kk) {
      // A: K-major rows of 128 bytes, 8-row groups 1024 bytes apart; the
      // 16-wide k step moves 32 bytes along the swizzled row.
      const std::uint64_t da = sm90::smem_descriptor(tiles_a + s * kTileBytesA + consumer * 64 * 128 + kk * 32, 16, 1024);
      // B: N-major, 64-column boxes 8 KB apart (leading), 8 k-rows 1024
      // bytes apart (stride); the k step moves 16 rows.
      const std::uint64_t db = sm90::smem_descriptor(tiles_b + s * kTileBytesB + kk * 16 * 128, kBoxN * kBK * 2, 1024);
      sm90::wgmma_m64n256k16_bf16(d, da, db);
    }
    sm90::wgmma_commit();
    sm90::wgmma_wait_all();
    sm90::mbarrier_arrive(&empty[s]);
  }

  store_fragment_64x256(c, m, n, row0 + consumer * 64, col0, d, tid);
}

void run(const Problem& p, const Workspace& ws) {
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(wgmma_bf16_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const CUtensorMap map_a = bf16_tensor_map(p.a_bf16, p.m, p.k, p.lda_bf16, kBM);
  const CUtensorMap map_b = bf16_tensor_map(p.b_bf16, p.k, p.n, p.ldb_bf16, kBK);
  wgmma_bf16_kernel<<<TileOrder(p.m, p.n).count(), kThreads, kSharedBytes, ws.stream>>>(map_a, map_b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_DYN(wgmma_bf16, Ladder::tensor_core, Precision::bf16,
                       "Hopper wgmma + TMA: BF16 64x256x16, 128x256x64 block tile, 4 stages, producer/consumers",
                       run, wgmma_bf16_kernel, kSharedBytes, 90)
