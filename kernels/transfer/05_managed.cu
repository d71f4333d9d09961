// managed — lecture 23: cudaMallocManaged buffers written by the host,
// the kernel launched on them with no hints, and the host reading c
// afterwards. Pages move on demand: the kernel's first touch of each page
// faults it over to the GPU, the host's first touch of c faults it back
// (c, poisoned by the host before each run, crosses the link both ways:
// GB/s still counts the 12 bytes per element the operation needs). Against
// zero_copy, whose kernel reads and writes host memory over the link on
// every access, the pages move to the GPU and the kernel works on them in
// device memory, which pays where data is reused. It costs the faults: a
// warp that touches a page not yet moved waits for the driver to move it,
// and the faults, not the link, set the speed.
#include "kernels/transfer/transfer_common.hpp"

namespace gpubench::transfer {
namespace {

void run_managed(const Problem& p, const Workspace& ws) {
  add_on(p.a, p.b, p.c, p.n, ws.stream);
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));
  // c back in host memory: the host touches every page of it.
  volatile float sink = 0;
  for (std::int64_t i = 0; i < p.n; i += 1024) sink = sink + p.c[i];
}

}  // namespace
}  // namespace gpubench::transfer

GPUBENCH_TRANSFER_STEP(managed, Ladder::course, "cudaMallocManaged, no hints: pages fault over and back",
                       Memory::managed, &run_managed, nullptr)
