// register_blocked — beyond the course: each thread computes a strip of 8
// outputs down one column (a block: a 64 x 32 output tile), holding one input
// row of its window in registers at a time (register_strip.cuh). Against
// tiled_cached_halo, a pixel read from shared memory feeds up to 8 FMAs
// instead of one, so the shared-memory loads stop bounding the larger masks;
// the whole tile and its halo are loaded into shared memory first, so no
// tap branches. It costs registers for the 8 accumulators and the window row.
#include "kernels/conv2d/register_strip.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kBlockX = 64, kBlockY = 4, kRows = 8;
constexpr int kTileW = kBlockX, kTileH = kBlockY * kRows;

template <class T, int R>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    register_blocked(const T* in, T* out, std::int64_t w, std::int64_t h) {
  constexpr int kW = kTileW + 2 * R, kH = kTileH + 2 * R;
  __shared__ T tile[kH][kW];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBlockX + tx;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * kTileW;
  for (std::int64_t tile_y = blockIdx.y; tile_y * kTileH < h; tile_y += gridDim.y) {
    const std::int64_t y0 = tile_y * kTileH;
    for (int k = tid; k < kH * kW; k += kBlockX * kBlockY)
      tile[k / kW][k % kW] = pixel_or_zero(in, w, h, x0 - R + k % kW, y0 - R + k / kW);
    __syncthreads();
    T acc[kRows];
    convolve_strip<T, R, kRows>(&tile[ty * kRows][tx], kW, acc);
    const std::int64_t x = x0 + tx;
#pragma unroll
    for (int py = 0; py < kRows; ++py) {
      const std::int64_t y = y0 + ty * kRows + py;
      if (x < w && y < h) out[y * w + x] = acc[py];
    }
    __syncthreads();
  }
}

struct RegisterBlocked {
  template <class T, int R>
  static auto kernel() { return &register_blocked<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    register_blocked<T, R><<<tile_grid(p.width, p.height, kTileW, kTileH), dim3(kBlockX, kBlockY), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(register_blocked, RegisterBlocked, Ladder::modern,
                     "8 outputs per thread down a column, the window row in registers", &upload_mask)
