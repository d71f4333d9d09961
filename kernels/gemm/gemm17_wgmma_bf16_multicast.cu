// wgmma-bf16-multicast: wgmma_bf16 with persistent blocks in clusters of two
// that share each B tile.
// In wgmma_bf16 every block copies its own 16 KB of A and 32 KB of B per
// k-slab from L2, so two blocks on the same columns fetch the same B twice,
// and each block waits for its first slabs and stalls its copies during its
// epilogue. Here the two blocks of a cluster compute vertically adjacent
// 128 x 256 tiles: each copies its own A and half of the shared B, and TMA
// multicast writes that half into both blocks' shared memory, so a block
// fetches 32 KB from L2 per slab instead of 48 KB. A slot of the ring is
// free again only when the consumers of both blocks are done with it: they
// arrive on the empty barrier of each block. The grid is one cluster per
// pair of SMs that stays resident, walking the tiles in bands of 16 tile
// rows, column by column (ClusterTileOrder in tiles.hpp), so that
// concurrent clusters reuse A and B in L2; the producer copies the next
// tile's slabs while the consumers write the last one out, and consumers
// keep one wgmma group in flight while they release the slot before it.
// It couples each pair: a ring slot frees only when both blocks' consumers are
// done, so at 2048^3, one tile a block, it ran 0.96x wgmma_bf16 on the H200
// (results/h200/ci.txt).
#include "kernels/gemm/cluster_tiles.cuh"
#include "kernels/gemm/gemm_common.cuh"
#include "kernels/gemm/sm90_instructions.cuh"
#include "kernels/gemm/tensor_map.hpp"
#include "kernels/gemm/tiles.hpp"
#include "kernels/gemm/wgmma_fragment.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kThreads = 3 * 128;              // producer + 2 consumer warpgroups
constexpr int kClusterSize = 2;                // blocks on tiles (2i, j) and (2i + 1, j)
constexpr int kBoxN = 64;                      // a 128-byte swizzle row holds 64 bf16
constexpr int kBoxBytesB = kBK * kBoxN * 2;    // 8 KB
constexpr int kBoxesB = kBN / kBoxN;           // 4, half of them copied by each block
constexpr int kTileBytesA = kBM * kBK * 2;     // 16 KB, rows of 128 bytes
constexpr int kTileBytesB = kBoxesB * kBoxBytesB;
constexpr int kConsumerWarps = 8;
constexpr int kBandPairs = 8;                  // cluster rows in a band of the tile order
constexpr int kSharedBytes = kStages * (kTileBytesA + kTileBytesB) + 2 * kStages * 8 + 1024;  // + barriers, alignment

using TileOrder = ClusterTileOrder<kBM, kBN, kClusterSize, kBandPairs>;

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_bf16_multicast_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                                float* c, int m, int n, int k) {
  extern __shared__ std::uint8_t raw[];
  // The 128-byte swizzle repeats every 1024 bytes: tiles start on that boundary.
  std::uint8_t* tiles = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t(1023));
  std::uint8_t* tiles_a = tiles;
  std::uint8_t* tiles_b = tiles + kStages * kTileBytesA;
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(tiles_b + kStages * kTileBytesB);  // copies landed
  std::uint64_t* empty = full + kStages;  // both blocks' consumers done
  const int warpgroup = threadIdx.x / 128, tid = threadIdx.x % 128;
  const std::uint32_t rank = sm90::cluster_ctarank();
  const int cluster = blockIdx.x / kClusterSize, clusters = gridDim.x / kClusterSize;
  const int slabs = (k + kBK - 1) / kBK;
  const TileOrder order(m, n);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      sm90::mbarrier_init(&full[s], 1);
      sm90::mbarrier_init(&empty[s], kClusterSize * kConsumerWarps);  // one arrival per consumer warp of each block
    }
    sm90::fence_barrier_init();
  }
  sm90::cluster_sync();  // the other block's barriers exist before anything is copied into it

  if (warpgroup == 0) {  // producer; stays for the cluster barrier at the end
    GPUBENCH_SM90A(asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");)
    if (tid == 0) {
      int g = 0;  // slabs issued by this block
      for (int i = cluster; i < order.count(); i += clusters) {
        int row0, col0;
        order.origin(i, int(rank), row0, col0);
        for (int t = 0; t < slabs; ++t, ++g) {
          const int s = g % kStages;
          if (g >= kStages) sm90::mbarrier_wait(&empty[s], (g / kStages + 1) & 1);  // slab g - kStages consumed in both
          sm90::mbarrier_arrive_expect_bytes(&full[s], kTileBytesA + kTileBytesB);
          sm90::tma_load_2d(tiles_a + s * kTileBytesA, &map_a, &full[s], t * kBK, row0);
          for (int j = 0; j < kBoxesB / kClusterSize; ++j) {
            const int box = int(rank) * (kBoxesB / kClusterSize) + j;
            sm90::tma_load_2d_multicast(tiles_b + s * kTileBytesB + box * kBoxBytesB, &map_b, &full[s],
                                        col0 + box * kBoxN, t * kBK, (1u << kClusterSize) - 1);
          }
        }
      }
    }
  } else {
    GPUBENCH_SM90A(asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");)
    const int consumer = warpgroup - 1;  // rows consumer * 64 .. + 63 of the block tile
    const int lane = tid % 32;
    // Lanes 0 and 1 of each warp release a slot in block 0 and block 1.
    const auto release = [&](int s) {
      if (lane < kClusterSize) sm90::mbarrier_arrive_cluster(&empty[s], std::uint32_t(lane));
    };
    int g = 0;  // slabs consumed by this block
    for (int i = cluster; i < order.count(); i += clusters) {
      int row0, col0;
      order.origin(i, int(rank), row0, col0);
      float d[128];
#pragma unroll
      for (int r = 0; r < 128; ++r) d[r] = 0.0f;
      for (int t = 0; t < slabs; ++t, ++g) {
        const int s = g % kStages;
        sm90::mbarrier_wait(&full[s], (g / kStages) & 1);
        sm90::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk) {
          // The operand layouts of wgmma_bf16: A K-major rows of 128 bytes,
          // B N-major boxes of 64 columns, 8 KB apart.
          const std::uint64_t da = sm90::smem_descriptor(tiles_a + s * kTileBytesA + consumer * 64 * 128 + kk * 32, 16, 1024);
          const std::uint64_t db = sm90::smem_descriptor(tiles_b + s * kTileBytesB + kk * 16 * 128, kBoxBytesB, 1024);
          sm90::wgmma_m64n256k16_bf16(d, da, db);
        }
        sm90::wgmma_commit();
        sm90::wgmma_wait<1>();  // the previous slab's group is done: its slot is free
        if (t > 0) release((g - 1) % kStages);
      }
      sm90::wgmma_wait<0>();
      release((g - 1) % kStages);

      store_fragment_64x256(c, m, n, row0 + consumer * 64, col0, d, tid);
    }
  }
  sm90::cluster_sync();  // no block leaves while the other still copies into it or arrives on its barriers
}

void run(const Problem& p, const Workspace& ws) {
  const CUtensorMap map_a = bf16_tensor_map(p.a_bf16, p.m, p.k, p.lda_bf16, kBM);
  const CUtensorMap map_b = bf16_tensor_map(p.b_bf16, p.k, p.n, p.ldb_bf16, kBK);
  launch_persistent_clusters(wgmma_bf16_multicast_kernel, kClusterSize, kThreads, kSharedBytes, TileOrder(p.m, p.n).count(),
                             GridSize::all_resident, ws.stream, "wgmma_bf16_multicast", map_a, map_b, p.c, p.m, p.n, p.k);
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_DYN(wgmma_bf16_multicast, Ladder::tensor_core, Precision::bf16,
                       "wgmma_bf16, persistent, in 2-block clusters that share B through TMA multicast",
                       run, wgmma_bf16_multicast_kernel, kSharedBytes, 90)
