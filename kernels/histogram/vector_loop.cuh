// The modern steps' traversal: 128-bit loads, several in flight per thread,
// interleaved across the grid so each warp's loads are coalesced.
#pragma once

#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {

// Calls count(sample) for every sample thread `thread` of `threads` owns:
// (the first threads) the samples before the first 16-byte boundary, then
// whole 16-byte vectors kLoads at a time, then the vectors left, then the
// samples past the last whole vector. (Loading the next kLoads vectors
// while counting these took 118 registers instead of about 34 and was slower
// on the H200, in a development run not kept in results/.)
template <int kLoads, class T, class F>
__device__ __forceinline__ void for_each_sample(const T* samples, std::int64_t n, std::int64_t thread,
                                                std::int64_t threads, F&& count) {
  constexpr int kVec = Vec<T>::kVec;
  const unsigned misaligned = unsigned(reinterpret_cast<std::uintptr_t>(samples) % 16);
  if (misaligned) {
    const std::int64_t head = (16 - misaligned) / sizeof(T);  // samples are aligned to their size
    for (std::int64_t i = thread; i < head && i < n; i += threads) count(samples[i]);
    if (n <= head) return;
    samples += head;
    n -= head;
  }
  const auto* vecs = reinterpret_cast<const Vec<T>*>(samples);
  const std::int64_t n_vecs = n / kVec;
  std::int64_t v = thread;
  for (; v + (kLoads - 1) * threads < n_vecs; v += kLoads * threads) {
    Vec<T> x[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) x[j] = vecs[v + j * threads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j)
#pragma unroll
      for (int k = 0; k < kVec; ++k) count(x[j].v[k]);
  }
  for (; v < n_vecs; v += threads) {
    const Vec<T> x = vecs[v];
#pragma unroll
    for (int k = 0; k < kVec; ++k) count(x.v[k]);
  }
  for (std::int64_t i = n_vecs * kVec + thread; i < n; i += threads) count(samples[i]);
}

}  // namespace gpubench::histogram
