#include "src/patterns/map/host_map.hpp"

#include <cmath>
#include <limits>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/patterns/within_tolerance.hpp"

namespace gpubench::map {
namespace {

unsigned char gray(const unsigned char* px) { return static_cast<unsigned char>((77u * px[0] + 150u * px[1] + 29u * px[2]) >> 8); }

// out[i] = op(a[i], b[i]) with the arithmetic of A; wide: the reference.
template <class A>
void compute(const Problem& p) {
  if (p.op == Op::grayscale) {
    const auto* rgb = static_cast<const unsigned char*>(p.a);
    auto* out = static_cast<unsigned char*>(p.out);
    parallel_chunks(p.n, [&](unsigned, std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) out[i] = gray(rgb + 3 * i);
    });
    return;
  }
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using W = std::conditional_t<A::value, std::conditional_t<std::is_same_v<T, float>, double, long double>, T>;
    const T* a = static_cast<const T*>(p.a);
    const T* b = static_cast<const T*>(p.b);
    T* out = static_cast<T*>(p.out);
    const W alpha = W(T(p.alpha));
    const bool saxpy = p.op == Op::saxpy;
    parallel_chunks(p.n, [&](unsigned, std::int64_t lo, std::int64_t hi) {
      if (saxpy) {
#pragma omp simd
        for (std::int64_t i = lo; i < hi; ++i) out[i] = T(alpha * W(a[i]) + W(b[i]));
      } else {
#pragma omp simd
        for (std::int64_t i = lo; i < hi; ++i) out[i] = a[i] + b[i];
      }
    });
  });
}

}  // namespace

double alpha_for(DType t, std::uint64_t seed) {
  const double a = uniform_pm1(mix(~seed), 0);
  return t == DType::f64 ? a : double(float(a));
}

void fill_inputs(const Problem& p, void* a, void* b, std::uint64_t seed) {
  const std::uint64_t base = mix(seed);
  if (p.op == Op::grayscale) {
    auto* rgb = static_cast<unsigned char*>(a);
    parallel_chunks(3 * p.n, [&](unsigned, std::int64_t lo, std::int64_t hi) {
      // Bytes 0..254: the luminance is then at most 254, never the poison 0xff.
      for (std::int64_t i = lo; i < hi; ++i) rgb[i] = static_cast<unsigned char>(mix(base + std::uint64_t(i)) % 255);
    });
    return;
  }
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* x = static_cast<T*>(a);
    T* y = static_cast<T*>(b);
    parallel_chunks(p.n, [&](unsigned, std::int64_t lo, std::int64_t hi) {
      for (std::int64_t i = lo; i < hi; ++i) {
        x[i] = T(uniform_pm1(base, 2 * i));
        y[i] = T(uniform_pm1(base, 2 * i + 1));
      }
    });
  });
}

void reference_map(const Problem& p) { compute<std::true_type>(p); }
void cpu_map(const Problem& p) { compute<std::false_type>(p); }

Verdict verify_map(const Problem& p, const void* got, const void* want) {
  if (p.op == Op::grayscale)
    return verify_within(static_cast<const unsigned char*>(got), static_cast<const unsigned char*>(want), p.n, 0.0,
                         "pixels");
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // saxpy: |alpha x + y| <= |alpha| + 1; one rounding (FMA) or two (a
    // multiply, then an add) in T, and the reference's one.
    const double tol = p.op == Op::saxpy ? 2 * double(std::numeric_limits<T>::epsilon()) * (std::fabs(p.alpha) + 1) : 0.0;
    return verify_within(static_cast<const T*>(got), static_cast<const T*>(want), p.n, tol, "elements");
  });
}

}  // namespace gpubench::map
