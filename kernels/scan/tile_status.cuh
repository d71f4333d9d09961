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
#include <type_traits>

#include "kernels/common/hopper_code.hpp"
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

// A 16-byte word read and written whole: sm_90's 128-bit loads and stores
// are single accesses, so a reader never sees one half new and one old.
struct alignas(16) Word128 {
  unsigned long long flag, bits;
};

__device__ __forceinline__ void store_relaxed(Word128* p, Word128 w) {
  asm volatile("{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], t;\n\t}" ::"l"(p),
               "l"(w.flag), "l"(w.bits)
               : "memory");
}

__device__ __forceinline__ Word128 load_relaxed(const Word128* p) {
  Word128 w;
  asm volatile("{\n\t.reg .b128 t;\n\tld.relaxed.gpu.global.b128 t, [%2];\n\tmov.b128 {%0, %1}, t;\n\t}"
               : "=l"(w.flag), "=l"(w.bits)
               : "l"(p)
               : "memory");
  return w;
}

template <class T>
struct TileStatus {
  // A value travels with its flag in one word, 8 bytes for 4-byte values and
  // 16 for 8-byte ones: one relaxed store to publish, one relaxed load to
  // read, no fences. (8-byte values used to sit apart from their flag,
  // ordered by a release store and an acquire load: the fences behind
  // those held float64 at 0.75x CUB (which packs them the same way) in
  // the check run that issue 15 cites, not kept in results/.)
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "tile values are 4 or 8 bytes");
  using Word = std::conditional_t<sizeof(T) == 4, unsigned long long, Word128>;

  unsigned* ticket;      // next tile number
  Word* words = nullptr;  // per tile: the flag and the value's bits

  struct Published {
    int flag;
    T value;
  };

  static std::size_t bytes(std::int64_t tiles) {
    return align_up(sizeof(unsigned)) + align_up(tiles * sizeof(Word));
  }

  static TileStatus at(void* scratch) {
    auto* p = static_cast<unsigned char*>(scratch);
    TileStatus s;
    s.ticket = reinterpret_cast<unsigned*>(p);
    s.words = reinterpret_cast<Word*>(p + align_up(sizeof(unsigned)));
    return s;
  }

  // The ticket and the flags must start at zero: one small kernel, in the
  // timed region (CUB's scan runs an initialization kernel for the same
  // purpose).
  void reset(std::int64_t tiles, cudaStream_t stream) const {
    const std::int64_t bytes = align_up(sizeof(unsigned)) + tiles * std::int64_t(sizeof(Word));
    const std::int64_t words = bytes / sizeof(unsigned);
    reset_kernel<<<unsigned(std::min<std::int64_t>((words + 255) / 256, 1024)), 256, 0, stream>>>(ticket, words);
    GPUBENCH_CHECK_LAUNCH();
  }

  __device__ void publish(int tile, T value, TileFlag flag) const {
    if constexpr (sizeof(T) == 4) {
      unsigned bits;
      memcpy(&bits, &value, sizeof bits);
      cuda::atomic_ref<Word, cuda::thread_scope_device>(words[tile]).store(Word(flag) << 32 | bits,
                                                                             cuda::memory_order_relaxed);
    } else {
      Word128 w{static_cast<unsigned long long>(flag), 0};
      memcpy(&w.bits, &value, sizeof value);
      store_relaxed(words + tile, w);
    }
  }

  // Waits until the tile has published something; returns it.
  __device__ Published wait(int tile) const {
    T value;
    if constexpr (sizeof(T) == 4) {
      cuda::atomic_ref<Word, cuda::thread_scope_device> w(words[tile]);
      Word word;
      while (((word = w.load(cuda::memory_order_relaxed)) >> 32) == kTileEmpty) {
      }
      const unsigned bits = unsigned(word);
      memcpy(&value, &bits, sizeof value);
      return {int(word >> 32), value};
    } else {
      Word128 w;
      while ((w = load_relaxed(words + tile)).flag == kTileEmpty) {
      }
      memcpy(&value, &w.bits, sizeof value);
      return {int(w.flag), value};
    }
  }
};

// Launches kernel(args...) right after a reset. Where it has its Hopper
// code it may start before the reset has finished, and must call
// wait_for_reset() before it touches the ticket or the flags; a build for
// an older architecture, JIT-compiled on a Hopper GPU, has no wait and
// must not start early.
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
  config.numAttrs = has_hopper_code(reinterpret_cast<const void*>(kernel)) ? 1 : 0;
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
