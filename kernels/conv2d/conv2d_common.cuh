// Pieces the convolution steps share: the dispatch from a Problem to the
// kernels' template instances (element type, mask radius), zero ghost
// cells, 128-bit vectors, the grid, and step registration.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "kernels/common/resources.cuh"
#include "kernels/conv2d/conv2d_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::conv2d {

constexpr int kMaxSide = 15;

template <int R>
using Radius = std::integral_constant<int, R>;

// Calls f(TypeTag<T>{}, Radius<R>{}) with the C++ element type and the mask
// radius of p: only the instances the ladder runs are built.
template <class F>
decltype(auto) visit_problem(const Problem& p, F&& f) {
  auto with_type = [&](auto tag) -> decltype(auto) {
    switch (p.side) {
      case 3: return f(tag, Radius<1>{});
      case 5: return f(tag, Radius<2>{});
      case 7: return f(tag, Radius<3>{});
      case 9: return f(tag, Radius<4>{});
      case 15: return f(tag, Radius<7>{});
    }
    throw std::invalid_argument("conv2d: mask side " + std::to_string(p.side) + " is not built");
  };
  return visit_float(p.dtype, with_type);
}

// Pixel (x, y) of the image, or 0 outside it (a ghost cell).
template <class T>
__device__ __forceinline__ T pixel_or_zero(const T* in, std::int64_t w, std::int64_t h, std::int64_t x, std::int64_t y) {
  return x >= 0 && x < w && y >= 0 && y < h ? in[y * w + x] : T(0);
}

// kLanes elements of T in one 128-bit load or store.
template <class T>
struct alignas(16) Vec {
  static constexpr int kLanes = 16 / sizeof(T);
  T v[kLanes];
};

// Blocks of tile_w x tile_h pixels over the image. gridDim.y stops at the
// hardware's 65535: kernels step their tile row by gridDim.y.
inline dim3 tile_grid(std::int64_t w, std::int64_t h, int tile_w, int tile_h) {
  const std::int64_t x = (w + tile_w - 1) / tile_w, y = (h + tile_h - 1) / tile_h;
  return dim3(unsigned(x), unsigned(std::min<std::int64_t>(y, 65535)));
}

// A step's kernels are IMPL::launch<T, R>(problem, stream) and, for its
// resource columns, IMPL::kernel<T, R>() (static shared memory only).
template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  visit_problem(p, [&](auto tag, auto radius) {
    Impl::template launch<typename decltype(tag)::type, decltype(radius)::value>(p, ws.stream);
  });
  GPUBENCH_CHECK_LAUNCH();
}

template <class Impl>
Resources resources_dispatch(const Problem& p) {
  return visit_problem(p, [&](auto tag, auto radius) {
    return resources_of(Impl::template kernel<typename decltype(tag)::type, decltype(radius)::value>());
  });
}

}  // namespace gpubench::conv2d

// Defines step_NAME() for a device step implemented by IMPL; PLAN is its
// make_plan (upload_mask, or nullptr).
#define GPUBENCH_CONV2D_STEP(NAME, IMPL, LADDER, SUMMARY, PLAN)                                       \
  namespace gpubench::conv2d {                                                                        \
  const Step& step_##NAME() {                                                                         \
    static const Step step{#NAME, LADDER, SUMMARY, Where::device, &run_dispatch<IMPL>, PLAN,          \
                           &resources_dispatch<IMPL>};                                                \
    return step;                                                                                      \
  }                                                                                                   \
  }
