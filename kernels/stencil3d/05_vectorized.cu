// vectorized — beyond the course: register_tiling with every plane moved as
// 128-bit vectors (4 floats or 2 doubles per thread, so a warp's row is 512
// bytes), and the z march kept but the block reshaped to 32 x 8 threads
// over a 128 x 8 (float) tile. Each thread holds its z-1, z and z+1
// vectors in registers and the halo vectors it loads one plane ahead, so a
// plane's loads are in flight while the previous plane is computed; the
// current plane, with its halo, is the only thing in shared memory. Grids
// whose side is not a multiple of the vector run the same kernel one
// element per thread. It costs registers (52 a thread at 512^3 float32,
// register_tiling 26) and that second, scalar path.
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

constexpr int kBlockX = 32, kBlockY = 8, kDepth = 32;
constexpr int kHaloJobs = 2 * kBlockX + 2 * kBlockY;  // the rows above and below, the vectors left and right

template <class T, int V>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    vectorized(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Coefficients<T> k) {
  using W = Vec<T, V>;
  __shared__ W plane[kBlockY + 2][kBlockX + 2];  // column 0: the vector left of the tile
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBlockX + tx;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * kBlockX * V, y0 = std::int64_t(blockIdx.y) * kBlockY;
  const std::int64_t x = x0 + std::int64_t(tx) * V, y = y0 + ty, z0 = std::int64_t(blockIdx.z) * kDepth;
  // This thread's halo vector, if any: its place in `plane` and in the grid.
  int hy = -1, hx = -1;
  if (tid < 2 * kBlockX) {
    hy = tid < kBlockX ? 0 : kBlockY + 1;
    hx = tid % kBlockX + 1;
  } else if (tid < kHaloJobs) {
    hy = (tid - 2 * kBlockX) % kBlockY + 1;
    hx = tid - 2 * kBlockX < kBlockY ? 0 : kBlockX + 1;
  }
  const std::int64_t gx = x0 + std::int64_t(hx - 1) * V, gy = y0 + hy - 1;
  W prev = vec_or_zero<T, V>(in, n, x, y, z0 - 1), curr = vec_or_zero<T, V>(in, n, x, y, z0), halo{};
  if (hy >= 0) halo = vec_or_zero<T, V>(in, n, gx, gy, z0);
  for (std::int64_t z = z0; z < z0 + kDepth && z < n; ++z) {
    const W next = vec_or_zero<T, V>(in, n, x, y, z + 1);
    W halo_next{};
    if (hy >= 0) halo_next = vec_or_zero<T, V>(in, n, gx, gy, z + 1);
    plane[ty + 1][tx + 1] = curr;
    if (hy >= 0) plane[hy][hx] = halo;
    __syncthreads();
    const W left = plane[ty + 1][tx], right = plane[ty + 1][tx + 2], up = plane[ty][tx + 1], down = plane[ty + 2][tx + 1];
    W result;
#pragma unroll
    for (int e = 0; e < V; ++e) {
      const T xm = e == 0 ? left.v[V - 1] : curr.v[e - 1], xp = e == V - 1 ? right.v[0] : curr.v[e + 1];
      result.v[e] = interior(n, x + e, y, z) ? stencil(k, curr.v[e], xm, xp, up.v[e], down.v[e], prev.v[e], next.v[e])
                                             : curr.v[e];
    }
    if (x < n && y < n) store_vec(out + (z * n + y) * n + x, result);
    __syncthreads();  // the plane is read before the next one is stored
    prev = curr;
    curr = next;
    halo = halo_next;
  }
}

struct Vectorized {
  template <class T>
  static auto kernel(const Problem& p) { return rows_of_vectors<T>(p) ? &vectorized<T, 16 / sizeof(T)> : &vectorized<T, 1>; }
  template <class T>
  static void launch(const Problem& p, cudaStream_t stream) {
    if (rows_of_vectors<T>(p)) go<T, 16 / sizeof(T)>(p, stream);
    else go<T, 1>(p, stream);
  }
  template <class T, int V>
  static void go(const Problem& p, cudaStream_t stream) {
    const dim3 grid(blocks(p.n, kBlockX * V), blocks(p.n, kBlockY), blocks(p.n, kDepth));
    vectorized<T, V><<<grid, dim3(kBlockX, kBlockY), 0, stream>>>(static_cast<const T*>(p.in), static_cast<T*>(p.out),
                                                                  p.n, coefficients<T>(p));
  }
};

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_STEP(vectorized, Vectorized, Ladder::modern,
                        "128-bit plane loads and stores, 32 x 8 threads, halo loaded a plane ahead")
