// Pieces the stencil steps share: the dispatch to the kernels' element
// type, the coefficients as kernel arguments, the stencil at one point,
// and step registration.
#pragma once

#include <cstdint>

#include "kernels/common/resources.cuh"
#include "kernels/common/store_128.cuh"
#include "kernels/stencil3d/stencil3d_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::stencil3d {

// The coefficients in the element type, passed by value: kernel arguments
// live in the constant bank, so each is an FMA operand.
template <class T>
struct Coefficients {
  T c[7];
};

template <class T>
Coefficients<T> coefficients(const Problem& p) {
  Coefficients<T> k;
  for (int i = 0; i < 7; ++i) k.c[i] = T(p.c[i]);
  return k;
}

// centre, x-1, x+1, y-1, y+1, z-1, z+1, in the contract's order.
template <class T>
__device__ __forceinline__ T stencil(const Coefficients<T>& k, T centre, T xm, T xp, T ym, T yp, T zm, T zp) {
  return k.c[0] * centre + k.c[1] * xm + k.c[2] * xp + k.c[3] * ym + k.c[4] * yp + k.c[5] * zm + k.c[6] * zp;
}

__device__ __forceinline__ bool interior(std::int64_t n, std::int64_t x, std::int64_t y, std::int64_t z) {
  return x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && z >= 1 && z < n - 1;
}

// Point (x, y, z) of the grid, or 0 outside it (read only by boundary
// points, which copy their input).
template <class T>
__device__ __forceinline__ T point_or_zero(const T* in, std::int64_t n, std::int64_t x, std::int64_t y, std::int64_t z) {
  return x >= 0 && x < n && y >= 0 && y < n && z >= 0 && z < n ? in[(z * n + y) * n + x] : T(0);
}

// V elements of T in one load (16 bytes for the vectorized steps).
template <class T, int V>
struct alignas(V * sizeof(T)) Vec {
  T v[V];
};

// The V elements of row y, plane z from column x (a multiple of V, with n
// one too), or zeros outside the grid.
template <class T, int V>
__device__ __forceinline__ Vec<T, V> vec_or_zero(const T* in, std::int64_t n, std::int64_t x, std::int64_t y,
                                                 std::int64_t z) {
  if (x >= 0 && x < n && y >= 0 && y < n && z >= 0 && z < n) return *reinterpret_cast<const Vec<T, V>*>(in + (z * n + y) * n + x);
  return Vec<T, V>{};
}

// Stores w at dst (a multiple of V elements into the grid), in one
// 128-bit store where w is 16 bytes.
template <class T, int V>
__device__ __forceinline__ void store_vec(T* dst, const Vec<T, V>& w) {
  if constexpr (V * sizeof(T) == 16) {
    store_128(dst, w.v);
  } else {
    *reinterpret_cast<Vec<T, V>*>(dst) = w;
  }
}

inline unsigned blocks(std::int64_t n, int per_block) { return unsigned((n + per_block - 1) / per_block); }

// Rows the 128-bit steps can move in vectors of 16 bytes: a whole number of
// vectors, on 16-byte boundaries (the resource columns ask with null
// pointers, so there the side alone decides).
template <class T>
bool rows_of_vectors(const Problem& p) {
  return p.n % (16 / sizeof(T)) == 0 && reinterpret_cast<std::uintptr_t>(p.in) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(p.out) % 16 == 0;
}

// A step's kernels are IMPL::launch<T>(problem, stream) and, for its
// resource columns, IMPL::kernel<T>(problem): the one launch runs.
template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  visit_float(p.dtype, [&](auto tag) { Impl::template launch<typename decltype(tag)::type>(p, ws.stream); });
  GPUBENCH_CHECK_LAUNCH();
}

template <class Impl>
Resources resources_dispatch(const Problem& p) {
  return visit_float(p.dtype, [&](auto tag) { return resources_of(Impl::template kernel<typename decltype(tag)::type>(p)); });
}

}  // namespace gpubench::stencil3d

#define GPUBENCH_STENCIL3D_STEP(NAME, IMPL, LADDER, SUMMARY)                                                 \
  namespace gpubench::stencil3d {                                                                            \
  const Step& step_##NAME() {                                                                                \
    static const Step step{#NAME, LADDER, SUMMARY, Where::device, &run_dispatch<IMPL>, nullptr,              \
                           &resources_dispatch<IMPL>};                                                       \
    return step;                                                                                             \
  }                                                                                                          \
  }

// Defines step_NAME() for a step on Hopper's TMA (compute capability 9.0)
// whose file defines run, make_plan, resources and unavailable.
#define GPUBENCH_STENCIL3D_TMA_STEP(NAME, SUMMARY)                                                          \
  namespace gpubench::stencil3d {                                                                            \
  const Step& step_##NAME() {                                                                                \
    static const Step step{#NAME,      Ladder::modern, SUMMARY,      Where::device, &run, &make_plan,        \
                           &resources, &unavailable,   nullptr, 90};                                         \
    return step;                                                                                             \
  }                                                                                                          \
  }
