// Block-level reduction trees, each introduced by one step of the ladder and
// reused by the steps after it. Every function is called by all threads of
// the block, after each thread has put its value v in sdata[tid] (the shared
// variants) or in a register (the shuffle variants); thread 0 gets the result.
#pragma once

#include <stdexcept>
#include <type_traits>

#include "kernels/reduce/ops.cuh"

namespace gpubench::reduce {

// reduce2: sequential addressing. Active threads are contiguous (no divergence
// inside a warp until s < 32) and read consecutive words (no bank conflicts).
template <class T, class Op>
__device__ T tree_sequential(T* sdata) {
  const unsigned tid = threadIdx.x;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = Op{}(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  return sdata[0];
}

// reduce4: the last 32 partials are folded by one warp without __syncthreads.
// The 2007 slides did this with a `volatile` pointer and no barrier at all,
// relying on the 32 lanes running in lockstep. Since Volta, lanes of a warp are
// scheduled independently and may diverge and reconverge anywhere, so a lane
// can read sdata[tid + off] before its neighbour wrote it: a data race that
// racecheck reports and that can give wrong sums. __syncwarp() orders each
// read before the next write and each write before the next read.
// Requires: sdata[0 .. 2*first) hold the partials, first = min(32, block/2).
template <class T, class Op>
__device__ T warp_tail_shared(T* sdata, T v, unsigned first) {
  const unsigned tid = threadIdx.x;
  if (tid < 32) {
#pragma unroll
    for (unsigned off = first; off > 0; off >>= 1) {
      if (tid < off) v = Op{}(v, sdata[tid + off]);
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
    }
  }
  return v;
}

// reduce4 with reduce2's loop stopping where the warp takes over.
template <class T, class Op>
__device__ T tree_warp_tail(T* sdata, T v) {
  const unsigned tid = threadIdx.x;
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = v = Op{}(v, sdata[tid + s]);
    __syncthreads();
  }
  return warp_tail_shared<T, Op>(sdata, v, blockDim.x >= 64 ? 32 : blockDim.x / 2);
}

// reduce5: the block size is a compile-time constant, so every loop bound and
// `if` on it disappears and the tree is straight-line code.
template <unsigned kBlock, class T, class Op>
__device__ T tree_unrolled(T* sdata, T v) {
  const unsigned tid = threadIdx.x;
#pragma unroll
  for (unsigned s = kBlock / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = v = Op{}(v, sdata[tid + s]);
    __syncthreads();
  }
  return warp_tail_shared<T, Op>(sdata, v, kBlock >= 64 ? 32 : kBlock / 2);
}

// Calls f(std::integral_constant<unsigned, B>) for the run-time block size B
// (a power of two in [32, 1024]), for kernels templated on the block size.
template <class F>
auto with_block_size(int block, F&& f) {
  switch (block) {
    case 32: return f(std::integral_constant<unsigned, 32>{});
    case 64: return f(std::integral_constant<unsigned, 64>{});
    case 128: return f(std::integral_constant<unsigned, 128>{});
    case 256: return f(std::integral_constant<unsigned, 256>{});
    case 512: return f(std::integral_constant<unsigned, 512>{});
    case 1024: return f(std::integral_constant<unsigned, 1024>{});
    default: throw std::invalid_argument("block size must be a power of two from 32 to 1024");
  }
}

// reduce7: a warp folds 32 values held in registers with shuffles: no shared
// memory, no barrier, five instructions.
template <class T, class Op>
__device__ T warp_reduce_shuffle(T v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = Op{}(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

// reduce7: each warp folds its values, lane 0 of each warp parks the warp's
// partial in shared memory, and the first warp folds those. Needs a shared
// array of 32 T and blockDim.x a multiple of 32.
template <class T, class Op>
__device__ T block_reduce_shuffle(T v, T* warp_partials) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_reduce_shuffle<T, Op>(v);
  if (lane == 0) warp_partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_partials[lane] : Op::template identity<T>();
    v = warp_reduce_shuffle<T, Op>(v);
  }
  return v;
}

}  // namespace gpubench::reduce
