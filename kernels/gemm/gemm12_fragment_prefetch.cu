// fragment-prefetch: pipelined with the shared-memory loads of each k-step
// issued one k-step ahead.
// In pipelined a warp loads a k-step's 16 values of A and 8 of B from
// shared memory and then issues the 128 multiply-adds that use them. With
// one 256-thread block an SM (its registers full) a scheduler has two warps,
// which cannot always cover the loads' latency: Nsight Compute counted
// fewer instructions than cuBLAS SGEMM's but 0.80 issued a cycle against
// its 0.90. Here the fragments of k-step p + 1 are loaded into a second set
// of 24 registers before the multiply-adds of k-step p, so they arrive while
// the math runs (the register double buffering of CUTLASS and cuBLAS). The
// first k-step of each slab still waits, after the slab's barrier. The
// cost: registers for the second set (245 a thread against pipelined's 226
// in results/h200/gemm-4096.txt). The kernel is pipelined's
// (pipelined_tile.cuh) with kPrefetch set.
#include "kernels/gemm/pipelined_tile.cuh"

GPUBENCH_GEMM_STEP_DYN(fragment_prefetch, Ladder::cuda_core, Precision::fp32,
                       "pipelined, each k-step's fragments loaded during the previous k-step's multiply-adds",
                       pipelined::run_tiles<true>, (pipelined::tile_kernel<true, true>), pipelined::kSharedBytes, 0)
