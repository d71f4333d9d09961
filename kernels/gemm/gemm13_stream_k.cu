// stream-k: fragment_prefetch on a persistent grid whose last wave's work is
// shared evenly among the blocks (Stream-K, stream_k.cuh).
// fragment_prefetch gives each block one 128 x 256 tile: at 4096^3, 512 tiles on
// 132 SMs (one block each) are 3.88 waves, and in the last one 16 SMs idle
// for a whole tile's time, 3% of the run. Here one block per SM stays
// resident and takes whole tiles for all but the last two waves' worth; the
// rest (all of it where most SMs would otherwise idle: 32 tiles at 1024^3)
// is cut into equal ranges of 16-deep k-slabs, one a block. A block whose
// range starts inside a tile computes that tile's later slabs first and
// stores its partial sums (128 KB, in the threads' own order, through L2)
// with a flag; the block whose range ends with the tile's first slabs adds
// those of every such block before it writes C. Partial sums and flags live
// in the step's scratch, which the harness zeroes before the step; a
// finisher clears each flag it consumed, so every run starts from zeros.
// What it costs: a split tile's partial sums make a round trip through L2,
// its finisher waits for the blocks that stored them, and every block must
// be resident at once (a cooperative launch, which fails where they are not).
#include <algorithm>
#include <initializer_list>

#include "kernels/gemm/pipelined_tile.cuh"
#include "kernels/gemm/stream_k.cuh"

namespace gpubench::gemm {
namespace {

using namespace pipelined;

constexpr int kPartialFloat4s = kThreads * kTM * kTN / 4;  // a block's partial sums, 128 KB

// With fewer tiles than blocks, sharing every tile's slabs among all blocks
// pays where the idle blocks' time saved exceeds the fix-ups: at 2048^3
// (128 tiles of 128 slabs, 132 blocks) sharing took 364.35 us against
// 357.15 whole, a fix-up per tile costing about 6.5 slabs' time; at 1024^3
// (32 tiles of 64 slabs) 58.85 us against 181.57. The rule allows 8.
constexpr int kFixupSlabs = 8;

// kShareAll: every tile's slabs are shared (StreamK's share_all), and a
// finisher may add the partial sums of several blocks; a separate instance,
// so that the kernel of the other sizes stays as it was.
template <bool kVec, bool kShareAll>
__global__ void __launch_bounds__(kThreads) stream_k_kernel(const float* a, const float* b, float* c, int m,
                                                                       int n, int k, float4* partials, unsigned* flags) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int columns = ceil_div(n, kBN);
  const StreamK schedule(columns * ceil_div(m, kBM), ceil_div(k, kBK), gridDim.x, kShareAll);
  schedule.for_each_piece(blockIdx.x, [&](int tile, int first, int last) {
    const int row0 = tile / columns * kBM, col0 = tile % columns * kBN;  // pipelined's order: rows of tiles
    float acc[kTM][kTN] = {};
    __syncthreads();  // every warp is done with the ring's last slab before it is refilled
    multiply_slabs<kVec, true>(acc, smem, a, b, row0, col0, first, last, m, n, k);
    if (first > 0) {  // a later piece of a tile another block finishes: hand it the partial sums
      float4* mine = partials + std::size_t(blockIdx.x) * kPartialFloat4s;
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; j += 4)
          __stcg(mine + (i * kTN + j) / 4 * kThreads + threadIdx.x, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
      __syncthreads();
      if (threadIdx.x == 0) signal_partial(flags + blockIdx.x);
      return;
    }
    if (last < schedule.slabs) {  // add the partial sums of the tile's later pieces, the next blocks' first
      const auto add_partials = [&](unsigned* flag, const float4* theirs) {
        if (threadIdx.x == 0) wait_partial(flag);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
          for (int j = 0; j < kTN; j += 4) {
            const float4 p = __ldcg(theirs + (i * kTN + j) / 4 * kThreads + threadIdx.x);
            acc[i][j] += p.x, acc[i][j + 1] += p.y, acc[i][j + 2] += p.z, acc[i][j + 3] += p.w;
          }
        if (threadIdx.x == 0) *flag = 0;  // for the next run: nothing else reads it in this one
      };
      if constexpr (kShareAll) {
        schedule.for_each_helper(blockIdx.x, tile, [&](int helper) {
          add_partials(flags + helper, partials + std::size_t(helper) * kPartialFloat4s);
        });
      } else {  // a tile is cut at most once
        add_partials(flags + blockIdx.x + 1, partials + std::size_t(blockIdx.x + 1) * kPartialFloat4s);
      }
    }
    store_results<kVec>(c, acc, row0, col0, m, n);
  });
}

// Blocks of an instance that fit on the current GPU at once.
template <bool kVec, bool kShareAll>
int resident_blocks() {
  const auto kernel = stream_k_kernel<kVec, kShareAll>;
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // Every call: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, kSharedBytes));
  return sms * per_sm;
}

// The blocks each instance can have resident, asked once per run.
struct Residency {
  int whole[2] = {resident_blocks<false, false>(), resident_blocks<true, false>()};    // by kVec
  int shared[2] = {resident_blocks<false, true>(), resident_blocks<true, true>()};
  // A partial-sum slot and a flag for every block that any instance can have resident.
  int slots() const { return std::max({whole[0], whole[1], shared[0], shared[1]}); }
};

std::size_t scratch_bytes(int, int, int) {
  return std::size_t(Residency{}.slots()) * (kPartialFloat4s * sizeof(float4) + sizeof(unsigned));
}

// `slots`: as scratch_bytes counts them.
template <bool kVec, bool kShareAll>
void launch(const Problem& p, const Workspace& ws, int blocks, int slots) {
  auto* partials = static_cast<float4*>(ws.scratch);
  auto* flags = reinterpret_cast<unsigned*>(partials + std::size_t(slots) * kPartialFloat4s);
  if (blocks < 1) throw CudaError(cudaErrorInvalidConfiguration, "stream_k: no block fits on this GPU");
  // Every block must be resident at once, since a finisher waits for the
  // blocks after it: a cooperative launch fails, rather than hangs, where
  // fewer fit (another process's kernels, an SM limit under MPS).
  cudaLaunchAttribute cooperative;
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSharedBytes;
  config.stream = ws.stream;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  GPUBENCH_CUDA(cudaLaunchKernelEx(&config, stream_k_kernel<kVec, kShareAll>, p.a, p.b, p.c, p.m, p.n, p.k, partials,
                                   flags));
  GPUBENCH_CHECK_LAUNCH();
}

// Every tile's slabs are shared where a block's range plus a fix-up is
// shorter than a whole tile, with a block per (tile, slab) unit at most;
// otherwise a block per tile at most.
template <bool kVec>
void launch_for_size(const Problem& p, const Workspace& ws) {
  const Residency resident;
  const std::int64_t tiles = std::int64_t(ceil_div(p.n, kBN)) * ceil_div(p.m, kBM);
  const int slabs = ceil_div(p.k, kBK), shared = resident.shared[kVec];
  if (tiles < shared && (tiles * slabs + shared - 1) / shared + kFixupSlabs < slabs)
    launch<kVec, true>(p, ws, int(std::min<std::int64_t>(shared, tiles * slabs)), resident.slots());
  else
    launch<kVec, false>(p, ws, int(std::min<std::int64_t>(resident.whole[kVec], tiles)), resident.slots());
}

void run(const Problem& p, const Workspace& ws) {
  if (p.n % 4 == 0)
    launch_for_size<true>(p, ws);
  else
    launch_for_size<false>(p, ws);
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP_SCRATCH(stream_k, Ladder::cuda_core, Precision::fp32,
                           "fragment_prefetch on a persistent grid, the last two waves' k-slabs shared evenly", run,
                           (stream_k_kernel<true, false>), kSharedBytes, 0, scratch_bytes)
