#include "src/patterns/reduce/host_reduce.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"

namespace gpubench::reduce {
namespace {

template <class T>
void fill_typed(T* dst, std::int64_t n, Op op, std::uint64_t seed) {
  const std::uint64_t base = mix(seed);
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      if constexpr (std::is_integral_v<T>)
        dst[i] = static_cast<T>(std::int64_t(mix(base + std::uint64_t(i)) % 2001) - 1000);
      else
        dst[i] = static_cast<T>(op == Op::sum ? eighths_pm4(base, i) : uniform_pm1(base, i));
    }
  });
}

// Wide accumulator per element type: int64 for int32, double for float,
// long double for double.
template <class T> struct Wide;
template <> struct Wide<int> { using type = std::int64_t; };
template <> struct Wide<float> { using type = double; };
template <> struct Wide<double> { using type = long double; };

template <class T>
Reference reference_typed(const T* x, std::int64_t n, Op op) {
  using W = typename Wide<T>::type;
  std::mutex m;
  Reference total;
  bool first = true;
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    W acc = op == Op::sum ? W(0) : (op == Op::min ? std::numeric_limits<W>::max() : std::numeric_limits<W>::lowest());
    for (std::int64_t i = b; i < e; ++i) {
      const W v = x[i];
      if (op == Op::sum) acc += v;
      else if (op == Op::min) acc = std::min(acc, v);
      else acc = std::max(acc, v);
    }
    std::lock_guard<std::mutex> lock(m);
    const long double a = static_cast<long double>(acc);
    if (first || op == Op::sum) total.value = first ? a : total.value + a;
    else total.value = op == Op::min ? std::min(total.value, a) : std::max(total.value, a);
    first = false;
  });
  if (n == 0) total.value = op == Op::sum ? 0.0L : (op == Op::min ? std::numeric_limits<long double>::infinity()
                                                                 : -std::numeric_limits<long double>::infinity());
  return total;
}

template <class T>
Verdict verify_typed(T got, const Reference& ref, std::int64_t n, Op op) {
  if constexpr (std::is_integral_v<T>) {
    T expected;
    if (n == 0 && op != Op::sum)
      expected = op == Op::min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    else  // int32 sums wrap modulo 2^32
      expected = static_cast<T>(static_cast<std::uint32_t>(static_cast<std::int64_t>(ref.value)));
    if (got == expected) return {true, ""};
    return {false, fmt::format("got {}, expected {}", got, expected)};
  } else {
    if (std::isnan(got)) return {false, "got NaN"};
    // n == 0: a sum of nothing is 0; the min and max of nothing are +-infinity.
    if (static_cast<long double>(got) == ref.value) return {true, ""};
    return {false, fmt::format("got {}, expected {}", got, static_cast<double>(ref.value))};
  }
}

}  // namespace

void fill_random(void* dst, std::int64_t n, DType dtype, Op op, std::uint64_t seed) {
  visit_dtype(dtype, [&](auto t) { fill_typed(static_cast<typename decltype(t)::type*>(dst), n, op, seed); });
}

Reference host_reference(const void* data, std::int64_t n, DType dtype, Op op) {
  return visit_dtype(dtype, [&](auto t) {
    return reference_typed(static_cast<const typename decltype(t)::type*>(data), n, op);
  });
}

Verdict verify(const void* result, const Reference& ref, std::int64_t n, DType dtype, Op op) {
  return visit_dtype(dtype, [&](auto t) {
    return verify_typed(*static_cast<const typename decltype(t)::type*>(result), ref, n, op);
  });
}

}  // namespace gpubench::reduce
