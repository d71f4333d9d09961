// The accumulator fragment of a warpgroup's m64n256 wgmma (64 x 256 fp32,
// 128 registers a thread) written to C from registers. The wgmma steps
// share it; wgmma_bf16_tma_store and wgmma_bf16_l2_policy stage the same
// fragment in shared memory instead, and keep this path for C that TMA
// cannot address.
#pragma once

#include <cstdint>

namespace gpubench::gemm {

// Fragment layout: warp w of the warpgroup holds rows 16w..16w+15; in each
// 8-column group j a lane holds 2 columns of row lane/4 and of row lane/4 + 8,
// in d[4j], d[4j + 1] and d[4j + 2], d[4j + 3]. Rows row0..row0 + 63 and
// columns col0..col0 + 255 of the row-major m x n matrix c; what lies outside
// is skipped. `tid` is the thread's index in its warpgroup.
__device__ __forceinline__ void store_fragment_64x256(float* c, int m, int n, int row0, int col0, const float (&d)[128],
                                                      int tid) {
  const int warp = tid / 32, lane = tid % 32;
  const int row_base = row0 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < 256 / 8; ++j) {
    const int col = col0 + j * 8 + (lane % 4) * 2;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = row_base + h * 8;
      if (row >= m || col >= n) continue;
      float* dst = c + std::int64_t(row) * n + col;
      if (col + 1 < n && n % 2 == 0) {
        *reinterpret_cast<float2*>(dst) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
      } else {
        dst[0] = d[4 * j + 2 * h];
        if (col + 1 < n) dst[1] = d[4 * j + 2 * h + 1];
      }
    }
  }
}

}  // namespace gpubench::gemm
