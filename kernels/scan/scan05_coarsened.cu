// coarsened — the three-phase scan of lecture 12: each of 512 threads scans
// a section of 8 consecutive elements sequentially (work-efficient, and the
// tile grows to 4096), the block scans the 512 section sums with
// double-buffered Kogge-Stone, and each thread adds the sum of the sections
// before its own. The tile is loaded and stored coalesced through shared
// memory, padded so the threads' section reads do not collide in banks.
// It costs work and shared memory: 3.87 adds per element against brent_kung's
// 2.99 (scan-2p28.txt), and a padded 4096-element tile plus two 512-element sum
// buffers.
#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {
namespace {

struct Coarsened {
  static constexpr int kThreads = 512, kItems = 8, kTile = kThreads * kItems;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    __shared__ T s[padded(kTile)];
    __shared__ T sums[2][kThreads];
    const int t = threadIdx.x;
    for (int i = t; i < kTile; i += kThreads) s[padded(i)] = i < count ? in[i] : Op::template identity<T>();
    __syncthreads();
    // Phase 1: the thread's section, sequentially.
    for (int j = 1; j < kItems; ++j)
      s[padded(t * kItems + j)] = Op()(s[padded(t * kItems + j - 1)], s[padded(t * kItems + j)]);
    sums[0][t] = s[padded(t * kItems + kItems - 1)];
    __syncthreads();
    // Phase 2: the section sums, Kogge-Stone with two buffers.
    int src = 0;
    for (int d = 1; d < kThreads; d *= 2, src ^= 1) {
      sums[src ^ 1][t] = t >= d ? Op()(sums[src][t - d], sums[src][t]) : sums[src][t];
      __syncthreads();
    }
    // Phase 3: add what the sections before this one sum to.
    if (t > 0)
      for (int j = 0; j < kItems; ++j) s[padded(t * kItems + j)] = Op()(sums[src][t - 1], s[padded(t * kItems + j)]);
    __syncthreads();
    if (total && t == 0) *total = sums[src][kThreads - 1];
    for (int i = t; i < count; i += kThreads)
      out[i] = exclusive ? (i > 0 ? s[padded(i - 1)] : Op::template identity<T>()) : s[padded(i)];
  }

  static constexpr double tile_adds(int) {
    return kThreads * (kItems - 1) + kogge_stone_adds(kThreads) + (kThreads - 1) * kItems;
  }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(coarsened, Segmented<Coarsened>, Ladder::course,
                   "three-phase: 8-element sections per thread, Kogge-Stone on the section sums")
