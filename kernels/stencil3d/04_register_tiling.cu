// register_tiling — lecture 9's register tiling: coarsened_z, but the z-1
// and z+1 values a thread needs are its own (no other thread reads them),
// so they live in its registers; only the current plane, which neighbours
// read, stays in shared memory. A third of the shared memory and of the
// shared-memory stores per plane. It costs two register moves a thread per
// plane (prev = curr, curr = next), and leaves the global loads as they
// were: 39.6% of copy at 512^3 float32, where coarsened_z had 31.2%.
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

constexpr int kIn = 32, kOut = kIn - 2, kDepth = 32;

template <class T>
__global__ void __launch_bounds__(kIn * kIn) register_tiling(const T* in, T* out, std::int64_t n, Coefficients<T> k) {
  __shared__ T curr_plane[kIn][kIn];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t x = std::int64_t(blockIdx.x) * kOut + tx - 1;
  const std::int64_t y = std::int64_t(blockIdx.y) * kOut + ty - 1;
  const std::int64_t z0 = std::int64_t(blockIdx.z) * kDepth;
  T prev = point_or_zero(in, n, x, y, z0 - 1), curr = point_or_zero(in, n, x, y, z0);
  const bool computes = tx >= 1 && tx < kIn - 1 && ty >= 1 && ty < kIn - 1 && x < n && y < n;
  for (std::int64_t z = z0; z < z0 + kDepth && z < n; ++z) {
    const T next = point_or_zero(in, n, x, y, z + 1);
    curr_plane[ty][tx] = curr;
    __syncthreads();
    if (computes)
      out[(z * n + y) * n + x] =
          interior(n, x, y, z) ? stencil(k, curr, curr_plane[ty][tx - 1], curr_plane[ty][tx + 1],
                                         curr_plane[ty - 1][tx], curr_plane[ty + 1][tx], prev, next)
                               : curr;
    __syncthreads();  // the plane is read before the next one is stored
    prev = curr;
    curr = next;
  }
}

struct RegisterTiling {
  template <class T>
  static auto kernel(const Problem&) { return &register_tiling<T>; }
  template <class T>
  static void launch(const Problem& p, cudaStream_t stream) {
    const unsigned b = blocks(p.n, kOut);
    register_tiling<T><<<dim3(b, b, blocks(p.n, kDepth)), dim3(kIn, kIn), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, coefficients<T>(p));
  }
};

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_STEP(register_tiling, RegisterTiling, Ladder::course,
                        "coarsened_z with the z-1 and z+1 planes in registers, one plane in shared memory")
