// pipelined — warp tiling fed by a three-stage asynchronous-copy pipeline.
// warptiled still waits for every slab: it loads, synchronizes, computes,
// synchronizes. Here cp.async keeps up to two slabs in flight while the
// warps compute on a third, with one barrier per slab, and the copies land in
// shared memory without passing through registers, which leaves room for a
// larger block tile (128 x 256 x 16, 8 warps of 64 x 64, 16 x 8 results per
// thread), so each loaded element feeds more multiply-adds. A is copied
// element by element into its transposed place. The tile and its pipeline
// are in pipelined_tile.cuh, which the next two steps share.
#include "kernels/gemm/pipelined_tile.cuh"

namespace gpubench::gemm {
namespace {

using namespace pipelined;

template <bool kVec>
__global__ void __launch_bounds__(kThreads) pipelined_kernel(const float* a, const float* b, float* c, int m, int n,
                                                              int k) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[kTM][kTN] = {};
  multiply_slabs<kVec, false>(acc, smem, a, b, row0, col0, 0, (k + kBK - 1) / kBK, m, n, k);
  store_results<kVec>(c, acc, row0, col0, m, n);
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
