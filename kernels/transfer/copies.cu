// The ceilings, measured in the same run: the copy engines alone, in each
// direction, from pageable and from pinned memory, and both directions at
// once (a and b in on one stream while c goes out on another; c comes from
// a device copy of a + b that no step writes). With both
// engines busy, the fastest the ladder can be is max(8 n / H2D, 4 n / D2H);
// the fixture measures that bound itself for the "% bound" column.
#include "kernels/transfer/transfer_common.hpp"

namespace gpubench::transfer {
namespace {

double in_bytes(std::int64_t n) { return 8.0 * double(n); }
double out_bytes(std::int64_t n) { return 4.0 * double(n); }
double all_bytes(std::int64_t n) { return 12.0 * double(n); }

void copy_in(const Problem& p, const Workspace& ws) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(float);
  GPUBENCH_CUDA(cudaMemcpyAsync(p.da, p.a, bytes, cudaMemcpyHostToDevice, ws.stream));
  GPUBENCH_CUDA(cudaMemcpyAsync(p.db, p.b, bytes, cudaMemcpyHostToDevice, ws.stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));
}

void copy_out(const Problem& p, const Workspace& ws) {
  GPUBENCH_CUDA(cudaMemcpyAsync(p.c, p.dc, std::size_t(p.n) * sizeof(float), cudaMemcpyDeviceToHost, ws.stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));
}

// c goes out on the harness's stream while a and b come in on another.
void copy_both(const Problem& p, const Workspace& ws) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(float);
  GPUBENCH_CUDA(cudaMemcpyAsync(p.da, p.a, bytes, cudaMemcpyHostToDevice, ws.streams[0]));
  GPUBENCH_CUDA(cudaMemcpyAsync(p.db, p.b, bytes, cudaMemcpyHostToDevice, ws.streams[0]));
  GPUBENCH_CUDA(cudaMemcpyAsync(p.c, p.dc, bytes, cudaMemcpyDeviceToHost, ws.stream));
  GPUBENCH_CUDA(cudaDeviceSynchronize());
}

}  // namespace

#define GPUBENCH_COPY_STEP(NAME, SUMMARY, MEMORY, RUN, BYTES, CHECK)                                    \
  const Step& step_##NAME() {                                                                          \
    static const Step step{#NAME, Ladder::baseline, SUMMARY, MEMORY, false, RUN, nullptr, BYTES, CHECK}; \
    return step;                                                                                       \
  }
GPUBENCH_COPY_STEP(h2d_pageable, "a and b in from pageable memory (cudaMemcpyAsync)", Memory::pageable, &copy_in,
                   &in_bytes, Check::inputs)
GPUBENCH_COPY_STEP(d2h_pageable, "c out to pageable memory", Memory::pageable, &copy_out, &out_bytes, Check::sum)
GPUBENCH_COPY_STEP(h2d_pinned, "a and b in from pinned memory", Memory::pinned, &copy_in, &in_bytes, Check::inputs)
GPUBENCH_COPY_STEP(d2h_pinned, "c out to pinned memory", Memory::pinned, &copy_out, &out_bytes, Check::sum)
GPUBENCH_COPY_STEP(bidirectional, "a and b in while c goes out, pinned, two streams", Memory::pinned, &copy_both,
                   &all_bytes, Check::both)
#undef GPUBENCH_COPY_STEP

}  // namespace gpubench::transfer
