// basic — lecture 8's first kernel (lecture 3's image blur with any mask):
// one thread per output pixel, reading its side x side neighbourhood and the
// mask from global memory, with a bounds check per tap for the ghost cells.
// Neighbouring threads read overlapping pixels, which only the caches
// reuse; every tap is two loads (pixel and weight) for one FMA.
#include "kernels/conv2d/conv2d_common.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

template <class T, int R>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    basic(const T* in, T* out, const T* mask, std::int64_t w, std::int64_t h) {
  constexpr int kSide = 2 * R + 1;
  const std::int64_t x = std::int64_t(blockIdx.x) * kBlockX + threadIdx.x;
  if (x >= w) return;
  for (std::int64_t y = std::int64_t(blockIdx.y) * kBlockY + threadIdx.y; y < h; y += std::int64_t(gridDim.y) * kBlockY) {
    T sum = 0;
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j) {
        const std::int64_t in_y = y - R + i, in_x = x - R + j;
        if (in_y >= 0 && in_y < h && in_x >= 0 && in_x < w) sum += in[in_y * w + in_x] * mask[i * kSide + j];
      }
    out[y * w + x] = sum;
  }
}

struct Basic {
  template <class T, int R>
  static auto kernel() { return &basic<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    basic<T, R><<<tile_grid(p.width, p.height, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), static_cast<const T*>(p.mask), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(basic, Basic, Ladder::course, "one thread per pixel; image and mask in global memory", nullptr)
