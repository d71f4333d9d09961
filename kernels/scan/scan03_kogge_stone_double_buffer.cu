// kogge-stone-double-buffer — two shared buffers: each step reads one and
// writes the other, so no thread can overwrite an operand another thread
// has yet to read, and one barrier per step is enough (lecture 11).
// It costs twice the shared memory: two 1024-element buffers a block (8 or 16
// KB) instead of one.
#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {
namespace {

struct KoggeStoneDoubleBuffer {
  static constexpr int kThreads = 1024, kTile = 1024;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    __shared__ T buffers[2][kTile];
    const int i = threadIdx.x;
    buffers[0][i] = i < count ? in[i] : Op::template identity<T>();
    __syncthreads();
    int src = 0;
    for (int d = 1; d < kTile; d *= 2, src ^= 1) {
      buffers[src ^ 1][i] = i >= d ? Op()(buffers[src][i - d], buffers[src][i]) : buffers[src][i];
      __syncthreads();
    }
    const T* s = buffers[src];
    if (total && i == 0) *total = s[kTile - 1];
    if (i < count) out[i] = exclusive ? (i > 0 ? s[i - 1] : Op::template identity<T>()) : s[i];
  }

  static constexpr double tile_adds(int tile) { return kogge_stone_adds(tile); }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(kogge_stone_double_buffer, Segmented<KoggeStoneDoubleBuffer>, Ladder::course,
                   "Kogge-Stone, two shared buffers: one barrier per step")
