// The course's segmented (hierarchical) scheme, which turns a block-level
// scan into a scan of any length: every block scans its tile and writes the
// tile's total; the totals are scanned the same way (recursively, until one
// tile holds them); then each tile but the first adds the sum of the tiles
// before it. All three kernels run inside the timed region.
//
// An Algo provides kThreads, kTile, a device function
//   template <class T, class Op>
//   static void scan_tile(const T* in, T* out, int count, bool exclusive, T* total)
// that scans in[0..count) into out[0..count) (in may equal out) and, when
// total is not null, stores the tile's sum there; and
//   static double tile_adds(int tile)
// the operator applications it performs on a full tile.
#pragma once

#include <algorithm>

#include "kernels/scan/scan_common.cuh"

namespace gpubench::scan {

template <class Algo, class T, class Op>
__global__ void __launch_bounds__(Algo::kThreads) scan_tiles_kernel(const T* in, T* out, std::int64_t n, bool exclusive,
                                                                    T* totals) {
  const std::int64_t base = std::int64_t(blockIdx.x) * Algo::kTile;
  const int count = int(std::min<std::int64_t>(Algo::kTile, n - base));
  Algo::template scan_tile<T, Op>(in + base, out + base, count, exclusive, totals ? totals + blockIdx.x : nullptr);
}

// Block b adds prefix[b + 1] (the exclusive scan of the tile totals) to
// every element of tile b + 1.
template <class T, class Op>
__global__ void add_tile_prefix_kernel(T* out, std::int64_t n, const T* prefix, int tile) {
  const std::int64_t base = std::int64_t(blockIdx.x + 1) * tile;
  const T p = prefix[blockIdx.x + 1];
  const int count = int(std::min<std::int64_t>(tile, n - base));
  for (int i = threadIdx.x; i < count; i += blockDim.x) out[base + i] = Op()(p, out[base + i]);
}

template <class Algo>
struct Segmented {
  static std::int64_t tiles(std::int64_t n) { return (n + Algo::kTile - 1) / Algo::kTile; }

  template <class T>
  static std::size_t scratch_bytes(const Problem& p) {
    std::size_t bytes = 0;
    for (std::int64_t n = p.n; tiles(n) > 1; n = tiles(n)) bytes += align_up(std::size_t(tiles(n)) * sizeof(T));
    return bytes;
  }

  template <class T>
  static void scan_level(const T* in, T* out, std::int64_t n, bool exclusive, unsigned char* scratch,
                         cudaStream_t stream) {
    const std::int64_t t = tiles(n);
    if (t == 1) {
      output_kernel<T>()<<<1, Algo::kThreads, 0, stream>>>(in, out, n, exclusive, nullptr);
      GPUBENCH_CHECK_LAUNCH();
      return;
    }
    T* totals = reinterpret_cast<T*>(scratch);
    output_kernel<T>()<<<unsigned(t), Algo::kThreads, 0, stream>>>(in, out, n, exclusive, totals);
    GPUBENCH_CHECK_LAUNCH();
    scan_level<T>(totals, totals, t, true, scratch + align_up(std::size_t(t) * sizeof(T)), stream);
    add_tile_prefix_kernel<T, Sum><<<unsigned(t - 1), 256, 0, stream>>>(out, n, totals, Algo::kTile);
    GPUBENCH_CHECK_LAUNCH();
  }

  template <class T>
  static void run(const Problem& p, const Workspace& ws) {
    scan_level<T>(static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, p.kind == Kind::exclusive,
                  static_cast<unsigned char*>(ws.scratch), ws.stream);
  }

  template <class T>
  static auto output_kernel() {
    return scan_tiles_kernel<Algo, T, Sum>;
  }

  // Full tiles at every level, plus the add-back of each level.
  static double adds_per_element(std::int64_t n) {
    double adds = 0;
    for (std::int64_t m = n;; m = tiles(m)) {
      adds += double(tiles(m)) * Algo::tile_adds(Algo::kTile);
      if (tiles(m) == 1) break;
      adds += double(m - Algo::kTile);
    }
    return adds / double(n);
  }
};

}  // namespace gpubench::scan
