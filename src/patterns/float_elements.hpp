// Pieces the host sides of the float-only ladders (conv2d, stencil3d)
// share: seeded inputs and the reference's wider accumulator.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"

namespace gpubench {

// Element i of v is uniform_pm1(mix(seed), i), in T, filled on all host threads.
template <class T>
void fill_uniform(T* v, std::int64_t n, std::uint64_t seed) {
  const std::uint64_t base = mix(seed);
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) v[i] = T(uniform_pm1(base, i));
  });
}

// The reference's accumulator: double for float, long double for double.
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;
static_assert(std::numeric_limits<long double>::digits > 53, "the float64 reference needs a wider long double");

}  // namespace gpubench
