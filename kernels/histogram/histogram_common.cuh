// Pieces the histogram steps share: the block-private histogram in shared
// memory and its merge, the grid that fills the GPU once, 128-bit sample
// loads, and step registration.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/common/resources.cuh"
#include "kernels/histogram/histogram_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::histogram {

constexpr int kThreads = 256;

inline unsigned blocks_for(std::int64_t n, int threads) { return unsigned((n + threads - 1) / threads); }

// Adds sample s to h[bin(s)] with an atomic, unless it is outside the
// range. Integer samples never are: the test is left out for them (it
// costs a compare and a branch around the atomic per sample).
template <class Bin, class T>
__device__ __forceinline__ void count(std::uint32_t* h, Bin bin, T s) {
  const int b = bin(s);
  if (Bin::kAlwaysInRange || b >= 0) atomicAdd(&h[b], 1u);
}

// Zeroes a block's histogram of `bins` counters in shared memory; the
// caller synchronizes before counting into it.
__device__ __forceinline__ void zero_shared(std::uint32_t* h, int bins) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x) h[b] = 0;
}

// Adds a block's histogram into the global one: one atomic per non-zero bin.
// Called by every thread after the block's last count and a __syncthreads.
__device__ __forceinline__ void merge_shared(const std::uint32_t* h, std::uint32_t* hist, int bins) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (h[b]) atomicAdd(&hist[b], h[b]);
}

// Opts `kernel` into `bytes` of dynamic shared memory (past 48 KiB a kernel
// must ask).
template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  GPUBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

// The blocks of `kernel` that are resident at once on the current device:
// a grid that loops over the input fills the GPU exactly once.
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int threads, std::size_t shared) {
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  return unsigned(std::max(1, per_sm) * sms);
}

// kVec samples of T in one 128-bit load.
template <class T>
struct alignas(16) Vec {
  static constexpr int kVec = 16 / sizeof(T);
  T v[kVec];
};

// The bin limit of steps with one block histogram of 4-byte counters in
// shared memory.
inline int shared_bins(std::size_t shared) { return int(std::min<std::size_t>(kMaxBins, shared / 4)); }

// What the steps with one block histogram of p.bins counters in shared
// memory, and no scratch, say of themselves.
struct SharedHistogram {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t shared) { return shared_bins(shared); }
  static std::size_t shared_bytes(const Problem& p) { return p.bins * sizeof(std::uint32_t); }
};

// Zeroes the histogram, then (for n > 0) launches
// kernel(samples, n, bin, args...) with `shared` bytes of dynamic shared
// memory on a grid the GPU holds at once, or fewer blocks for small n.
template <class T, class Bin, class... Args>
void count_on_resident_grid(void (*kernel)(const T*, std::int64_t, Bin, Args...), int threads, std::size_t shared,
                            const Problem& p, const Workspace& ws, Bin bin, Args... args) {
  GPUBENCH_CUDA(cudaMemsetAsync(p.hist, 0, p.bins * sizeof(std::uint32_t), ws.stream));
  if (p.n == 0) return;
  allow_shared(kernel, shared);
  const unsigned grid = std::min(resident_blocks(kernel, threads, shared), blocks_for(p.n, threads));
  kernel<<<grid, threads, shared, ws.stream>>>(static_cast<const T*>(p.samples), p.n, bin, args...);
  GPUBENCH_CHECK_LAUNCH();
}

// Dispatch from a Problem's sample type and bin count to a step's template.
template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  visit_bins(p.type, p.bins, [&](auto tag, auto bin) {
    Impl::template run<typename decltype(tag)::type>(p, ws, bin);
  });
}

// The resources of the kernel Impl::main_kernel<T, Bin>() for p, with
// Impl::shared_bytes(p) of dynamic shared memory.
template <class Impl>
Resources resources_dispatch(const Problem& p) {
  return visit_bins(p.type, p.bins, [&](auto tag, auto bin) {
    return resources_of(Impl::template main_kernel<typename decltype(tag)::type, decltype(bin)>(),
                        int(Impl::shared_bytes(p)));
  });
}

}  // namespace gpubench::histogram

// Registers IMPL as step NAME: a struct with template <class T, class Bin>
// run(problem, workspace, bin) and main_kernel() (the kernel run launches),
// and scratch_bytes, shared_bytes (dynamic, of the main kernel) and max_bins.
#define GPUBENCH_HISTOGRAM_STEP(NAME, IMPL, LADDER, SUMMARY)                                                \
  namespace gpubench::histogram {                                                                          \
  const Step& step_##NAME() {                                                                              \
    static const Step step{#NAME,          LADDER,          SUMMARY,                 Where::device,          \
                           &IMPL::scratch_bytes, &run_dispatch<IMPL>, &IMPL::max_bins, &resources_dispatch<IMPL>}; \
    return step;                                                                                           \
  }                                                                                                        \
  }
