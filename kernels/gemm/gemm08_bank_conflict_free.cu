// bank-conflict-free — the vectorized step with A's shared rows padded.
// Storing A transposed, the two threads of a row pair write as[(c + i) * 128 +
// row] for c = 0 and c = 4: 512 floats apart, the same bank, so every such
// store is a 2-way bank conflict. Four floats of padding per row (a stride
// of 132) move the second group to other banks; the compute loop's 16-byte
// reads of A stay aligned. The 16-byte reads of B (lanes 8 floats apart)
// remain 2-way conflicted. Measure it: these stores are few against the
// multiply-adds.
// It costs four padding floats per A row, 8320 bytes of shared memory a block
// against 8192 (gemm-4096.txt), too few to change occupancy.
#include "kernels/gemm/vectorized_tile.cuh"

GPUBENCH_GEMM_STEP(bank_conflict_free, Ladder::cuda_core, Precision::fp32,
                   "A's shared tile padded to 132 floats a row: no conflicts on the transposed store",
                   vectorized::launch<4>, (vectorized::kernel<true, 4>))
