// register_tiled — beyond the course: each thread computes a 2D tile of
// outputs, one 16-byte vector wide (4 floats or 2 doubles) and 4 rows tall,
// and reads its window rows from shared memory as 128-bit loads
// (register_tile.cuh). Against vectorized, a loaded window row feeds 4
// output columns instead of 1, so shared-memory loads per FMA drop about 4x
// (at mask 15, 5 loads of a window row feed 60 FMAs); the outputs leave as
// 128-bit stores.
// It costs shared memory and registers: 18496 bytes and 48 registers at mask 3
// in float32, against vectorized's 9792 and 32 (conv2d-8192.txt).
#include "kernels/conv2d/register_tile.cuh"

namespace gpubench::conv2d {
namespace {

template <class T, int R>
__global__ void __launch_bounds__(TileShape<T, R>::kThreads)
    register_tiled(const T* __restrict__ in, T* __restrict__ out, std::int64_t w, std::int64_t h) {
  using S = TileShape<T, R>;
  __shared__ Vec<T> tile_vecs[S::kH][S::kVecs];
  T(*tile)[S::kW] = reinterpret_cast<T(*)[S::kW]>(tile_vecs);
  const int tid = threadIdx.y * S::kBlockX + threadIdx.x;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * S::kTileW;
  const bool aligned = vector_rows(in, w);
  for (std::int64_t tile_y = blockIdx.y; tile_y * S::kTileH < h; tile_y += gridDim.y) {
    const std::int64_t y0 = tile_y * S::kTileH;
    if (aligned) {
#pragma unroll 4
      for (int k = tid; k < S::kH * S::kVecs; k += S::kThreads) {
        const std::int64_t gy = y0 - R + k / S::kVecs, gx = x0 - S::kA + std::int64_t(k % S::kVecs) * S::kV;
        Vec<T> v{};
        if (gy >= 0 && gy < h && gx >= 0 && gx < w) v = *reinterpret_cast<const Vec<T>*>(in + gy * w + gx);
        tile_vecs[k / S::kVecs][k % S::kVecs] = v;
      }
    } else {
      for (int k = tid; k < S::kH * S::kW; k += S::kThreads)
        tile[k / S::kW][k % S::kW] = pixel_or_zero(in, w, h, x0 - S::kA + k % S::kW, y0 - R + k / S::kW);
    }
    __syncthreads();
    convolve_tile<T, R>(&tile_vecs[0][0], out, w, h, x0, y0, aligned && vector_rows(out, w));
    __syncthreads();
  }
}

struct RegisterTiled {
  template <class T, int R>
  static auto kernel() { return &register_tiled<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    using S = TileShape<T, R>;
    register_tiled<T, R><<<tile_grid(p.width, p.height, S::kTileW, S::kTileH), dim3(S::kBlockX, S::kBlockY), 0,
                           stream>>>(static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(register_tiled, RegisterTiled, Ladder::modern,
                     "a vector of columns x 4 rows per thread, window rows as 128-bit shared loads", &upload_mask)
