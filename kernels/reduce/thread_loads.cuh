// How each thread gathers its share of the input before the block tree, for
// the grid-stride steps. Both return the thread's partial (identity if none).
#pragma once

#include <cstdint>

#include "kernels/reduce/ops.cuh"

namespace gpubench::reduce {

// reduce6: two elements a block apart per trip, then a grid-sized jump, so a
// fixed grid covers any n and every thread does many adds before the tree.
template <class T, class Op>
__device__ T grid_stride_pairs(const T* in, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x * 2;
  T v = Op::template identity<T>();
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x * 2 + threadIdx.x; i < n; i += stride) {
    v = Op{}(v, in[i]);
    if (i + blockDim.x < n) v = Op{}(v, in[i + blockDim.x]);
  }
  return v;
}

// 16-byte vector of T and the fold of its lanes.
template <class T> struct Vec16;
template <> struct Vec16<int> { using type = int4; };
template <> struct Vec16<float> { using type = float4; };
template <> struct Vec16<double> { using type = double2; };

template <class Op>
__device__ int fold(int4 v) { return Op{}(Op{}(v.x, v.y), Op{}(v.z, v.w)); }
template <class Op>
__device__ float fold(float4 v) { return Op{}(Op{}(v.x, v.y), Op{}(v.z, v.w)); }
template <class Op>
__device__ double fold(double2 v) { return Op{}(v.x, v.y); }

// 16-byte loads each thread of reduce8 and reduce9 issues before using any.
constexpr int kVectorLoadsInFlight = 4;

// reduce8: 16-byte loads, kUnroll of them issued before any is used, so each
// thread keeps kUnroll * 16 bytes in flight. Elements before the first 16-byte
// boundary and after the last whole vector are taken one by one.
template <class T, class Op, int kUnroll = kVectorLoadsInFlight>
__device__ T grid_stride_vectorized(const T* in, std::int64_t n) {
  using V = typename Vec16<T>::type;
  constexpr int kLanes = sizeof(V) / sizeof(T);
  const std::int64_t tid = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;

  const auto misalign = reinterpret_cast<std::uintptr_t>(in) % sizeof(V);
  const std::int64_t head = misalign ? std::min<std::int64_t>(n, (sizeof(V) - misalign) / sizeof(T)) : 0;
  const std::int64_t nvec = (n - head) / kLanes;
  const V* vin = reinterpret_cast<const V*>(in + head);

  T v = Op::template identity<T>();
  if (tid < head) v = in[tid];
  std::int64_t i = tid;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    V chunk[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) chunk[u] = vin[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v = Op{}(v, fold<Op>(chunk[u]));
  }
  for (; i < nvec; i += stride) v = Op{}(v, fold<Op>(vin[i]));
  const std::int64_t t = head + nvec * kLanes + tid;
  if (t < n) v = Op{}(v, in[t]);
  return v;
}

}  // namespace gpubench::reduce
