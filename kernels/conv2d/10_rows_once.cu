// rows_once — beyond the course: register_tiled's loop reads a window row
// for every (mask row, output row) pair, 4 x side row reads per thread and
// tile where only 4 + 2r distinct rows exist. Where that loop is unrolled
// (sides up to 7) the compiler already merges the repeated reads (Nsight
// Compute counts the same instructions for both loops at mask 7); at side
// 9 it is a loop, and every read happens. Here the input rows are the
// loop: each is read from shared memory once and used for every output
// row it feeds, each pairing with its own mask row, and the sums add the
// same terms in the same order as before. Up to side 9 the row loop is
// unrolled, so every weight is an FMA operand; at side 15 it is not (code
// size), and the weights are constant-cache loads.
// It costs registers only in float64 at mask 15 (58 against tma_ring's 50);
// elsewhere resources match or fall, and the side-9 unroll grows the code.
#include "kernels/conv2d/tile_ring.cuh"

namespace gpubench::conv2d {
namespace {

struct RowsOnceLoop {
  template <class T, int R>
  static __device__ __forceinline__ void tile(const Vec<T>* tile, T* out, std::int64_t w, std::int64_t h,
                                              std::int64_t x0, std::int64_t y0, bool vector_store) {
    using S = TileShape<T, R>;
    constexpr int kInputRows = S::kRows + 2 * R;
    const int tx = threadIdx.x, ty = threadIdx.y;
    alignas(16) T acc[S::kRows][S::kV] = {};
#pragma unroll(S::kSide <= 9 ? kInputRows : 1)
    for (int r = 0; r < kInputRows; ++r) {
      alignas(16) T row[S::kWindow * S::kV];  // columns x - kA .. x + kV + kA of input row r
#pragma unroll
      for (int v = 0; v < S::kWindow; ++v)
        *reinterpret_cast<Vec<T>*>(&row[v * S::kV]) = tile[(ty * S::kRows + r) * S::kVecs + tx + v];
#pragma unroll
      for (int py = 0; py < S::kRows; ++py) {
        const int i = r - py;  // the mask row that pairs input row r with output row py
        if (i < 0 || i >= S::kSide) continue;
#pragma unroll
        for (int j = 0; j < S::kSide; ++j) {
          const T weight = mask_weight<T>(i * S::kSide + j);
#pragma unroll
          for (int px = 0; px < S::kV; ++px) acc[py][px] += row[S::kA - R + px + j] * weight;
        }
      }
    }
    store_outputs<T, R>(acc, out, w, h, x0, y0, vector_store);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_RING_STEP(rows_once, RowsOnceLoop,
                          "tma_ring with each input row read from shared memory once, for every output row it feeds")
