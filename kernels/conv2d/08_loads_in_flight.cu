// loads_in_flight — beyond the course: register_tiled with every 16-byte
// load of a thread's share of the tile issued before the first store to
// shared memory (5 loads at mask 3, their results in registers).
// Nsight Compute on register_tiled (float32, mask 3, 8192^2) shows warps
// stalled 43% of the time on the L1TEX scoreboard, waiting for global
// loads: the tile fill ran about one load per thread at a time, too few
// bytes in flight to cover DRAM latency. It costs registers for the loaded
// vectors.
#include "kernels/conv2d/register_tile.cuh"

namespace gpubench::conv2d {
namespace {

template <class T, int R>
__global__ void __launch_bounds__(TileShape<T, R>::kThreads)
    loads_in_flight(const T* __restrict__ in, T* __restrict__ out, std::int64_t w, std::int64_t h) {
  using S = TileShape<T, R>;
  constexpr int kTotal = S::kH * S::kVecs, kLoads = (kTotal + S::kThreads - 1) / S::kThreads;
  __shared__ Vec<T> tile_vecs[S::kH][S::kVecs];
  T(*tile)[S::kW] = reinterpret_cast<T(*)[S::kW]>(tile_vecs);
  const int tid = threadIdx.y * S::kBlockX + threadIdx.x;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * S::kTileW;
  const bool aligned = vector_rows(in, w);
  for (std::int64_t tile_y = blockIdx.y; tile_y * S::kTileH < h; tile_y += gridDim.y) {
    const std::int64_t y0 = tile_y * S::kTileH;
    if (aligned) {
      Vec<T> v[kLoads];
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        const int k = tid + u * S::kThreads;
        const std::int64_t gy = y0 - R + k / S::kVecs, gx = x0 - S::kA + std::int64_t(k % S::kVecs) * S::kV;
        v[u] = Vec<T>{};
        if (k < kTotal && gy >= 0 && gy < h && gx >= 0 && gx < w) v[u] = *reinterpret_cast<const Vec<T>*>(in + gy * w + gx);
      }
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        const int k = tid + u * S::kThreads;
        if (k < kTotal) tile_vecs[k / S::kVecs][k % S::kVecs] = v[u];
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

struct LoadsInFlight {
  template <class T, int R>
  static auto kernel() { return &loads_in_flight<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    using S = TileShape<T, R>;
    loads_in_flight<T, R><<<tile_grid(p.width, p.height, S::kTileW, S::kTileH), dim3(S::kBlockX, S::kBlockY), 0,
                            stream>>>(static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(loads_in_flight, LoadsInFlight, Ladder::modern,
                     "all of a thread's tile loads issued before its first shared store", &upload_mask)
