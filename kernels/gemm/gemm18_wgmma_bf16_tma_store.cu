// wgmma-bf16-tma-store: wgmma_bf16_multicast with C written through shared
// memory by TMA stores.
// In wgmma_bf16_multicast each consumer thread stores its 128 accumulators to
// global memory itself, and the tensor cores wait until the warpgroup has
// issued all of them; the clusters reach their epilogues together, so the
// stores of every SM meet in the memory system. Without any epilogue that
// step runs about 7% faster at 4096^3. Here a consumer writes its 64 x 256
// fragment in 64 x 32 boxes to shared memory (two 8 KB buffers a warpgroup,
// 128-byte swizzled so that the rows of a warp land in different banks) and
// one thread hands each box to the TMA, which writes it to C while the
// warpgroup fills the other buffer and, after the last box, starts the next
// tile. The cost: the buffers take the 32 KB of shared memory left beside
// the 4 stages, and C passes through shared memory once more. C whose rows
// TMA cannot address (a row not a multiple of 16 bytes) is written from
// registers as before.
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
constexpr int kBoxC = 32;                      // C columns in a box: 128 bytes of fp32, one swizzle row
constexpr int kBoxBytesC = 64 * kBoxC * 4;     // 8 KB: a consumer's 64 rows
constexpr int kBuffersC = 2;                   // boxes of C a consumer has in shared memory
constexpr int kSharedBytes = kStages * (kTileBytesA + kTileBytesB) + 2 * kBuffersC * kBoxBytesC + 2 * kStages * 8 +
                             1024;  // + barriers, alignment

using TileOrder = ClusterTileOrder<kBM, kBN, kClusterSize, kBandPairs>;

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_bf16_tma_store_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                                const __grid_constant__ CUtensorMap map_c, bool tma_c, float* c, int m, int n, int k) {
  extern __shared__ std::uint8_t raw[];
  // The 128-byte swizzle repeats every 1024 bytes: tiles start on that boundary.
  std::uint8_t* tiles = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t(1023));
  std::uint8_t* tiles_a = tiles;
  std::uint8_t* tiles_b = tiles + kStages * kTileBytesA;
  std::uint8_t* boxes_c = tiles_b + kStages * kTileBytesB;
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(boxes_c + 2 * kBuffersC * kBoxBytesC);  // copies landed
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
    int g = 0;      // slabs consumed by this block
    int boxes = 0;  // boxes of C this warpgroup has handed to the TMA
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

      if (!tma_c) {
        store_fragment_64x256(c, m, n, row0 + consumer * 64, col0, d, tid);
        continue;
      }
      // The fragment's layout (wgmma_fragment.cuh): a lane holds columns
      // 2(lane % 4), +1 of rows lane / 4 and lane / 4 + 8 of its warp's 16 in
      // each 8-column group. In a box, row r's 16-byte chunk q sits at chunk
      // q ^ (r % 8) of its 128 bytes (what the tensor map's swizzle reads).
      const int warp = tid / 32;
#pragma unroll
      for (int b = 0; b < kBN / kBoxC; ++b, ++boxes) {
        std::uint8_t* box = boxes_c + (consumer * kBuffersC + boxes % kBuffersC) * kBoxBytesC;
        if (tid == 0) sm90::bulk_wait_read<kBuffersC - 1>();  // the TMA has read the box that used this buffer
        sm90::named_barrier_sync(1 + consumer, 128);
#pragma unroll
        for (int j = 0; j < kBoxC / 8; ++j) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int row = warp * 16 + lane / 4 + h * 8, chunk = j * 2 + (lane % 4) / 2;
            const int v = 4 * (b * kBoxC / 8 + j) + 2 * h;
            *reinterpret_cast<float2*>(box + row * 128 + (chunk ^ (row % 8)) * 16 + (lane % 2) * 8) = make_float2(d[v], d[v + 1]);
          }
        }
        sm90::fence_proxy_async();  // the box is visible to the TMA
        sm90::named_barrier_sync(1 + consumer, 128);
        if (tid == 0) {
          sm90::tma_store_2d(&map_c, box, col0 + b * kBoxC, row0 + consumer * 64);
          sm90::bulk_commit();
        }
      }
    }
    if (tid == 0) sm90::bulk_wait_all();  // C is written before the block leaves
  }
  sm90::cluster_sync();  // no block leaves while the other still copies into it or arrives on its barriers
}

void run(const Problem& p, const Workspace& ws) {
  const CUtensorMap map_a = bf16_tensor_map(p.a_bf16, p.m, p.k, p.lda_bf16, kBM);
  const CUtensorMap map_b = bf16_tensor_map(p.b_bf16, p.k, p.n, p.ldb_bf16, kBK);
  static_assert(kBoxC == 32);  // fp32_store_map's boxes
  const StoreMap c = fp32_store_map(p.c, p.m, p.n, 64);
  launch_persistent_clusters(wgmma_bf16_tma_store_kernel, kClusterSize, kThreads, kSharedBytes, TileOrder(p.m, p.n).count(),
                             GridSize::all_resident, ws.stream, "wgmma_bf16_tma_store", map_a, map_b, c.map, c.usable, p.c, p.m, p.n, p.k);
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_DYN(wgmma_bf16_tma_store, Ladder::tensor_core, Precision::bf16,
                       "wgmma_bf16_multicast, C staged in shared memory and written by TMA stores",
                       run, wgmma_bf16_tma_store_kernel, kSharedBytes, 90)
