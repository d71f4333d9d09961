#include "src/patterns/stencil3d/host_stencil3d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/patterns/float_elements.hpp"
#include "src/patterns/within_tolerance.hpp"

namespace gpubench::stencil3d {
namespace {

// out = the stencil of in with arithmetic in A, one work item per row of x.
template <class A, class T>
void sweep(const T* in, T* out, std::int64_t n, const double (&c)[7]) {
  const A k[7] = {A(T(c[0])), A(T(c[1])), A(T(c[2])), A(T(c[3])), A(T(c[4])), A(T(c[5])), A(T(c[6]))};
  const std::int64_t plane = n * n;
  parallel_chunks(n * n, [&](unsigned, std::int64_t begin, std::int64_t end) {
    for (std::int64_t row = begin; row < end; ++row) {
      const std::int64_t y = row % n, z = row / n;
      const T* r = in + row * n;
      T* o = out + row * n;
      if (y == 0 || y == n - 1 || z == 0 || z == n - 1 || n < 3) {
        std::copy(r, r + n, o);
        continue;
      }
      o[0] = r[0];
      o[n - 1] = r[n - 1];
#pragma omp simd
      for (std::int64_t x = 1; x < n - 1; ++x)
        o[x] = T(k[0] * A(r[x]) + k[1] * A(r[x - 1]) + k[2] * A(r[x + 1]) + k[3] * A(r[x - n]) + k[4] * A(r[x + n]) +
                 k[5] * A(r[x - plane]) + k[6] * A(r[x + plane]));
    }
  }, 16);
}

}  // namespace

void fill_grid(void* grid, std::int64_t points, DType t, std::uint64_t seed) {
  visit_float(t, [&](auto tag) { fill_uniform(static_cast<typename decltype(tag)::type*>(grid), points, seed); });
}

void fill_coefficients(double (&c)[7], DType t, std::uint64_t seed) {
  const std::uint64_t base = mix(~seed);
  for (int i = 0; i < 7; ++i)
    c[i] = t == DType::f64 ? uniform_pm1(base, i) : double(float(uniform_pm1(base, i)));
}

void reference_stencil(const void* in, void* out, std::int64_t n, const double (&c)[7], DType t) {
  visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    sweep<Wide<T>>(static_cast<const T*>(in), static_cast<T*>(out), n, c);
  });
}

void cpu_stencil(const void* in, void* out, std::int64_t n, const double (&c)[7], DType t) {
  visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    sweep<T>(static_cast<const T*>(in), static_cast<T*>(out), n, c);
  });
}

// An interior point is a sum of 7 products c x with |x| <= 1: summed in the
// element type in any order (with or without FMA), its error is at most
// about 7 u sum|c| (u the unit roundoff: 2^-24, 2^-53); the reference's
// rounding to the element type adds u sum|c|. 9 units leave a margin; a
// wrong neighbour is off by |c (x - x')|, typically 10^5 times more in
// float32. Boundary points are copies: exact.
double tolerance(const double (&c)[7], DType t) {
  double sum = 0;
  for (const double k : c) sum += std::fabs(k);
  const double u = t == DType::f64 ? std::numeric_limits<double>::epsilon() / 2 : std::numeric_limits<float>::epsilon() / 2;
  return 9 * u * sum;
}

Verdict verify_stencil(const void* got, const void* want, std::int64_t points, DType t, double tol) {
  return visit_float(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return verify_within(static_cast<const T*>(got), static_cast<const T*>(want), points, tol, "points");
  });
}

}  // namespace gpubench::stencil3d
