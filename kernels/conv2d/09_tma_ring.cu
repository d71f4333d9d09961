// tma_ring — beyond the course, on Hopper: loads_in_flight still loads a
// tile, waits for it, computes it and only then starts the next, so a
// block's loads and its arithmetic take turns and only other blocks hide
// DRAM's latency. Here each block marches down a column of tiles while the
// tensor-memory accelerator copies its next tiles into a ring in shared
// memory (tile_ring.cuh): loads and arithmetic overlap inside the block,
// and no thread spends registers or instructions on loading. What is
// computed from a tile is register_tiled's loop, unchanged. It costs shared
// memory: three or four tiles a block.
#include "kernels/conv2d/tile_ring.cuh"

namespace gpubench::conv2d {
namespace {

struct RegisterTiledLoop {
  template <class T, int R>
  static __device__ __forceinline__ void tile(const Vec<T>* tile, T* out, std::int64_t w, std::int64_t h,
                                              std::int64_t x0, std::int64_t y0, bool vector_store) {
    convolve_tile<T, R>(tile, out, w, h, x0, y0, vector_store);
  }
};

}  // namespace
}  // namespace gpubench::conv2d

GPUBENCH_CONV2D_RING_STEP(tma_ring, RegisterTiledLoop,
                          "TMA copies each block's next tiles, halo zero-filled, into a 3- or 4-tile ring as it computes")
