// brent-kung — work-efficient: a reduction tree up (partial sums at
// positions 2s-1, 4s-1, ...) and a distribution tree down, about 2 additions
// per element instead of Kogge-Stone's log2(tile). Threads are re-indexed
// so that the active ones at each level are contiguous (whole warps idle,
// no divergence inside a warp), and each of 512 threads owns 2 elements.
// It costs barriers: its two trees take 2 x 10 barrier-separated levels with
// fewer threads active at each, and it ran 0.96x kogge_stone_double_buffer.
#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {
namespace {

struct BrentKung {
  static constexpr int kThreads = 512, kTile = 1024;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    __shared__ T s[kTile];
    for (int i = threadIdx.x; i < kTile; i += kThreads) s[i] = i < count ? in[i] : Op::template identity<T>();
    for (int stride = 1; stride < kTile; stride *= 2) {  // reduction tree
      __syncthreads();
      const int idx = (threadIdx.x + 1) * 2 * stride - 1;
      if (idx < kTile) s[idx] = Op()(s[idx - stride], s[idx]);
    }
    for (int stride = kTile / 4; stride > 0; stride /= 2) {  // distribution tree
      __syncthreads();
      const int idx = (threadIdx.x + 1) * 2 * stride - 1;
      if (idx + stride < kTile) s[idx + stride] = Op()(s[idx], s[idx + stride]);
    }
    __syncthreads();
    if (total && threadIdx.x == 0) *total = s[kTile - 1];
    for (int i = threadIdx.x; i < count; i += kThreads)
      out[i] = exclusive ? (i > 0 ? s[i - 1] : Op::template identity<T>()) : s[i];
  }

  // Up: tile - 1; down: tile - 1 - log2(tile).
  static constexpr double tile_adds(int tile) {
    int log2 = 0;
    while ((1 << log2) < tile) ++log2;
    return 2.0 * (tile - 1) - log2;
  }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(brent_kung, Segmented<BrentKung>, Ladder::course,
                   "Brent-Kung: reduction + distribution trees, contiguous active threads")
