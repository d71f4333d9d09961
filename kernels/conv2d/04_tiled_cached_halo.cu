// tiled_cached_halo — lecture 8's second tiling (PMPP 7.5): blocks sized to
// the 32 x 32 output tile, so every thread computes. Shared memory holds
// only the tile's own pixels; a tap that falls in the halo reads global
// memory instead, where neighbouring blocks' loads have put it in the L1
// and L2 caches. It trades tiled_input's idle threads for a branch per tap.
#include "kernels/conv2d/constant_mask.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kTile = 32;

template <class T, int R>
__global__ void __launch_bounds__(kTile * kTile)
    tiled_cached_halo(const T* in, T* out, std::int64_t w, std::int64_t h) {
  constexpr int kSide = 2 * R + 1;
  __shared__ T tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t x = std::int64_t(blockIdx.x) * kTile + tx;
  for (std::int64_t tile_y = blockIdx.y; tile_y * kTile < h; tile_y += gridDim.y) {
    const std::int64_t y = tile_y * kTile + ty;
    tile[ty][tx] = pixel_or_zero(in, w, h, x, y);
    __syncthreads();
    if (x < w && y < h) {
      T sum = 0;
      for (int i = 0; i < kSide; ++i)
        for (int j = 0; j < kSide; ++j) {
          const int sy = ty - R + i, sx = tx - R + j;  // the tap in tile coordinates
          const T v = sy >= 0 && sy < kTile && sx >= 0 && sx < kTile ? tile[sy][sx]
                                                                     : pixel_or_zero(in, w, h, x - R + j, y - R + i);
          sum += v * mask_weight<T>(i * kSide + j);
        }
      out[y * w + x] = sum;
    }
    __syncthreads();
  }
}

struct TiledCachedHalo {
  template <class T, int R>
  static auto kernel() { return &tiled_cached_halo<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    tiled_cached_halo<T, R><<<tile_grid(p.width, p.height, kTile, kTile), dim3(kTile, kTile), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(tiled_cached_halo, TiledCachedHalo, Ladder::course,
                     "blocks sized to the output tile; halo taps through the L1 cache", &upload_mask)
