#include "src/patterns/conv2d/host_conv2d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "src/detail/parallel.hpp"
#include "src/patterns/float_elements.hpp"
#include "src/patterns/within_tolerance.hpp"

namespace gpubench::conv2d {
namespace {

constexpr std::int64_t kStrip = 2048;  // pixels of a row one work item covers: its accumulators fit in L1

// out = in (x) mask with accumulators of type A, over work items of one
// strip of one row each (rows can be a single one of 2^31 pixels).
template <class A, class T>
void convolve(const T* in, T* out, const T* mask, std::int64_t w, std::int64_t h, int side) {
  const int r = side / 2;
  const std::int64_t strips = (w + kStrip - 1) / kStrip;
  parallel_chunks(h * strips, [&](unsigned, std::int64_t begin, std::int64_t end) {
    std::vector<A> acc(kStrip);
    for (std::int64_t item = begin; item < end; ++item) {
      const std::int64_t y = item / strips, x0 = item % strips * kStrip, x1 = std::min(w, x0 + kStrip);
      std::fill(acc.begin(), acc.end(), A(0));
      for (int i = 0; i < side; ++i) {
        const std::int64_t in_y = y - r + i;
        if (in_y < 0 || in_y >= h) continue;  // a row of ghost cells
        const T* row = in + in_y * w;
        for (int j = 0; j < side; ++j) {
          const A m = mask[i * side + j];
          const std::int64_t dx = j - r, lo = std::max(x0, -dx), hi = std::min(x1, w - dx);
          A* a = acc.data();
#pragma omp simd
          for (std::int64_t x = lo; x < hi; ++x) a[x - x0] += m * A(row[x + dx]);
        }
      }
      for (std::int64_t x = x0; x < x1; ++x) out[y * w + x] = T(acc[x - x0]);
    }
  }, 4);
}

}  // namespace

void fill_image(void* image, std::int64_t pixels, DType t, std::uint64_t seed) {
  visit_float(t, [&](auto tag) { fill_uniform(static_cast<typename decltype(tag)::type*>(image), pixels, seed); });
}

void fill_mask(void* mask, int side, DType t, std::uint64_t seed) {
  visit_float(t, [&](auto tag) { fill_uniform(static_cast<typename decltype(tag)::type*>(mask), side * side, ~seed); });
}

void reference_conv2d(const void* in, void* out, const void* mask, std::int64_t w, std::int64_t h, int side, DType t) {
  visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    convolve<Wide<T>>(static_cast<const T*>(in), static_cast<T*>(out), static_cast<const T*>(mask), w, h, side);
  });
}

void cpu_conv2d(const void* in, void* out, const void* mask, std::int64_t w, std::int64_t h, int side, DType t) {
  visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    convolve<T>(static_cast<const T*>(in), static_cast<T*>(out), static_cast<const T*>(mask), w, h, side);
  });
}

// A pixel is a sum of K = side^2 products m * x with |x| <= 1. Summed in
// the element type in any order (with or without FMA), its error is at most
// about K u sum|m| (u the unit roundoff: 2^-24, 2^-53); the reference's own
// rounding to the element type adds u |out| <= u sum|m|. K + 2 units leave a
// margin; a missed or doubled tap is off by |m x|, typically 10^2 (mask
// 15) to 10^4 (mask 3) times more.
double tolerance(const void* mask, int side, DType t) {
  return visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* m = static_cast<const T*>(mask);
    double sum = 0;
    for (int i = 0; i < side * side; ++i) sum += std::fabs(double(m[i]));
    return (side * side + 2) * double(std::numeric_limits<T>::epsilon()) / 2 * sum;
  });
}

Verdict verify_conv2d(const void* got, const void* want, std::int64_t pixels, DType t, double tol) {
  return visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return verify_within(static_cast<const T*>(got), static_cast<const T*>(want), pixels, tol, "pixels");
  });
}

}  // namespace gpubench::conv2d
