// tiled_input — lecture 8's tiling: a block of 32 x 32 threads loads a
// 32 x 32 input tile (its output tile plus the halo) into shared memory, one
// pixel per thread, ghost cells as zeros; then the threads of the inner
// (32 - 2r) x (32 - 2r) output tile compute from shared memory. Each pixel
// now comes from DRAM about once, but the halo threads idle during the
// computation: at mask 15 only 18 x 18 of the 1024 threads compute.
#include "kernels/conv2d/constant_mask.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kIn = 32;  // the input tile's side, and the block's

template <class T, int R>
__global__ void __launch_bounds__(kIn * kIn) tiled_input(const T* in, T* out, std::int64_t w, std::int64_t h) {
  constexpr int kSide = 2 * R + 1, kOut = kIn - 2 * R;
  __shared__ T tile[kIn][kIn];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t x = std::int64_t(blockIdx.x) * kOut + tx - R;
  const bool computes = tx >= R && tx < kIn - R && ty >= R && ty < kIn - R && x < w;
  for (std::int64_t tile_y = blockIdx.y; tile_y * kOut < h; tile_y += gridDim.y) {
    const std::int64_t y = tile_y * kOut + ty - R;
    tile[ty][tx] = pixel_or_zero(in, w, h, x, y);
    __syncthreads();
    if (computes && y < h) {
      T sum = 0;
      for (int i = 0; i < kSide; ++i)
        for (int j = 0; j < kSide; ++j) sum += tile[ty - R + i][tx - R + j] * mask_weight<T>(i * kSide + j);
      out[y * w + x] = sum;
    }
    __syncthreads();  // the tile is read before the next one is loaded
  }
}

struct TiledInput {
  template <class T, int R>
  static auto kernel() { return &tiled_input<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    constexpr int kOut = kIn - 2 * R;
    tiled_input<T, R><<<tile_grid(p.width, p.height, kOut, kOut), dim3(kIn, kIn), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(tiled_input, TiledInput, Ladder::course,
                     "blocks sized to the input tile: halo in shared memory, halo threads idle", &upload_mask)
