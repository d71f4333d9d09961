// The warp-shuffle block scan of a 4096-element tile (the warp_shuffle step,
// and the per-tile scan that reduce_then_scan reuses).
#pragma once

#include "kernels/scan/segmented.cuh"

namespace gpubench::scan {

struct WarpShuffle {
  static constexpr int kThreads = 512, kItems = 8, kTile = kThreads * kItems;

  template <class T, class Op>
  __device__ static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total) {
    using Tile = StagedTile<T, Op, kThreads, kItems>;
    __shared__ T s[Tile::kSharedElements];
    __shared__ T warp_sums[kThreads / 32];
    T v[kItems];
    Tile::load(in, count, s, v);
    T tile_total;
    const T prefix = block_exclusive<T, Op, kThreads>(reduce_items<Op>(v), warp_sums, tile_total);
    scan_items<Op>(v, prefix, exclusive);
    if (total && threadIdx.x == 0) *total = tile_total;
    Tile::store(out, count, s, v);
  }

  static constexpr double tile_adds(int) {
    return kThreads * (kItems - 1) + (kThreads / 32 + 1) * kogge_stone_adds(32) + kThreads + kThreads * kItems;
  }
};

}  // namespace gpubench::scan
