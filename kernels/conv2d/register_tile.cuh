// The tile shape and inner loop of register_tiled and loads_in_flight: a block of
// 32 x 8 threads computes a tile 32 vectors wide (128 floats, 64 doubles)
// and 32 rows tall; each thread one vector of columns in 4 rows. The tile
// and its halo sit in shared memory as 16-byte vectors, the halo rounded up
// to whole vectors so that a vector is all inside the image or all ghost.
// The TMA steps (tile_ring.cuh) keep the layout.
#pragma once

#include "kernels/common/store_128.cuh"
#include "kernels/conv2d/constant_mask.cuh"

namespace gpubench::conv2d {

template <class T, int R>
struct TileShape {
  static constexpr int kBlockX = 32, kBlockY = 8, kThreads = kBlockX * kBlockY, kRows = 4;
  static constexpr int kV = Vec<T>::kLanes, kSide = 2 * R + 1;
  static constexpr int kA = (R + kV - 1) / kV * kV;  // the halo, in whole vectors
  static constexpr int kTileW = kBlockX * kV, kTileH = kBlockY * kRows;
  static constexpr int kW = kTileW + 2 * kA, kH = kTileH + 2 * R, kVecs = kW / kV;
  static constexpr int kWindow = 1 + 2 * kA / kV;  // vectors a thread reads per window row
};

// Stores this thread's kRows x kV outputs of the tile at (x0, y0), as
// 16-byte vectors when `vector_store` and the vector lies inside the image.
template <class T, int R>
__device__ __forceinline__ void store_outputs(const T (&acc)[TileShape<T, R>::kRows][TileShape<T, R>::kV], T* out,
                                              std::int64_t w, std::int64_t h, std::int64_t x0, std::int64_t y0,
                                              bool vector_store) {
  using S = TileShape<T, R>;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t x = x0 + std::int64_t(tx) * S::kV;
  vector_store = vector_store && x + S::kV <= w;
#pragma unroll
  for (int py = 0; py < S::kRows; ++py) {
    const std::int64_t y = y0 + ty * S::kRows + py;
    if (y >= h) break;
    if (vector_store) {
      store_128(out + y * w + x, acc[py]);
    } else {
#pragma unroll
      for (int px = 0; px < S::kV; ++px)
        if (x + px < w) out[y * w + x + px] = acc[py][px];
    }
  }
}

// Computes this thread's kRows x kV outputs of the tile at (x0, y0) from
// `tile` (kH rows of kVecs vectors; row 0 is image row y0 - R, vector 0
// starts at column x0 - kA) and stores them, as vectors when `vector_store`.
// The mask rows are looped over (unrolled up to side 7) to bound the code
// size at side 15, which leaves their weights as constant-cache loads
// rather than FMA operands there.
template <class T, int R>
__device__ __forceinline__ void convolve_tile(const Vec<T>* tile, T* out, std::int64_t w, std::int64_t h,
                                              std::int64_t x0, std::int64_t y0, bool vector_store) {
  using S = TileShape<T, R>;
  const int tx = threadIdx.x, ty = threadIdx.y;
  alignas(16) T acc[S::kRows][S::kV] = {};  // rows leave as 16-byte vectors
#pragma unroll(S::kSide <= 7 ? S::kSide : 1)
  for (int i = 0; i < S::kSide; ++i) {
    T weight[S::kSide];
#pragma unroll
    for (int j = 0; j < S::kSide; ++j) weight[j] = mask_weight<T>(i * S::kSide + j);
#pragma unroll
    for (int py = 0; py < S::kRows; ++py) {
      alignas(16) T row[S::kWindow * S::kV];  // columns x - kA .. x + kV + kA of input row py + i
#pragma unroll
      for (int v = 0; v < S::kWindow; ++v)
        *reinterpret_cast<Vec<T>*>(&row[v * S::kV]) = tile[(ty * S::kRows + py + i) * S::kVecs + tx + v];
#pragma unroll
      for (int j = 0; j < S::kSide; ++j)
#pragma unroll
        for (int px = 0; px < S::kV; ++px) acc[py][px] += row[S::kA - R + px + j] * weight[j];
    }
  }
  store_outputs<T, R>(acc, out, w, h, x0, y0, vector_store);
}

// Rows start on 16-byte boundaries, so tiles can move as vectors.
template <class T>
__device__ __forceinline__ bool vector_rows(const T* p, std::int64_t w) {
  return w % Vec<T>::kLanes == 0 && reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

}  // namespace gpubench::conv2d
