// What the single-pass scans publish per tile for their successors: a flag
// (0 nothing yet, 1 the tile's own sum, 2 the sum of everything up to and
// including the tile) and the two values, each written once before the flag
// that announces it (release) and read after seeing that flag (acquire).
// Tiles are numbered in the order blocks start (an atomic ticket), so every
// tile a block waits for belongs to a block that is already running: the
// scan cannot deadlock whatever order the hardware schedules blocks in.
#pragma once

#include <cuda/atomic>

#include "kernels/scan/scan_common.cuh"

namespace gpubench::scan {

enum TileFlag : int { kTileEmpty = 0, kTileAggregate = 1, kTilePrefix = 2 };

template <class T>
struct TileStatus {
  unsigned* ticket;  // next tile number
  int* flags;        // per tile
  T* aggregate;      // the tile's own sum
  T* inclusive;      // everything up to and including the tile

  static std::size_t bytes(std::int64_t tiles) {
    return align_up(sizeof(unsigned)) + align_up(tiles * sizeof(int)) + 2 * align_up(tiles * sizeof(T));
  }

  static TileStatus at(void* scratch, std::int64_t tiles) {
    auto* p = static_cast<unsigned char*>(scratch);
    TileStatus s;
    s.ticket = reinterpret_cast<unsigned*>(p);
    p += align_up(sizeof(unsigned));
    s.flags = reinterpret_cast<int*>(p);
    p += align_up(tiles * sizeof(int));
    s.aggregate = reinterpret_cast<T*>(p);
    s.inclusive = reinterpret_cast<T*>(p + align_up(tiles * sizeof(T)));
    return s;
  }

  // The ticket and the flags must start at zero: one memset, in the timed
  // region (CUB's scan runs an initialization kernel for the same purpose).
  void reset(std::int64_t tiles, cudaStream_t stream) const {
    GPUBENCH_CUDA(cudaMemsetAsync(ticket, 0, align_up(sizeof(unsigned)) + tiles * sizeof(int), stream));
  }

  __device__ void publish(int tile, T value, TileFlag flag) const {
    (flag == kTilePrefix ? inclusive : aggregate)[tile] = value;
    cuda::atomic_ref<int, cuda::thread_scope_device>(flags[tile]).store(flag, cuda::memory_order_release);
  }

  // Waits until the tile has published something; returns the flag.
  __device__ int wait(int tile) const {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(flags[tile]);
    int flag;
    while ((flag = f.load(cuda::memory_order_acquire)) == kTileEmpty) {
    }
    return flag;
  }

  __device__ T value(int tile, int flag) const { return flag == kTilePrefix ? inclusive[tile] : aggregate[tile]; }
};

// The tile this block scans, by ticket, broadcast through shared memory.
__device__ __forceinline__ int take_ticket(unsigned* ticket, int* shared_slot) {
  if (threadIdx.x == 0) *shared_slot = int(atomicAdd(ticket, 1u));
  __syncthreads();
  return *shared_slot;
}

}  // namespace gpubench::scan
