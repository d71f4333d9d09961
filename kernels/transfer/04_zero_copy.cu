// zero_copy — lecture 23: mapped pinned memory (cudaHostAllocMapped), read
// and written by the kernel itself over PCIe, with no copies at all. Each
// warp's loads become PCIe reads; it does well when every byte is touched
// once, as here, and badly when data is reused.
#include "kernels/transfer/transfer_common.hpp"

namespace gpubench::transfer {
namespace {

void run_mapped(const Problem& p, const Workspace& ws) { add_on(p.da, p.db, p.dc, p.n, ws.stream); }

}  // namespace
}  // namespace gpubench::transfer

GPUBENCH_TRANSFER_STEP(zero_copy, Ladder::course, "mapped pinned memory read and written by the kernel",
                       Memory::mapped, &run_mapped, nullptr)
