// decoupled-lookback — the single-pass scan of Merrill & Garland (2016), the
// algorithm inside CUB. A block publishes its tile's own sum as soon as it
// has it, then one warp looks back over up to 32 predecessors at a time:
// each lane takes one tile, waits until that tile has published anything,
// and the warp adds the sums back to the nearest tile that already knows
// its full prefix. Blocks no longer wait for the whole chain to arrive one
// link at a time, so the scan runs at the speed of one read and one write.
// What keeps memory busy around the look-back: each warp loads and stores
// its own run of the tile (WarpTile, no block-wide barrier), 16 bytes per
// lane; and while the reset before the scan finishes and the ticket's
// atomic is in flight, L2 is already fetching the tile the block will most
// likely get.
// It costs 32 elements of registers a thread (chained held 8), and a waiting
// warp polls up to 32 predecessors' status words at once, not one.
#include "kernels/scan/tile_status.cuh"
#include "kernels/scan/warp_tile.cuh"

namespace gpubench::scan {
namespace {

// Warp 0 of tile `tile` (> 0): the sum of all tiles before it.
template <class T, class Op>
__device__ T look_back(const TileStatus<T>& status, int tile) {
  const int lane = threadIdx.x % 32;
  T before = Op::template identity<T>();
  for (int last = tile - 1;; last -= 32) {
    // Lane 31 takes the nearest tile of the window; lanes before tile 0
    // stand for an empty prefix.
    const int idx = last - 31 + lane;
    int flag = kTilePrefix;
    T value = Op::template identity<T>();
    if (idx >= 0) {
      const auto published = status.wait(idx);
      flag = published.flag;
      value = published.value;
    }
    const unsigned prefixes = __ballot_sync(0xffffffffu, flag == kTilePrefix);
    const int stop = prefixes ? 31 - __clz(prefixes) : 0;  // nearest lane with a full prefix
    const T window = warp_inclusive<T, Op>(lane >= stop ? value : Op::template identity<T>());
    before = Op()(__shfl_sync(0xffffffffu, window, 31), before);
    if (prefixes) return before;
  }
}

// Starts fetching `bytes` at p into L2 (rounded down to whole 16-byte
// pieces; nothing when p is not 16-byte aligned), without registers or
// waiting: Hopper's bulk prefetch; nothing on older GPUs.
__device__ __forceinline__ void prefetch_l2(const void* p, std::int64_t bytes) {
#if __CUDA_ARCH__ >= 900
  const auto whole_bytes = unsigned(bytes / 16 * 16);
  if (whole_bytes > 0 && reinterpret_cast<std::uintptr_t>(p) % 16 == 0)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(whole_bytes) : "memory");
#endif
}

template <class T, class Op, int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads) lookback_kernel(const T* in, T* out, std::int64_t n, bool exclusive,
                                                            TileStatus<T> status) {
  constexpr int kTile = kThreads * kItems;
  using Tile = WarpTile<T, Op, kItems>;
  __shared__ T slices[kThreads / 32][Tile::kSharedElements];
  __shared__ T warp_sums[kThreads / 32];
  __shared__ int tile_slot;
  __shared__ T tile_prefix;
  // Blocks start in index order, so the ticket is almost always near blockIdx.x.
  const std::int64_t likely = std::int64_t(blockIdx.x) * kTile;
  if (threadIdx.x == 0) prefetch_l2(in + likely, min(std::int64_t(kTile), n - likely) * std::int64_t(sizeof(T)));
  wait_for_reset();
  const int tile = take_ticket(status.ticket, &tile_slot);
  const int warp = threadIdx.x / 32;
  const std::int64_t run = std::int64_t(tile) * kTile + std::int64_t(warp) * Tile::kWarpElements;
  const int count = int(max(std::int64_t(0), min(std::int64_t(Tile::kWarpElements), n - run)));
  T v[kItems];
  Tile::load(in + run, count, slices[warp], v);
  T tile_total;
  const T prefix = block_exclusive<T, Op, kThreads>(reduce_items<Op>(v), warp_sums, tile_total);
  if (threadIdx.x < 32) {
    T before = Op::template identity<T>();
    if (tile == 0) {
      if (threadIdx.x == 0) status.publish(0, tile_total, kTilePrefix);
    } else {
      if (threadIdx.x == 0) status.publish(tile, tile_total, kTileAggregate);
      before = look_back<T, Op>(status, tile);
      if (threadIdx.x == 0) status.publish(tile, Op()(before, tile_total), kTilePrefix);
    }
    if (threadIdx.x == 0) tile_prefix = before;
  }
  __syncthreads();
  scan_items<Op>(v, Op()(tile_prefix, prefix), exclusive);
  Tile::store(out + run, count, slices[warp], v);
}

// 32 elements a thread. 4-byte elements: 128 threads (128 bytes each),
// chosen among 64 to 512 threads and 64 to 256 bytes per thread, tried on
// the H200 at 2^24 to 2^30 (CUB: 128 x 96); 256 bytes was about 5% faster
// at 2^28 and 2^30 but slower than CUB at 2^24 (development runs, not kept
// in results/; docs/ladders/scan.md). 8-byte elements: 64 threads (256 bytes
// each), the same 2048-element tile in half the warps; of 15 shapes from
// 64 to 256 threads and 64 to 384 bytes per thread it was the only one
// ahead of CUB at 2^24 for both types and both kinds, and about 1.7%
// faster than 128 x 128 bytes at 2^28 and 2^30
// (results/h200/experiments/scan8-shapes-call{1,2}.txt).
constexpr int kLookbackItems = 32;
template <class T>
constexpr int kLookbackThreads = sizeof(T) == 8 ? 64 : 128;

struct DecoupledLookback {
  template <class T>
  static std::int64_t tiles(std::int64_t n) {
    constexpr std::int64_t tile = kLookbackThreads<T> * kLookbackItems;
    return (n + tile - 1) / tile;
  }

  template <class T>
  static std::size_t scratch_bytes(const Problem& p) {
    return TileStatus<T>::bytes(tiles<T>(p.n));
  }

  template <class T>
  static void run(const Problem& p, const Workspace& ws) {
    const auto status = TileStatus<T>::at(ws.scratch);
    status.reset(tiles<T>(p.n), ws.stream);
    launch_after_reset(output_kernel<T>(), unsigned(tiles<T>(p.n)), kLookbackThreads<T>, ws.stream,
                       static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n, p.kind == Kind::exclusive, status);
  }

  template <class T>
  static auto output_kernel() {
    return lookback_kernel<T, Sum, kLookbackThreads<T>, kLookbackItems>;
  }

  // As single_pass_chained, plus the look-back window's warp scan per tile
  // (one window when predecessors are ahead, as they mostly are); counted
  // for 4-byte elements (32 per thread).
  static double adds_per_element(std::int64_t) {
    constexpr int threads = kLookbackThreads<int>, items = kLookbackItems;
    return (threads * (items - 1) + (threads / 32 + 1) * kogge_stone_adds(32) + 2 * threads + threads * items +
            kogge_stone_adds(32) + 2) /
           double(threads * items);
  }
};

}  // namespace
}  // namespace gpubench::scan

GPUBENCH_SCAN_STEP(decoupled_lookback, DecoupledLookback, Ladder::single_pass,
                   "one kernel: publish the tile sum, warp-wide look-back over predecessors (Merrill & Garland)")
