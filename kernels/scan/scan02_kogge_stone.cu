// kogge-stone — the same algorithm with the tile in shared memory: the
// log2(1024) steps now read and write on-chip, and global memory is read
// once and written once per tile. Each step still needs two barriers: one
// so every thread has read its operand before any thread overwrites it,
// one before the next step reads.
// It costs a tile of shared memory a block (1024 elements, 4 or 8 KB), and
// every step runs over the whole tile, even a short last one.
#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {
namespace {

struct KoggeStone {
  static constexpr int kThreads = 1024, kTile = 1024;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    __shared__ T s[kTile];
    const int i = threadIdx.x;
    s[i] = i < count ? in[i] : Op::template identity<T>();
    __syncthreads();
    for (int d = 1; d < kTile; d *= 2) {
      const T v = i >= d ? s[i - d] : Op::template identity<T>();
      __syncthreads();
      if (i >= d) s[i] = Op()(v, s[i]);
      __syncthreads();
    }
    if (total && i == 0) *total = s[kTile - 1];  // past count the identity was added
    if (i < count) out[i] = exclusive ? (i > 0 ? s[i - 1] : Op::template identity<T>()) : s[i];
  }

  static constexpr double tile_adds(int tile) { return kogge_stone_adds(tile); }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(kogge_stone, Segmented<KoggeStone>, Ladder::course,
                   "Kogge-Stone in shared memory, two barriers per step")
