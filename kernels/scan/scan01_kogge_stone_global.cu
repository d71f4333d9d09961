// kogge-stone-global — the course's first scan (lecture 11): Kogge-Stone
// working directly in global memory. A block of 1024 threads copies its
// tile to the output and, for d = 1, 2, 4, ..., adds to every element the
// one d places before it; each step reads, synchronizes and writes, so the
// block makes 2 x log2(1024) passes over global memory for one tile.
#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {
namespace {

struct KoggeStoneGlobal {
  static constexpr int kThreads = 1024, kTile = 1024;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    const int i = threadIdx.x;
    if (i < count) out[i] = in[i];
    __syncthreads();
    for (int d = 1; d < count; d *= 2) {
      T v = Op::template identity<T>();
      if (i < count && i >= d) v = out[i - d];
      __syncthreads();  // every read of this step before any write
      if (i < count && i >= d) out[i] = Op()(v, out[i]);
      __syncthreads();
    }
    if (total && i == count - 1) *total = out[i];
    if (exclusive) {
      const T v = i > 0 && i < count ? out[i - 1] : Op::template identity<T>();
      __syncthreads();
      if (i < count) out[i] = v;
    }
  }

  static constexpr double tile_adds(int tile) { return kogge_stone_adds(tile); }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(kogge_stone_global, Segmented<KoggeStoneGlobal>, Ladder::course,
                   "Kogge-Stone in global memory, 1024-element tiles, segmented scheme")
