// fragment-prefetch: pipelined with the shared-memory loads of each k-step
// issued one k-step ahead.
// In pipelined a warp loads a k-step's 16 values of A and 8 of B from
// shared memory and then issues the 128 multiply-adds that use them; with
// two warps a scheduler (one 256-thread block an SM, its registers full) the
// other warp cannot always cover the loads' latency, and Nsight Compute
// shows warps waiting on them (short-scoreboard stalls). Here the fragments
// of k-step p + 1 are loaded into a second set of 24 registers before the
// multiply-adds of k-step p, so they arrive while the math runs (the
// classic register double buffering of CUTLASS and cuBLAS). The first
// k-step of each slab still waits, after the slab's barrier.
#include "kernels/gemm/pipelined_tile.cuh"

namespace gpubench::gemm {
namespace {

using namespace pipelined;

template <bool kVec>
__global__ void __launch_bounds__(kThreads) fragment_prefetch_kernel(const float* a, const float* b, float* c, int m, int n,
                                                              int k) {
  extern __shared__ __align__(16) float smem[];  // kStages x (A^T slab, B slab)
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[kTM][kTN] = {};
  multiply_slabs<kVec, true>(acc, smem, a, b, row0, col0, 0, (k + kBK - 1) / kBK, m, n, k);
  store_results<kVec>(c, acc, row0, col0, m, n);
}

template <bool kVec>
void launch(const Problem& p, const Workspace& ws) {
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(fragment_prefetch_kernel<kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  fragment_prefetch_kernel<kVec><<<grid, kThreads, kSharedBytes, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
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

GPUBENCH_GEMM_STEP_DYN(fragment_prefetch, Ladder::cuda_core, Precision::fp32,
                       "pipelined, each k-step's fragments loaded during the previous k-step's multiply-adds", run,
                       fragment_prefetch_kernel<true>, kSharedBytes, 0)
