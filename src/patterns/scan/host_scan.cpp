#include "src/patterns/scan/host_scan.hpp"

#include <cmath>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"

namespace gpubench::scan {
namespace {

template <class T>
constexpr double kIntRange = sizeof(T) == 8 ? 1099511627776.0 : 1000.0;

template <class T>
void fill_typed(T* v, std::int64_t n, std::uint64_t seed) {
  const std::uint64_t base = mix(seed);
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      // int64 spans +-2^40, so that its sums need the upper 32 bits at once.
      if constexpr (std::is_integral_v<T>) v[i] = T(std::floor(uniform_pm1(base, i) * kIntRange<T>));
      else v[i] = T(eighths_pm4(base, i));
    }
  });
}

// The unsigned type of an integer's width, whose sums wrap as the GPU's do.
template <class T>
using Wrapping = std::make_unsigned_t<T>;

// The reference's accumulator: wrapping at the integer's width, double for
// floats (exact for fill_input's values); the CPU baseline's: wrapping, or
// the type itself.
template <class T, bool = std::is_integral_v<T>>
struct Accumulators {
  using reference = double;
  using cpu = T;
};
template <class T>
struct Accumulators<T, true> {
  using reference = Wrapping<T>;
  using cpu = Wrapping<T>;
};
template <class T>
using Acc = typename Accumulators<T>::reference;
template <class T>
using CpuAcc = typename Accumulators<T>::cpu;

template <class A, class T>
A add(A a, T x) {
  if constexpr (std::is_integral_v<T>) return a + Wrapping<T>(x);
  else return a + x;
}

// Calls f(chunk, begin, end, prefix) for the chunks parallel_chunks makes,
// prefix being the sum (in A) of everything before the chunk.
template <class A, class T, class F>
void scan_chunks(const T* in, std::int64_t n, F&& f) {
  std::vector<A> sums(host_threads(), A(0));
  const unsigned chunks = parallel_chunks(n, [&](unsigned c, std::int64_t b, std::int64_t e) {
    A s = 0;
    for (std::int64_t i = b; i < e; ++i) s = add(s, in[i]);
    sums[c] = s;
  });
  A running = 0;
  for (unsigned c = 0; c < chunks; ++c) {
    const A s = sums[c];
    sums[c] = running;
    running += s;
  }
  parallel_chunks(n, [&](unsigned c, std::int64_t b, std::int64_t e) { f(c, b, e, sums[c]); });
}

template <class T>
Verdict verify_typed(const T* in, const T* out, std::int64_t n, Kind kind) {
  std::mutex mu;
  std::int64_t bad = -1;
  T got{}, want{};
  scan_chunks<Acc<T>>(in, n, [&](unsigned, std::int64_t b, std::int64_t e, Acc<T> prefix) {
    Acc<T> running = prefix;
    double largest = std::fabs(double(prefix));
    for (std::int64_t i = b; i < e; ++i) {
      const Acc<T> inclusive = add(running, in[i]);
      const Acc<T> expected = kind == Kind::inclusive ? inclusive : running;
      running = inclusive;
      bool ok;
      if constexpr (std::is_integral_v<T>) {
        ok = Wrapping<T>(out[i]) == expected;
      } else {
        largest = std::max(largest, std::fabs(expected));
        const double tol = 16 * largest * std::numeric_limits<T>::epsilon();
        ok = std::fabs(double(out[i]) - expected) <= tol;  // false for NaN
      }
      if (!ok) {
        std::lock_guard<std::mutex> lock(mu);
        if (bad < 0 || i < bad) bad = i, got = out[i], want = T(expected);
        return;
      }
    }
  });
  if (bad < 0) return {true, ""};
  return {false, fmt::format("element {}: got {}, expected {}", bad, got, want)};
}

template <class T>
void cpu_typed(const T* in, T* out, std::int64_t n, Kind kind) {
  scan_chunks<CpuAcc<T>>(in, n, [&](unsigned, std::int64_t b, std::int64_t e, CpuAcc<T> prefix) {
    CpuAcc<T> running = prefix;
    for (std::int64_t i = b; i < e; ++i) {
      const CpuAcc<T> next = add(running, in[i]);
      out[i] = T(kind == Kind::inclusive ? next : running);
      running = next;
    }
  });
}

}  // namespace

void fill_input(void* dst, std::int64_t n, DType dtype, std::uint64_t seed) {
  visit_dtype_with_int64(dtype, [&](auto t) { fill_typed(static_cast<typename decltype(t)::type*>(dst), n, seed); });
}

Verdict verify_scan(const void* in, const void* out, std::int64_t n, DType dtype, Kind kind) {
  return visit_dtype_with_int64(dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    return verify_typed(static_cast<const T*>(in), static_cast<const T*>(out), n, kind);
  });
}

void cpu_scan(const void* in, void* out, std::int64_t n, DType dtype, Kind kind) {
  visit_dtype_with_int64(dtype, [&](auto t) {
    using T = typename decltype(t)::type;
    cpu_typed(static_cast<const T*>(in), static_cast<T*>(out), n, kind);
  });
}

}  // namespace gpubench::scan
