// Pieces the scan steps share: the operator, the warp and block scans built
// from shuffles, the shared-memory tile layout, and step registration.
#pragma once

#include <cstdint>

#include "kernels/common/resources.cuh"
#include "kernels/scan/scan_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::scan {

// The associative operator with its identity; sum is the one the CLI runs.
struct Sum {
  template <class T>
  __host__ __device__ static T identity() {
    return T(0);
  }
  template <class T>
  __host__ __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

constexpr std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// Shared-memory index with one pad element every 32: for 4-byte elements, a
// thread reading its own run of consecutive elements (thread t at
// t * items + j) hits a different bank from every other lane of its warp for
// 8, 16 or 32 items (8-byte elements still meet 2-way).
__host__ __device__ constexpr int padded(int i) { return i + i / 32; }

// Kogge-Stone's operator count on `width` (a power of two) elements: step d
// adds to every element from d on.
constexpr double kogge_stone_adds(int width) {
  double adds = 0;
  for (int d = 1; d < width; d *= 2) adds += width - d;
  return adds;
}

// Inclusive scan across the 32 lanes of a warp (Kogge-Stone on shuffles).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive(T x) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x = Op()(y, x);
  }
  return x;
}

// Exclusive scan of one value per thread across the block; `total` gets the
// block's sum. warp_sums: kThreads / 32 elements of shared memory, free
// again after the caller's next __syncthreads.
template <class T, class Op, int kThreads>
__device__ __forceinline__ T block_exclusive(T x, T* warp_sums, T& total) {
  constexpr int kWarps = kThreads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const T inclusive = warp_inclusive<T, Op>(x);
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    T s = lane < kWarps ? warp_sums[lane] : Op::template identity<T>();
    s = warp_inclusive<T, Op>(s);
    if (lane < kWarps) warp_sums[lane] = s;
  }
  __syncthreads();
  total = warp_sums[kWarps - 1];
  T exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (lane == 0) exclusive = Op::template identity<T>();
  return warp == 0 ? exclusive : Op()(warp_sums[warp - 1], exclusive);
}

// A tile of kThreads x kItems elements staged through shared memory: loads
// and stores are coalesced, and each thread works on kItems consecutive
// elements in registers.
template <class T, class Op, int kThreads, int kItems>
struct StagedTile {
  static constexpr int kTile = kThreads * kItems;
  static constexpr int kSharedElements = padded(kTile);

  // in[0..count) into registers, the identity past count.
  __device__ static void load(const T* in, int count, T* smem, T (&v)[kItems]) {
    for (int i = threadIdx.x; i < kTile; i += kThreads) smem[padded(i)] = i < count ? in[i] : Op::template identity<T>();
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) v[j] = smem[padded(threadIdx.x * kItems + j)];
    __syncthreads();
  }

  // Registers to out[0..count).
  __device__ static void store(T* out, int count, T* smem, const T (&v)[kItems]) {
#pragma unroll
    for (int j = 0; j < kItems; ++j) smem[padded(threadIdx.x * kItems + j)] = v[j];
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += kThreads) out[i] = smem[padded(i)];
  }
};

// A thread's kItems consecutive elements in registers, whatever tile layout
// put them there: their sum (for the block scan), and their scan in place,
// each offset by `prefix` (what comes before the thread): inclusive, or
// exclusive (each item gets the sum of those before it).
template <class Op, class T, int kItems>
__device__ __forceinline__ T reduce_items(const T (&v)[kItems]) {
  T t = v[0];
#pragma unroll
  for (int j = 1; j < kItems; ++j) t = Op()(t, v[j]);
  return t;
}

template <class Op, class T, int kItems>
__device__ __forceinline__ void scan_items(T (&v)[kItems], T prefix, bool exclusive) {
  T running = prefix;
  if (exclusive) {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const T x = v[j];
      v[j] = running;
      running = Op()(running, x);
    }
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j) v[j] = running = Op()(running, v[j]);
  }
}

// Dispatch from a Problem's dtype to an implementation's templates.
template <class Impl>
std::size_t scratch_dispatch(const Problem& p) {
  return visit_dtype_with_int64(p.dtype, [&](auto tag) { return Impl::template scratch_bytes<typename decltype(tag)::type>(p); });
}

template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  visit_dtype_with_int64(p.dtype, [&](auto tag) { Impl::template run<typename decltype(tag)::type>(p, ws); });
}

template <class Impl>
Resources resources_dispatch(const Problem& p) {
  return visit_dtype_with_int64(p.dtype, [&](auto tag) {
    return resources_of(Impl::template output_kernel<typename decltype(tag)::type>());
  });
}

}  // namespace gpubench::scan

// Registers IMPL (a struct with template <class T> scratch_bytes, run and
// output_kernel, the kernel that writes the output, for the resource
// columns; and adds_per_element) as step NAME for every element type.
#define GPUBENCH_SCAN_STEP(NAME, IMPL, LADDER, SUMMARY)                                                   \
  namespace gpubench::scan {                                                                             \
  const Step& step_##NAME() {                                                                            \
    static const Step step{#NAME,           LADDER, SUMMARY, Where::device, &scratch_dispatch<IMPL>, \
                           &run_dispatch<IMPL>, &IMPL::adds_per_element, &resources_dispatch<IMPL>};     \
    return step;                                                                                         \
  }                                                                                                      \
  }
