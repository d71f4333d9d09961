// Pieces the map steps share: the operations as functors, 16-byte vectors,
// the dispatch from a Problem to the kernels' instances, the grid that
// fills the GPU, and step registration.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/common/resources.cuh"
#include "kernels/map/map_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::map {

// V elements of T moved as one vector (16 bytes: one 128-bit access).
template <class T, int V>
struct alignas(V * sizeof(T)) Vec {
  T v[V];
};

// Whether an array can be read or written in 16-byte vectors.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class T>
struct VecAdd {
  __device__ __forceinline__ T operator()(T x, T y) const { return x + y; }
};

template <class T>
struct Saxpy {
  T alpha;
  __device__ __forceinline__ T operator()(T x, T y) const { return alpha * x + y; }
};

// Lecture 3's luminance (0.21 r + 0.72 g + 0.07 b) in 8-bit fixed point.
__device__ __forceinline__ unsigned char gray(unsigned char r, unsigned char g, unsigned char b) {
  return static_cast<unsigned char>((77u * r + 150u * g + 29u * b) >> 8);
}

// Calls IMPL::binary(a, b, out, n, f, stream) for vecadd and saxpy (unless
// IMPL::kBinary is false), and IMPL::grayscale(rgb, out, n, stream). No
// elements: nothing to launch (a grid of 0 blocks is an error).
template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  if (p.n <= 0) return;
  if (p.op == Op::grayscale) {
    Impl::grayscale(static_cast<const unsigned char*>(p.a), static_cast<unsigned char*>(p.out), p.n, ws.stream);
  } else if constexpr (Impl::kBinary) {
    auto binary = [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* a = static_cast<const T*>(p.a);
      const T* b = static_cast<const T*>(p.b);
      T* out = static_cast<T*>(p.out);
      if (p.op == Op::saxpy) Impl::binary(a, b, out, p.n, Saxpy<T>{T(p.alpha)}, ws.stream);
      else Impl::binary(a, b, out, p.n, VecAdd<T>{}, ws.stream);
    };
    if (p.dtype == DType::f64) binary(TypeTag<double>{});
    else binary(TypeTag<float>{});
  }
  GPUBENCH_CHECK_LAUNCH();
}

// The resources of the kernel a problem runs: KERNELS<T>::add(), saxpy()
// and gray() name the instances.
template <template <class> class Kernels>
Resources resources_of_problem(const Problem& p) {
  if (p.op == Op::grayscale) return resources_of(Kernels<float>::gray());
  if (p.dtype == DType::f64)
    return p.op == Op::saxpy ? resources_of(Kernels<double>::saxpy()) : resources_of(Kernels<double>::add());
  return p.op == Op::saxpy ? resources_of(Kernels<float>::saxpy()) : resources_of(Kernels<float>::add());
}

// A grid that the GPU holds at once for `kernel` (grid-stride loops).
template <class Kernel>
unsigned resident_grid(Kernel kernel, int threads) {
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return unsigned(std::max(1, per_sm) * sms);
}

}  // namespace gpubench::map

#define GPUBENCH_MAP_STEP(NAME, IMPL, LADDER, SUMMARY, GRAYSCALE_ONLY)                                       \
  namespace gpubench::map {                                                                                 \
  const Step& step_##NAME() {                                                                               \
    static const Step step{#NAME, LADDER, SUMMARY, Where::device, &run_dispatch<IMPL>, &IMPL::resources,    \
                           GRAYSCALE_ONLY};                                                                 \
    return step;                                                                                            \
  }                                                                                                         \
  }
