// The register-blocked inner loop of the modern steps: one thread computes
// kRows outputs of one column from a tile in shared memory. Each input row
// of the strip is read once into registers (side values) and used by every
// output row it touches, so a loaded pixel feeds up to min(kRows, side)
// FMAs instead of one; the weights are constant-memory operands.
#pragma once

#include "kernels/conv2d/constant_mask.cuh"

namespace gpubench::conv2d {

// acc[py] is output row py of the strip. top points at the tile pixel of
// the first output's top-left tap; tile rows are pitch apart.
template <class T, int R, int kRows>
__device__ __forceinline__ void convolve_strip(const T* top, int pitch, T (&acc)[kRows]) {
  constexpr int kSide = 2 * R + 1;
#pragma unroll
  for (int py = 0; py < kRows; ++py) acc[py] = 0;
#pragma unroll
  for (int t = 0; t < kRows + 2 * R; ++t) {
    T row[kSide];
#pragma unroll
    for (int j = 0; j < kSide; ++j) row[j] = top[t * pitch + j];
#pragma unroll
    for (int py = 0; py < kRows; ++py) {
      const int i = t - py;  // the mask row input row t meets in output row py
      if (i >= 0 && i < kSide) {
#pragma unroll
        for (int j = 0; j < kSide; ++j) acc[py] += row[j] * mask_weight<T>(i * kSide + j);
      }
    }
  }
}

}  // namespace gpubench::conv2d
