// constant_mask — lecture 8: the mask moves to __constant__ memory
// (uploaded once, before timing, with cudaMemcpyToSymbol). All threads of a
// warp read the same weight at the same time, which the constant cache
// serves as one broadcast, off the global-memory path. Pixels still come
// from global memory, one load per tap.
// The lecture expects each unrolled weight to become an operand of its FMA;
// the compiler loads each one with a predicated LDC instead (SASS in
// results/h100/experiments/conv2d-constant-mask-sass-ncu.txt). At mask 5
// that code is 1.50x basic's instructions, more address arithmetic, and it
// runs at 0.67x basic; docs/ladders/conv2d.md has the measurement.
// It costs an upload of the mask to __constant__ with a host synchronisation
// before timing.
// At mask 9 in float32 the compiler holds it to 32 registers with a 4-byte
// spill (ptxas -v; the tables' `local` 8), and it still runs 1.20x basic.
#include "kernels/conv2d/constant_mask.cuh"

namespace gpubench::conv2d {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

template <class T, int R>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    constant_mask(const T* in, T* out, std::int64_t w, std::int64_t h) {
  constexpr int kSide = 2 * R + 1;
  const std::int64_t x = std::int64_t(blockIdx.x) * kBlockX + threadIdx.x;
  if (x >= w) return;
  for (std::int64_t y = std::int64_t(blockIdx.y) * kBlockY + threadIdx.y; y < h; y += std::int64_t(gridDim.y) * kBlockY) {
    T sum = 0;
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j) {
        const std::int64_t in_y = y - R + i, in_x = x - R + j;
        if (in_y >= 0 && in_y < h && in_x >= 0 && in_x < w) sum += in[in_y * w + in_x] * mask_weight<T>(i * kSide + j);
      }
    out[y * w + x] = sum;
  }
}

struct ConstantMask {
  template <class T, int R>
  static auto kernel() { return &constant_mask<T, R>; }
  template <class T, int R>
  static void launch(const Problem& p, cudaStream_t stream) {
    constant_mask<T, R><<<tile_grid(p.width, p.height, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.width, p.height);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_STEP(constant_mask, ConstantMask, Ladder::course, "the mask in __constant__ memory", &upload_mask)
