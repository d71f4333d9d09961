// warp-shuffle — the block scan built from __shfl_up_sync: each thread
// scans its 8 elements in registers, every warp scans its 32 thread totals
// with shuffles (no shared memory, no barriers), one warp scans the 16 warp
// totals, and each thread applies its prefix. A tile takes 5 barriers (2 to
// load, 2 in the block scan, 1 to store) against coarsened's 12, 9 of them
// in the double-buffered Kogge-Stone of the section sums.
// It costs registers: each thread holds its 8 elements in registers from load
// to store, where coarsened kept them in shared memory.
#include "kernels/scan/warp_shuffle_tile.cuh"

GPUBENCH_SCAN_STEP(warp_shuffle, Segmented<WarpShuffle>, Ladder::course,
                   "block scan from __shfl_up_sync warp scans, 8 elements per thread")
