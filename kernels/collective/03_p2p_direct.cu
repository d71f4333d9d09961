// p2p_direct — lecture 23's unified virtual addressing: with peer access
// enabled a kernel dereferences a peer GPU's pointer, and its loads travel
// over NVLink with no copy call at all. Small messages go one-shot: every
// GPU reads all inputs and writes the whole result, one launch per GPU and
// no waiting on each other, so latency is one kernel. Large ones go
// two-shot: GPU g reduces slice g reading that slice of every input, then
// reads the other GPUs' reduced slices; each GPU moves 2(G-1)/G of the
// buffer over the links, as the ring does, in two launches instead of
// 2(G-1) copies and adds.
// It costs peer access between every pair of GPUs (at most 8), and one-shot has
// every GPU read all G-1 peers' whole buffers.
#include "kernels/collective/collective_common.hpp"

namespace gpubench::collective {
namespace {

// Up to this many bytes per GPU, one-shot: below it the (G-1)-fold reads
// cost less than a second launch and the wait between GPUs.
constexpr std::int64_t kOneShotBytes = std::int64_t(256) << 10;

struct Direct : Plan {
  explicit Direct(const std::vector<int>& devices) : done(devices) {}
  Events done;  // done.events[g]: GPU g has reduced its slice
};

std::string needs_direct_peers(const Problem& p) {
  if (p.gpus() > kMaxGpus) return "reads at most " + std::to_string(kMaxGpus) + " GPUs' buffers in one kernel";
  return peers_reachable(p.devices) ? std::string() : "these GPUs cannot reach each other's memory (no peer access)";
}

std::unique_ptr<Plan> make_direct(const Problem& p) {
  enable_peer_access(p.devices);
  return std::make_unique<Direct>(p.devices);
}

void run_direct(const Problem& p, Plan* base) {
  auto& ev = static_cast<Direct*>(base)->done.events;
  const int G = p.gpus();
  const std::int64_t n = p.count;
  if (n * std::int64_t(elem_size(p.elem)) <= kOneShotBytes) {
    for (int g = 0; g < G; ++g) {
      OnDevice on(p.devices[g]);
      reduce_sources_on(p.in, p.out[g], n, p.elem, p.op, p.streams[g]);
    }
    return;
  }
  for (int g = 0; g < G; ++g) {  // reduce-scatter: slice g on GPU g
    const std::int64_t lo = segment_begin(n, G, g), len = segment_end(n, G, g) - lo;
    std::vector<const void*> slices;
    for (const void* in : p.in) slices.push_back(at(in, lo, p.elem));
    OnDevice on(p.devices[g]);
    reduce_sources_on(slices, at(p.out[g], lo, p.elem), len, p.elem, p.op, p.streams[g]);
    GPUBENCH_CUDA(cudaEventRecord(ev[g], p.streams[g]));
  }
  for (int g = 0; g < G; ++g) {  // all-gather: every other slice read from its GPU
    OnDevice on(p.devices[g]);
    for (int h = 0; h < G; ++h) {
      if (h == g) continue;
      const std::int64_t lo = segment_begin(n, G, h), len = segment_end(n, G, h) - lo;
      GPUBENCH_CUDA(cudaStreamWaitEvent(p.streams[g], ev[h], 0));
      reduce_sources_on({at(static_cast<const void*>(p.out[h]), lo, p.elem)}, at(p.out[g], lo, p.elem), len, p.elem,
                        p.op, p.streams[g]);
    }
  }
}

}  // namespace
}  // namespace gpubench::collective

GPUBENCH_COLLECTIVE_STEP(p2p_direct, Ladder::course,
                         "kernels read the peers' buffers over NVLink: one-shot up to 256 KiB, two-shot above",
                         &needs_direct_peers, &no_scratch, &no_host_memory, &make_direct, &run_direct)
