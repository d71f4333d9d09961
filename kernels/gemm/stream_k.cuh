// Stream-K scheduling of a persistent grid (Osama et al., PPoPP 2023): how the
// tiles of C and their k-slabs are shared among the grid's workers (here,
// blocks), and the flags by which the pieces of one tile are summed.
//
// A grid of W workers on T tiles runs T / W full waves and a last one with
// T % W tiles, where the other workers idle. Stream-K gives every worker the
// same number of slab iterations instead: the last wave and one full wave
// before it (T % W + W tiles), or with `share_all` every tile (for fewer
// tiles than workers), are cut into W equal ranges of (tile, slab) units;
// the other tiles are taken whole, as before. A range may start or end
// inside a tile. The worker whose range holds a tile's first slab finishes
// that tile: it adds the partial sums of the later pieces, which the next
// workers computed at the start of their own ranges (long before the
// finisher reaches the tile at the end of its range), and writes C. Only
// the first piece of a range can start inside a tile, so each worker hands
// on at most one partial sum, before it waits for any.
#pragma once

#include <cstdint>

namespace gpubench::gemm {

struct StreamK {
  int slabs, workers;
  int whole_tiles;  // tiles 0 .. whole_tiles - 1 are taken whole, tile i by worker i % workers
  // The (tile, slab) units of the other tiles are shared evenly: `per` to
  // each worker and one more to each of the first `extra`.
  std::int64_t per;
  int extra;

  __device__ StreamK(int tiles, int slabs_, int workers_, bool share_all) : slabs(slabs_), workers(workers_) {
    const int waves = tiles / workers, rest = tiles % workers;
    // Without share_all: with no last wave to fill, or less than one wave in
    // all, every tile is taken whole; where any tiles are shared, per >=
    // slabs: every range holds a tile's slabs or more, so a tile is cut at
    // most once. With share_all a tile may be cut several times.
    whole_tiles = share_all ? 0 : rest == 0 || waves == 0 ? tiles : (waves - 1) * workers;
    const std::int64_t units = std::int64_t(tiles - whole_tiles) * slabs;
    per = units / workers;
    extra = int(units % workers);
  }

  // The first unit of worker w's range (w == workers: the end of the last).
  // No division: a 64-bit one is a call, and its registers would spill the
  // accumulators (for_each_piece divides once a range, before any are live).
  __device__ std::int64_t begin(int w) const { return per * w + min(w, extra); }

  // Calls f(h) for each worker h whose range starts inside shared tile
  // `tile` after worker w's, in order: the helpers whose partial sums the
  // finisher w adds.
  template <typename F>
  __device__ void for_each_helper(int w, int tile, F&& f) const {
    const std::int64_t end = std::int64_t(tile - whole_tiles + 1) * slabs;  // the unit after the tile's last
    for (int h = w + 1; h < workers && begin(h) < end; ++h) f(h);
  }

  // Calls f(tile, first_slab, end_slab) for each piece of work of worker w, in order.
  template <typename F>
  __device__ void for_each_piece(int w, F&& f) const {
    for (int i = w; i < whole_tiles; i += workers) f(i, 0, slabs);
    std::int64_t left = begin(w + 1) - begin(w);  // units of the range not yet taken
    if (left == 0) return;
    int tile = whole_tiles + int(begin(w) / slabs), first = int(begin(w) % slabs);
    while (left > 0) {
      const int last = left < slabs - first ? first + int(left) : slabs;
      f(tile, first, last);
      left -= last - first;
      ++tile, first = 0;
    }
  }
};

// A helper's signal that its partial sums are in memory, and the finisher's
// wait for it. The caller orders the partial sums' stores (or loads) before
// (after) these with a barrier of the threads that wrote (read) them.
__device__ __forceinline__ void signal_partial(unsigned* flag) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory");
}
__device__ __forceinline__ void wait_partial(const unsigned* flag) {
  unsigned v = 0;
  do {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  } while (v == 0);
}

}  // namespace gpubench::gemm
