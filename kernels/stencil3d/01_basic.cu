// basic — lecture 9's first kernel: 8 x 8 x 8 blocks, one thread per grid
// point, all seven reads from global memory. Neighbouring threads read
// overlapping points, which only the caches reuse; each warp's row of 8
// points is only 32 bytes of a line.
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

constexpr int kBlock = 8;

template <class T>
__global__ void __launch_bounds__(kBlock * kBlock * kBlock)
    basic(const T* in, T* out, std::int64_t n, Coefficients<T> k) {
  const std::int64_t x = std::int64_t(blockIdx.x) * kBlock + threadIdx.x;
  const std::int64_t y = std::int64_t(blockIdx.y) * kBlock + threadIdx.y;
  const std::int64_t z = std::int64_t(blockIdx.z) * kBlock + threadIdx.z;
  if (x >= n || y >= n || z >= n) return;
  const std::int64_t i = (z * n + y) * n + x, plane = n * n;
  out[i] = interior(n, x, y, z)
               ? stencil(k, in[i], in[i - 1], in[i + 1], in[i - n], in[i + n], in[i - plane], in[i + plane])
               : in[i];
}

struct Basic {
  template <class T>
  static auto kernel(const Problem&) { return &basic<T>; }
  template <class T>
  static void launch(const Problem& p, cudaStream_t stream) {
    const unsigned b = blocks(p.n, kBlock);
    basic<T><<<dim3(b, b, b), dim3(kBlock, kBlock, kBlock), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, coefficients<T>(p));
  }
};

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_STEP(basic, Basic, Ladder::course, "one thread per point, 8^3 blocks, all reads from global memory")
