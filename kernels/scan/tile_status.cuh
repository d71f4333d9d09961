// What the single-pass scans publish per tile for their successors: a flag
// (0 nothing yet, 1 the tile's own sum, 2 the sum of everything up to and
// including the tile) and the value it announces.
// Tiles are numbered in the order blocks start (an atomic ticket), so every
// tile a block waits for belongs to a block that is already running: the
// scan cannot deadlock whatever order the hardware schedules blocks in.
// The ticket and the flags are zeroed by a small kernel before each scan;
// from sm_90 on the scan grid may start while that kernel still runs
// (programmatic dependent launch), and waits in wait_for_reset() before it
// first touches them.
#pragma once

#include <cuda/atomic>
#include <map>

#include "kernels/scan/scan_common.cuh"

namespace gpubench::scan {

__device__ __forceinline__ void allow_dependent_launch() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void wait_for_reset() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// A template only so that every translation unit may define it.
template <class Word32 = unsigned>
__global__ void reset_kernel(Word32* words, std::int64_t count) {
  allow_dependent_launch();
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    words[i] = 0;
}

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

  // The ticket and the flags must start at zero: one small kernel, in the
  // timed region (CUB's scan runs an initialization kernel for the same
  // purpose).
  void reset(std::int64_t tiles, cudaStream_t stream) const {
    const std::int64_t bytes = align_up(sizeof(unsigned)) + tiles * (kPacked ? sizeof(Word) : sizeof(int));
    const std::int64_t words = bytes / sizeof(unsigned);
    reset_kernel<<<unsigned(std::min<std::int64_t>((words + 255) / 256, 1024)), 256, 0, stream>>>(ticket, words);
    GPUBENCH_CHECK_LAUNCH();
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

// Whether `kernel` was compiled for compute_90 or later, where
// wait_for_reset() is not empty. (A build for an older architecture,
// JIT-compiled on a Hopper GPU, has no wait and must not start early.)
inline bool waits_for_reset(const void* kernel) {
  static std::map<const void*, bool> known;
  auto it = known.find(kernel);
  if (it == known.end()) {
    cudaFuncAttributes attr{};
    GPUBENCH_CUDA(cudaFuncGetAttributes(&attr, kernel));
    it = known.emplace(kernel, attr.ptxVersion >= 90).first;
  }
  return it->second;
}

// Launches kernel(args...) right after a reset; where it waits_for_reset(),
// it may start before the reset has finished, and must call
// wait_for_reset() before it touches the ticket or the flags.
template <class... Params, class... Args>
void launch_after_reset(void (*kernel)(Params...), unsigned grid, int block, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.stream = stream;
  config.attrs = &early;
  config.numAttrs = waits_for_reset(reinterpret_cast<const void*>(kernel)) ? 1 : 0;
  GPUBENCH_CUDA(cudaLaunchKernelEx(&config, kernel, Params(args)...));
  GPUBENCH_CHECK_LAUNCH();
}

// The tile this block scans, by ticket, broadcast through shared memory.
__device__ __forceinline__ int take_ticket(unsigned* ticket, int* shared_slot) {
  if (threadIdx.x == 0) *shared_slot = int(atomicAdd(ticket, 1u));
  __syncthreads();
  return *shared_slot;
}

}  // namespace gpubench::scan
