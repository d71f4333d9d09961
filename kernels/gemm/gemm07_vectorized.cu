// vectorized — 128-bit global loads and stores, A transposed in shared memory.
// Same 128 x 128 x 8 tiling as 2d-blocktiling, but each thread fetches four
// consecutive floats of A and of B with one 16-byte load, and A is stored
// transposed (as[k][m]) so the compute loop reads A's column slice as
// contiguous floats. A quarter of the global load instructions, and wider
// shared loads. Needs k and n to be multiples of 4 for the 16-byte path;
// other sizes take the same kernel with element loads. It costs A's stores:
// transposing means four scalar shared-memory stores per float4 of A, where
// B's float4 goes in with one, and those stores are 2-way bank conflicts
// (the next step pads A's rows to remove them).
#include "kernels/gemm/vectorized_tile.cuh"

GPUBENCH_GEMM_STEP(vectorized, Ladder::cuda_core, Precision::fp32,
                   "128-bit loads and stores, A transposed in shared memory", vectorized::launch<0>,
                   (vectorized::kernel<true, 0>))
