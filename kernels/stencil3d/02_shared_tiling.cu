// shared_tiling — lecture 9's tiling: an 8 x 8 x 8 block loads an 8^3 input
// tile (a 6^3 output tile and its one-point halo) into shared memory, then
// the 6^3 inner threads compute from it. Each point now comes from DRAM
// about once, but only 216 of 512 threads compute and the halo is 58% of
// the tile: the lecture expects little or no gain at this size.
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

constexpr int kIn = 8, kOut = kIn - 2;

template <class T>
__global__ void __launch_bounds__(kIn * kIn * kIn) shared_tiling(const T* in, T* out, std::int64_t n, Coefficients<T> k) {
  __shared__ T tile[kIn][kIn][kIn];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const std::int64_t x = std::int64_t(blockIdx.x) * kOut + tx - 1;
  const std::int64_t y = std::int64_t(blockIdx.y) * kOut + ty - 1;
  const std::int64_t z = std::int64_t(blockIdx.z) * kOut + tz - 1;
  const bool inside = x >= 0 && x < n && y >= 0 && y < n && z >= 0 && z < n;
  const std::int64_t i = (z * n + y) * n + x;
  if (inside) tile[tz][ty][tx] = in[i];
  __syncthreads();
  const bool computes = tx >= 1 && tx < kIn - 1 && ty >= 1 && ty < kIn - 1 && tz >= 1 && tz < kIn - 1;
  if (!computes || !inside) return;
  out[i] = interior(n, x, y, z) ? stencil(k, tile[tz][ty][tx], tile[tz][ty][tx - 1], tile[tz][ty][tx + 1],
                                          tile[tz][ty - 1][tx], tile[tz][ty + 1][tx], tile[tz - 1][ty][tx],
                                          tile[tz + 1][ty][tx])
                                : tile[tz][ty][tx];
}

struct SharedTiling {
  template <class T>
  static auto kernel(const Problem&) { return &shared_tiling<T>; }
  template <class T>
  static void launch(const Problem& p, cudaStream_t stream) {
    const unsigned b = blocks(p.n, kOut);
    shared_tiling<T><<<dim3(b, b, b), dim3(kIn, kIn, kIn), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, coefficients<T>(p));
  }
};

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_STEP(shared_tiling, SharedTiling, Ladder::course,
                        "an 8^3 input tile with its halo in shared memory; 6^3 threads compute")
