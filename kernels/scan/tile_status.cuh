// What the single-pass scans publish per tile for their successors: a flag
// (0 nothing yet, 1 the tile's own sum, 2 the sum of everything up to and
// including the tile) and the value it announces.
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
  // 4-byte values travel with their flag in one 8-byte word: one store to
  // publish, one load to read, no fences. Wider values use a flag per tile
  // and two value arrays, ordered by release and acquire.
  static constexpr bool kPacked = sizeof(T) == 4;
  using Word = unsigned long long;

  unsigned* ticket;            // next tile number
  Word* words = nullptr;       // packed: flag << 32 | value bits
  int* flags = nullptr;        // otherwise: the flag,
  T* aggregate = nullptr;      // the tile's own sum,
  T* inclusive = nullptr;      // everything up to and including the tile

  struct Published {
    int flag;
    T value;
  };

  static std::size_t bytes(std::int64_t tiles) {
    return align_up(sizeof(unsigned)) + (kPacked ? align_up(tiles * sizeof(Word))
                                                 : align_up(tiles * sizeof(int)) + 2 * align_up(tiles * sizeof(T)));
  }

  static TileStatus at(void* scratch, std::int64_t tiles) {
    auto* p = static_cast<unsigned char*>(scratch);
    TileStatus s;
    s.ticket = reinterpret_cast<unsigned*>(p);
    p += align_up(sizeof(unsigned));
    if constexpr (kPacked) {
      s.words = reinterpret_cast<Word*>(p);
    } else {
      s.flags = reinterpret_cast<int*>(p);
      p += align_up(tiles * sizeof(int));
      s.aggregate = reinterpret_cast<T*>(p);
      s.inclusive = reinterpret_cast<T*>(p + align_up(tiles * sizeof(T)));
    }
    return s;
  }

  // The ticket and the flags must start at zero: one memset, in the timed
  // region (CUB's scan runs an initialization kernel for the same purpose).
  void reset(std::int64_t tiles, cudaStream_t stream) const {
    const std::size_t flag_bytes = tiles * (kPacked ? sizeof(Word) : sizeof(int));
    GPUBENCH_CUDA(cudaMemsetAsync(ticket, 0, align_up(sizeof(unsigned)) + flag_bytes, stream));
  }

  __device__ void publish(int tile, T value, TileFlag flag) const {
    if constexpr (kPacked) {
      unsigned bits;
      memcpy(&bits, &value, sizeof bits);
      cuda::atomic_ref<Word, cuda::thread_scope_device>(words[tile]).store(Word(flag) << 32 | bits,
                                                                             cuda::memory_order_relaxed);
    } else {
      (flag == kTilePrefix ? inclusive : aggregate)[tile] = value;
      cuda::atomic_ref<int, cuda::thread_scope_device>(flags[tile]).store(flag, cuda::memory_order_release);
    }
  }

  // Waits until the tile has published something; returns it.
  __device__ Published wait(int tile) const {
    if constexpr (kPacked) {
      cuda::atomic_ref<Word, cuda::thread_scope_device> w(words[tile]);
      Word word;
      while (((word = w.load(cuda::memory_order_relaxed)) >> 32) == kTileEmpty) {
      }
      const unsigned bits = unsigned(word);
      T value;
      memcpy(&value, &bits, sizeof value);
      return {int(word >> 32), value};
    } else {
      cuda::atomic_ref<int, cuda::thread_scope_device> f(flags[tile]);
      int flag;
      while ((flag = f.load(cuda::memory_order_acquire)) == kTileEmpty) {
      }
      return {flag, flag == kTilePrefix ? inclusive[tile] : aggregate[tile]};
    }
  }
};

// The tile this block scans, by ticket, broadcast through shared memory.
__device__ __forceinline__ int take_ticket(unsigned* ticket, int* shared_slot) {
  if (threadIdx.x == 0) *shared_slot = int(atomicAdd(ticket, 1u));
  __syncthreads();
  return *shared_slot;
}

}  // namespace gpubench::scan
