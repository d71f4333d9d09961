// host_staged — lecture 23's starting point, with no path between the GPUs:
// each GPU copies its input to pinned host memory, the host reduces them
// with all its threads, and every GPU copies the result back. Each byte
// crosses PCIe twice and the host's memory once more; the links between
// the GPUs sit idle.
#include "kernels/collective/collective_common.hpp"
#include "kernels/collective/elementwise.cuh"
#include "src/detail/parallel.hpp"

namespace gpubench::collective {
namespace {

struct PinnedBuffer {
  void* p = nullptr;
  explicit PinnedBuffer(std::size_t bytes) { GPUBENCH_CUDA(cudaMallocHost(&p, std::max<std::size_t>(bytes, 1))); }
  ~PinnedBuffer() { cudaFreeHost(p); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
};

struct HostStaged : Plan {
  std::vector<std::unique_ptr<PinnedBuffer>> in;  // one per GPU
  std::unique_ptr<PinnedBuffer> out;
};

template <class T>
void host_reduce(const std::vector<const T*>& in, T* out, std::int64_t n, Op op) {
  parallel_blocks(n, std::int64_t(1) << 16, [&](std::int64_t, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t i = lo; i < hi; ++i) {
      T acc = in[0][i];
      for (std::size_t g = 1; g < in.size(); ++g) acc = apply(op, acc, in[g][i]);
      out[i] = acc;
    }
  });
}

// Pinned: one buffer per GPU's input and one for the sum. Asked before the
// GPUs are known (no devices yet), it counts the two a run spans at least.
std::size_t staged_bytes(const Problem& p) {
  return std::size_t(std::max(p.gpus(), 2) + 1) * std::size_t(p.count) * elem_size(p.elem);
}

std::unique_ptr<Plan> make_host_staged(const Problem& p) {
  auto plan = std::make_unique<HostStaged>();
  const std::size_t bytes = std::size_t(p.count) * elem_size(p.elem);
  for (int g = 0; g < p.gpus(); ++g) plan->in.push_back(std::make_unique<PinnedBuffer>(bytes));
  plan->out = std::make_unique<PinnedBuffer>(bytes);
  return plan;
}

void run_host_staged(const Problem& p, Plan* base) {
  auto& plan = *static_cast<HostStaged*>(base);
  const std::size_t bytes = std::size_t(p.count) * elem_size(p.elem);
  for (int g = 0; g < p.gpus(); ++g) {
    OnDevice on(p.devices[g]);
    GPUBENCH_CUDA(cudaMemcpyAsync(plan.in[g]->p, p.in[g], bytes, cudaMemcpyDeviceToHost, p.streams[g]));
  }
  for (int g = 0; g < p.gpus(); ++g) GPUBENCH_CUDA(cudaStreamSynchronize(p.streams[g]));
  const auto reduce = [&](auto t) {
    using T = decltype(t);
    std::vector<const T*> in;
    for (const auto& b : plan.in) in.push_back(static_cast<const T*>(b->p));
    host_reduce(in, static_cast<T*>(plan.out->p), p.count, p.op);
  };
  visit_elem(p.elem, reduce);
  for (int g = 0; g < p.gpus(); ++g) {
    OnDevice on(p.devices[g]);
    GPUBENCH_CUDA(cudaMemcpyAsync(p.out[g], plan.out->p, bytes, cudaMemcpyHostToDevice, p.streams[g]));
  }
}

}  // namespace
}  // namespace gpubench::collective

GPUBENCH_COLLECTIVE_STEP(host_staged, Ladder::course,
                         "each GPU's input to pinned host memory, summed by all host threads, copied back to each",
                         &always_available, &no_scratch, &staged_bytes, &make_host_staged, &run_host_staged)
