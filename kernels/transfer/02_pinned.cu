// pinned — lecture 21: the same program with cudaMallocHost buffers. Pinned
// (page-locked) memory is DMA'd directly, without the staging copy, at the
// PCIe link's speed; still nothing overlaps.
#include "kernels/transfer/transfer_common.hpp"

GPUBENCH_TRANSFER_STEP(pinned, Ladder::course, "the same with cudaMallocHost (pinned) buffers", Memory::pinned,
                       &copy_add_copy, nullptr)
