// pageable — lecture 2's program: malloc'd host buffers, cudaMemcpy of a
// and b to the device, the add, cudaMemcpy of c back. The driver cannot DMA
// from pageable memory: it copies each buffer through a pinned staging
// buffer, and nothing overlaps.
#include "kernels/transfer/transfer_common.hpp"

GPUBENCH_TRANSFER_STEP(pageable, Ladder::course, "malloc buffers, cudaMemcpy in, add, cudaMemcpy out", Memory::pageable,
                       &copy_add_copy, nullptr)
