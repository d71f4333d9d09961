// pipelined — warp tiling fed by a three-stage asynchronous-copy pipeline.
// warptiled still waits for every slab: it loads, synchronizes, computes,
// synchronizes. Here cp.async keeps up to two slabs in flight while the
// warps compute on a third, with one barrier per slab, and the copies land in
// shared memory without passing through registers, which leaves room for a
// larger block tile (128 x 256 x 16, 8 warps of 64 x 64, 16 x 8 results per
// thread), so each loaded element feeds more multiply-adds. A is copied
// element by element into its transposed place. The tile, its pipeline and
// the kernel are in pipelined_tile.cuh, which the next two steps share.
// It costs 74496 bytes of dynamic shared memory (past the 48 KB static limit,
// an opt-in) and 226 registers: one 256-thread block an SM.
#include "kernels/gemm/pipelined_tile.cuh"

GPUBENCH_GEMM_STEP_DYN(pipelined, Ladder::cuda_core, Precision::fp32,
                       "warp tiling + 3-stage cp.async pipeline, 128x256x16 block tile, 16x8 per thread",
                       pipelined::run_tiles<false>, (pipelined::tile_kernel<true, false>), pipelined::kSharedBytes, 0)
