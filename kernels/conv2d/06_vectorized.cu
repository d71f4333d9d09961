// vectorized — beyond the course: register_blocked with the tile loaded by
// 128-bit loads (4 floats or 2 doubles per instruction) instead of one pixel
// per load. The tile's left edge moves left to a 16-byte boundary (the halo
// is rounded up to whole vectors), so a vector is either inside the image or
// a ghost. A quarter of the load instructions (half for doubles) and fewer
// index computations put more bytes in flight per thread while the tile
// fills. Images whose rows do not start on 16-byte boundaries (width not a
// multiple of the vector, or an unaligned image) fill the tile one pixel at
// a time, as register_blocked does. It costs the halo rounded up to whole
// vectors (10,368 bytes of shared memory against 9,792 at mask 5, float32)
// and, at that mask, a 4-byte spill: the compiler fits the kernel in 32
// registers for a full SM of blocks (the tables' `local` 8).
#include "kernels/conv2d/register_strip.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kBlockX = 64, kBlockY = 4, kRows = 8;
constexpr int kTileW = kBlockX, kTileH = kBlockY * kRows, kThreads = kBlockX * kBlockY;

template <class T, int R>
__global__ void __launch_bounds__(kThreads) vectorized(const T* in, T* out, std::int64_t w, std::int64_t h) {
  constexpr int kV = Vec<T>::kLanes;
  constexpr int kA = (R + kV - 1) / kV * kV;  // the halo, in whole vectors
  constexpr int kW = kTileW + 2 * kA, kH = kTileH + 2 * R, kVecs = kW / kV;
  __shared__ Vec<T> tile_vecs[kH][kVecs];
  T(*tile)[kW] = reinterpret_cast<T(*)[kW]>(tile_vecs);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBlockX + tx;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * kTileW;
  const bool aligned_rows = w % kV == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  for (std::int64_t tile_y = blockIdx.y; tile_y * kTileH < h; tile_y += gridDim.y) {
    const std::int64_t y0 = tile_y * kTileH;
    if (aligned_rows) {
      for (int k = tid; k < kH * kVecs; k += kThreads) {
        const std::int64_t gy = y0 - R + k / kVecs, gx = x0 - kA + std::int64_t(k % kVecs) * kV;
        Vec<T> v{};
        if (gy >= 0 && gy < h && gx >= 0 && gx < w) v = *reinterpret_cast<const Vec<T>*>(in + gy * w + gx);
        tile_vecs[k / kVecs][k % kVecs] = v;
      }
    } else {
      for (int k = tid; k < kH * kW; k += kThreads)
        tile[k / kW][k % kW] = pixel_or_zero(in, w, h, x0 - kA + k % kW, y0 - R + k / kW);
    }
    __syncthreads();
    T acc[kRows];
    convolve_strip<T, R, kRows>(&tile[ty * kRows][tx + kA - R], kW, acc);
    const std::int64_t x = x0 + tx;
#pragma unroll
    for (int py = 0; py < kRows; ++py) {
      const std::int64_t y = y0 + ty * kRows + py;
      if (x < w && y < h) out[y * w + x] = acc[py];
    }
    __syncthreads();
  }
}

struct Vectorized {
  template <class T, int R>
  static auto kernel() { return &vectorized<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    vectorized<T, R><<<tile_grid(p.width, p.height, kTileW, kTileH), dim3(kBlockX, kBlockY), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(vectorized, Vectorized, Ladder::modern, "the tile loaded with 128-bit loads", &upload_mask)
