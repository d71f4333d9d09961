// single-pass-chained — one kernel, one read and one write of the data: each
// block scans its tile, waits for the running sum of all tiles before it
// (published by its predecessor), publishes its own, and writes its tile.
// The course's domino scheme; tiles are numbered by an atomic ticket in the
// order blocks start, so a block only ever waits for one already running.
// The chain is serial: every block waits for the whole chain before it.
#include "kernels/scan/tile_status.cuh"

namespace gpubench::scan {
namespace {

constexpr int kThreads = 512, kItems = 8, kTile = kThreads * kItems;

template <class T, class Op>
__global__ void __launch_bounds__(kThreads) chained_kernel(const T* in, T* out, std::int64_t n, bool exclusive,
                                                           TileStatus<T> status) {
  using Tile = StagedTile<T, Op, kThreads, kItems>;
  __shared__ T s[Tile::kSharedElements];
  __shared__ T warp_sums[kThreads / 32];
  __shared__ int tile_slot;
  __shared__ T tile_prefix;
  const int tile = take_ticket(status.ticket, &tile_slot);
  const std::int64_t base = std::int64_t(tile) * kTile;
  const int count = int(std::min<std::int64_t>(kTile, n - base));
  T v[kItems];
  Tile::load(in + base, count, s, v);
  T tile_total;
  const T prefix = block_exclusive<T, Op, kThreads>(reduce_items<Op>(v), warp_sums, tile_total);
  if (threadIdx.x == 0) {
    T before = Op::template identity<T>();
    if (tile > 0) before = status.wait(tile - 1).value;
    status.publish(tile, Op()(before, tile_total), kTilePrefix);
    tile_prefix = before;
  }
  __syncthreads();
  scan_items<Op>(v, Op()(tile_prefix, prefix), exclusive);
  Tile::store(out + base, count, s, v);
}

struct Chained {
  static std::int64_t tiles(std::int64_t n) { return (n + kTile - 1) / kTile; }

  template <class T>
  static std::size_t scratch_bytes(const Problem& p) {
    return TileStatus<T>::bytes(tiles(p.n));
  }

  template <class T>
  static void run(const Problem& p, const Workspace& ws) {
    const auto status = TileStatus<T>::at(ws.scratch);
    status.reset(tiles(p.n), ws.stream);
    output_kernel<T>()<<<unsigned(tiles(p.n)), kThreads, 0, ws.stream>>>(
        static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, p.kind == Kind::exclusive, status);
    GPUBENCH_CHECK_LAUNCH();
  }

  template <class T>
  static auto output_kernel() {
    return chained_kernel<T, Sum>;
  }

  // Thread sections, warp scans, prefixes; plus one addition per tile in the chain.
  static double adds_per_element(std::int64_t) {
    return (kThreads * (kItems - 1) + (kThreads / 32 + 1) * kogge_stone_adds(32) + 2 * kThreads +
            kThreads * kItems + 1) /
           double(kTile);
  }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(single_pass_chained, Chained, Ladder::single_pass,
                   "one kernel: each tile waits for its predecessor's running sum (domino)")
