// pinned — lecture 21: the same program with cudaMallocHost buffers. Pinned
// (page-locked) memory is DMA'd directly, without the staging copy, at the
// PCIe link's speed; still nothing overlaps.
// It costs page-locked host memory: the 12 bytes per element of a, b and c stay
// resident, taken from what the OS can page out.
#include "kernels/transfer/transfer_common.hpp"

GPUBENCH_TRANSFER_STEP(pinned, Ladder::course, "the same with cudaMallocHost (pinned) buffers", Memory::pinned,
                       &copy_add_copy, nullptr)
