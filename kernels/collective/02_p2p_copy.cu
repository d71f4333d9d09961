// p2p_copy — lecture 23's peer-to-peer copies: with peer access enabled,
// cudaMemcpyPeerAsync moves data over NVLink without the host. A ring
// all-reduce: G-1 steps of reduce-scatter (each GPU sends one segment to
// the next, which adds it into its own with a kernel), then G-1 steps of
// all-gather (the reduced segments passed on round the ring). Each GPU
// sends and receives 2(G-1)/G of the buffer, the least any all-reduce
// can; what it costs is a copy and a kernel launch per step, and the
// receiver's add, which reads and writes its segment once more.
#include "kernels/collective/collective_common.hpp"

namespace gpubench::collective {
namespace {

struct Ring : Plan {
  explicit Ring(const std::vector<int>& devices) : done(devices) {}
  Events done;  // done.events[g]: GPU g's last step is finished
};

std::string needs_peers(const Problem& p) {
  return peers_reachable(p.devices) ? std::string() : "these GPUs cannot reach each other's memory (no peer access)";
}

// The receive buffer: one segment.
std::size_t segment_scratch(const Problem& p) {
  const int parts = std::max(1, p.gpus());  // no devices yet: the host-side check of a run
  return std::size_t((p.count + parts - 1) / parts) * elem_size(p.elem);
}

std::unique_ptr<Plan> make_ring(const Problem& p) {
  enable_peer_access(p.devices);
  return std::make_unique<Ring>(p.devices);
}

void run_ring(const Problem& p, Plan* base) {
  auto& ev = static_cast<Ring*>(base)->done.events;
  const int G = p.gpus();
  const std::int64_t n = p.count;
  const std::size_t size = elem_size(p.elem);
  for (int g = 0; g < G; ++g) {  // out starts as the GPU's own input
    OnDevice on(p.devices[g]);
    GPUBENCH_CUDA(cudaMemcpyAsync(p.out[g], p.in[g], std::size_t(n) * size, cudaMemcpyDeviceToDevice, p.streams[g]));
    GPUBENCH_CUDA(cudaEventRecord(ev[g], p.streams[g]));
  }
  // Step s of 2(G-1): GPU g sends segment seg(g, s) to GPU q = g + 1. Every
  // wait is queued before any record of the same step, so each waits for
  // the sender's previous step.
  const auto segment = [&](int g, int s) { return s < G - 1 ? ((g - s) % G + G) % G : ((g + 1 - (s - G + 1)) % G + G) % G; };
  for (int s = 0; s < 2 * (G - 1); ++s) {
    const bool reduce_scatter = s < G - 1;
    for (int g = 0; g < G; ++g) {
      const int q = (g + 1) % G, seg = segment(g, s);
      const std::int64_t lo = segment_begin(n, G, seg), len = segment_end(n, G, seg) - lo;
      OnDevice on(p.devices[q]);
      GPUBENCH_CUDA(cudaStreamWaitEvent(p.streams[q], ev[g], 0));
      void* dst = reduce_scatter ? p.scratch[q] : at(p.out[q], lo, p.elem);
      if (len > 0)
        GPUBENCH_CUDA(cudaMemcpyPeerAsync(dst, p.devices[q], at(p.out[g], lo, p.elem), p.devices[g], std::size_t(len) * size,
                                          p.streams[q]));
    }
    for (int g = 0; g < G; ++g) {
      const int q = (g + 1) % G, seg = segment(g, s);
      const std::int64_t lo = segment_begin(n, G, seg), len = segment_end(n, G, seg) - lo;
      OnDevice on(p.devices[q]);
      if (reduce_scatter) combine_on(at(p.out[q], lo, p.elem), p.scratch[q], len, p.elem, p.op, p.streams[q]);
      GPUBENCH_CUDA(cudaEventRecord(ev[q], p.streams[q]));
    }
  }
}

}  // namespace
}  // namespace gpubench::collective

GPUBENCH_COLLECTIVE_STEP(p2p_copy, Ladder::course,
                         "ring reduce-scatter + all-gather: cudaMemcpyPeerAsync between neighbours, an add kernel per step",
                         &needs_peers, &segment_scratch, &no_host_memory, &make_ring, &run_ring)
