// reduce-then-scan — the hierarchical alternative to the segmented scheme:
// a first pass only reduces each tile to its sum (reading the input, writing
// nothing but the sums), the sums are scanned, and a second pass scans each
// tile again from the input, starting from its tile's prefix, and writes the
// output once. The input is read twice, the output written once, where the
// segmented scheme reads and writes the output a second time to add the
// tile prefixes. The reduce pass lets each thread sum a strided set of the
// tile's elements (coalesced), so it assumes a commutative operator, as sum
// is.
#include "kernels/scan/warp_shuffle_tile.cuh"

namespace gpubench::scan {
namespace {

constexpr int kThreads = WarpShuffle::kThreads, kItems = WarpShuffle::kItems, kTile = WarpShuffle::kTile;

template <class T, class Op>
__global__ void __launch_bounds__(kThreads) reduce_tiles_kernel(const T* in, std::int64_t n, T* totals) {
  __shared__ T warp_sums[kThreads / 32];
  const std::int64_t base = std::int64_t(blockIdx.x) * kTile;
  const int count = int(std::min<std::int64_t>(kTile, n - base));
  T sum = Op::template identity<T>();
  for (int i = threadIdx.x; i < count; i += kThreads) sum = Op()(sum, in[base + i]);  // coalesced
  T total;
  block_exclusive<T, Op, kThreads>(sum, warp_sums, total);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

template <class T, class Op>
__global__ void __launch_bounds__(kThreads) scan_from_prefix_kernel(const T* in, T* out, std::int64_t n,
                                                                    bool exclusive, const T* prefixes) {
  using Tile = StagedTile<T, Op, kThreads, kItems>;
  __shared__ T s[Tile::kSharedElements];
  __shared__ T warp_sums[kThreads / 32];
  const std::int64_t base = std::int64_t(blockIdx.x) * kTile;
  const int count = int(std::min<std::int64_t>(kTile, n - base));
  T v[kItems];
  Tile::load(in + base, count, s, v);
  T tile_total;
  const T prefix = block_exclusive<T, Op, kThreads>(reduce_items<Op>(v), warp_sums, tile_total);
  scan_items<Op>(v, Op()(prefixes[blockIdx.x], prefix), exclusive);
  Tile::store(out + base, count, s, v);
}

struct ReduceThenScan {
  static std::int64_t tiles(std::int64_t n) { return (n + kTile - 1) / kTile; }

  template <class T>
  static std::size_t scratch_bytes(const Problem& p) {
    const std::int64_t t = tiles(p.n);
    Problem sums = p;
    sums.n = t;
    return align_up(std::size_t(t) * sizeof(T)) + Segmented<WarpShuffle>::scratch_bytes<T>(sums);
  }

  template <class T>
  static void run(const Problem& p, const Workspace& ws) {
    const std::int64_t t = tiles(p.n);
    T* totals = static_cast<T*>(ws.scratch);
    const auto* in = static_cast<const T*>(p.in);
    reduce_tiles_kernel<T, Sum><<<unsigned(t), kThreads, 0, ws.stream>>>(in, p.n, totals);
    GPUBENCH_CHECK_LAUNCH();
    Segmented<WarpShuffle>::scan_level<T>(totals, totals, t, true,
                                          static_cast<unsigned char*>(ws.scratch) + align_up(std::size_t(t) * sizeof(T)),
                                          ws.stream);
    output_kernel<T>()<<<unsigned(t), kThreads, 0, ws.stream>>>(in, static_cast<T*>(p.out), p.n,
                                                                p.kind == Kind::exclusive, totals);
    GPUBENCH_CHECK_LAUNCH();
  }

  template <class T>
  static auto output_kernel() {
    return scan_from_prefix_kernel<T, Sum>;
  }

  // One addition per element to reduce, the tile scan again, the tile sums' scan.
  static double adds_per_element(std::int64_t n) {
    const double tile_scan = (WarpShuffle::tile_adds(kTile) + kThreads) / double(kTile);
    return 1.0 + tile_scan + Segmented<WarpShuffle>::adds_per_element(tiles(n)) * double(tiles(n)) / double(n);
  }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(reduce_then_scan, ReduceThenScan, Ladder::course,
                   "reduce each tile, scan the sums, scan each tile from its prefix: 2 reads, 1 write")
