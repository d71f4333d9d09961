// prefetched — beyond the course: vectorized loads plane z+1 in the same
// iteration that uses it, so every plane waits out a full DRAM latency
// (only the halo was a plane ahead). Here each thread keeps a queue of the
// next kAhead planes' vectors (and halo vectors) in registers and issues
// the load of plane z + 1 + kAhead while it computes plane z: kAhead planes
// of loads are in flight behind the computation, and the z march is 64
// planes long so the queue's start-up is paid less often. It costs
// 4 x kAhead registers per queue.
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

constexpr int kBlockX = 32, kBlockY = 8, kDepth = 64, kAhead = 2;
constexpr int kHaloJobs = 2 * kBlockX + 2 * kBlockY;

template <class T, int V>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    prefetched(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Coefficients<T> k) {
  using W = Vec<T, V>;
  __shared__ W plane[kBlockY + 2][kBlockX + 2];  // column 0: the vector left of the tile
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBlockX + tx;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * kBlockX * V, y0 = std::int64_t(blockIdx.y) * kBlockY;
  const std::int64_t x = x0 + std::int64_t(tx) * V, y = y0 + ty, z0 = std::int64_t(blockIdx.z) * kDepth;
  int hy = -1, hx = -1;  // this thread's halo vector, if any: its place in `plane`
  if (tid < 2 * kBlockX) {
    hy = tid < kBlockX ? 0 : kBlockY + 1;
    hx = tid % kBlockX + 1;
  } else if (tid < kHaloJobs) {
    hy = (tid - 2 * kBlockX) % kBlockY + 1;
    hx = tid - 2 * kBlockX < kBlockY ? 0 : kBlockX + 1;
  }
  const std::int64_t gx = x0 + std::int64_t(hx - 1) * V, gy = y0 + hy - 1;
  // own[j]: this thread's vector of plane z + 1 + j (j = 0: the next plane);
  // halo[j]: its halo vector of plane z + j.
  W prev = vec_or_zero<T, V>(in, n, x, y, z0 - 1), curr = vec_or_zero<T, V>(in, n, x, y, z0);
  W own[kAhead + 1], halo[kAhead + 1];
#pragma unroll
  for (int j = 0; j <= kAhead; ++j) {
    own[j] = vec_or_zero<T, V>(in, n, x, y, z0 + 1 + j);
    halo[j] = hy >= 0 ? vec_or_zero<T, V>(in, n, gx, gy, z0 + j) : W{};
  }
  for (std::int64_t z = z0; z < z0 + kDepth && z < n; ++z) {
    plane[ty + 1][tx + 1] = curr;
    if (hy >= 0) plane[hy][hx] = halo[0];
    __syncthreads();
    const W next = own[0];
    // Shift the queues and start the loads kAhead + 1 planes ahead.
#pragma unroll
    for (int j = 0; j < kAhead; ++j) {
      own[j] = own[j + 1];
      halo[j] = halo[j + 1];
    }
    own[kAhead] = vec_or_zero<T, V>(in, n, x, y, z + 2 + kAhead);
    halo[kAhead] = hy >= 0 ? vec_or_zero<T, V>(in, n, gx, gy, z + 1 + kAhead) : W{};
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
  }
}

struct Prefetched {
  template <class T>
  static auto kernel(const Problem& p) { return rows_of_vectors<T>(p) ? &prefetched<T, 16 / sizeof(T)> : &prefetched<T, 1>; }
  template <class T>
  static void launch(const Problem& p, cudaStream_t stream) {
    if (rows_of_vectors<T>(p)) go<T, 16 / sizeof(T)>(p, stream);
    else go<T, 1>(p, stream);
  }
  template <class T, int V>
  static void go(const Problem& p, cudaStream_t stream) {
    const dim3 grid(blocks(p.n, kBlockX * V), blocks(p.n, kBlockY), blocks(p.n, kDepth));
    prefetched<T, V><<<grid, dim3(kBlockX, kBlockY), 0, stream>>>(static_cast<const T*>(p.in), static_cast<T*>(p.out),
                                                                  p.n, coefficients<T>(p));
  }
};

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_STEP(prefetched, Prefetched, Ladder::modern,
                        "planes loaded 2 ahead of their use in a register queue, 64-plane marches")
