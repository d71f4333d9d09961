// stream-k: fragment_prefetch on a persistent grid whose last wave's work is
// shared evenly among the blocks (Stream-K, stream_k.cuh).
// fragment_prefetch gives each block one 128 x 256 tile: at 4096^3, 512 tiles on
// 132 SMs (one block each) are 3.88 waves, and in the last one 16 SMs idle
// for a whole tile's time, 3% of the run. Here one block per SM stays
// resident and takes whole tiles for all but the last two waves' worth; the
// rest (all of it with fewer tiles than SMs: 128 at 2048^3) is cut into
// equal ranges of 16-deep k-slabs, one a block. A block whose range starts
// inside a tile computes that tile's later slabs first and stores its
// partial sums (128 KB, in the threads' own order, through L2) with a flag;
// the block whose range ends with the tile's first slabs adds those of every
// such block before it writes C. Partial sums and flags live in the step's
// scratch, which the harness zeroes before the step; a finisher clears each
// flag it consumed, so every run starts from zeros.
#include "kernels/gemm/pipelined_tile.cuh"
#include "kernels/gemm/stream_k.cuh"

namespace gpubench::gemm {
namespace {

using namespace pipelined;

constexpr int kPartialFloat4s = kThreads * kTM * kTN / 4;  // a block's partial sums, 128 KB

template <bool kVec>
__global__ void __launch_bounds__(kThreads) stream_k_kernel(const float* a, const float* b, float* c, int m,
                                                                       int n, int k, float4* partials, unsigned* flags) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int columns = ceil_div(n, kBN);
  const StreamK schedule(columns * ceil_div(m, kBM), ceil_div(k, kBK), gridDim.x);
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
      schedule.for_each_helper(blockIdx.x, tile, [&](int helper) {
        if (threadIdx.x == 0) wait_partial(flags + helper);
        __syncthreads();
        const float4* theirs = partials + std::size_t(helper) * kPartialFloat4s;
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
          for (int j = 0; j < kTN; j += 4) {
            const float4 p = __ldcg(theirs + (i * kTN + j) / 4 * kThreads + threadIdx.x);
            acc[i][j] += p.x, acc[i][j + 1] += p.y, acc[i][j + 2] += p.z, acc[i][j + 3] += p.w;
          }
        if (threadIdx.x == 0) flags[helper] = 0;  // for the next run: nothing else reads it in this one
      });
    }
    store_results<kVec>(c, acc, row0, col0, m, n);
  });
}

// Blocks of the kernel that fit on the current GPU at once.
template <bool kVec>
int resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // Every call: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(stream_k_kernel<kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_k_kernel<kVec>, kThreads, kSharedBytes));
  return sms * per_sm;
}

// A partial-sum slot and a flag for every block that can be resident.
std::size_t scratch_bytes(int, int, int) {
  return std::size_t(std::max(resident_blocks<true>(), resident_blocks<false>())) *
         (kPartialFloat4s * sizeof(float4) + sizeof(unsigned));
}

template <bool kVec>
void launch(const Problem& p, const Workspace& ws) {
  const int resident = resident_blocks<kVec>();
  const int slots = std::max(resident, resident_blocks<!kVec>());  // as scratch_bytes counts them
  auto* partials = static_cast<float4*>(ws.scratch);
  auto* flags = reinterpret_cast<unsigned*>(partials + std::size_t(slots) * kPartialFloat4s);
  // With fewer tiles than blocks, the tiles' slabs are shared: a block for
  // each (tile, slab) unit at most, and for each tile at least (k = 0).
  const std::int64_t tiles = std::int64_t(ceil_div(p.n, kBN)) * ceil_div(p.m, kBM);
  const int blocks = int(std::min<std::int64_t>(resident, tiles * std::max(1, ceil_div(p.k, kBK))));
  if (blocks < 1) throw CudaError(cudaErrorInvalidConfiguration, "stream_k: no block fits on this GPU");
  // Every block must be resident at once, since a finisher waits for the
  // block after it: a cooperative launch fails, rather than hangs, where
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
  GPUBENCH_CUDA(cudaLaunchKernelEx(&config, stream_k_kernel<kVec>, p.a, p.b, p.c, p.m, p.n, p.k, partials, flags));
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

GPUBENCH_GEMM_STEP_SCRATCH(stream_k, Ladder::cuda_core, Precision::fp32,
                           "fragment_prefetch on a persistent grid, the last two waves' k-slabs shared evenly", run,
                           stream_k_kernel<true>, kSharedBytes, 0, scratch_bytes)
