// Host side of the reduction benchmark: seeded inputs, the high-precision
// reference, and the check of a device result against it.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/reduce/reduce_step.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::reduce {

// Fills n elements of dtype at dst with seeded random values, the same for
// every run with the same seed and independent of the thread count:
// int32 uniform in [-1000, 1000] (zero mean, so an int32 sum of 2^31 of them
// stays far from overflow), floats uniform in [-1, 1).
void fill_random(void* dst, std::int64_t n, DType dtype, std::uint64_t seed);

struct Reference {
  long double value = 0;    // op over the input, accumulated in higher precision
  long double abs_sum = 0;  // sum of |x|: scales the rounding error of a float sum
};

// int32 in int64, float32 in double, float64 in long double.
Reference host_reference(const void* data, std::int64_t n, DType dtype, Op op);

// Integers must match exactly (a sum modulo 2^32, as int32 arithmetic wraps);
// min and max must match exactly; NaN never passes. A float sum of n terms in
// any order errs by at most about eps * sqrt(n) * sum|x| when the rounding
// errors behave like a random walk (they do for these inputs), so the
// tolerance is 4 * eps * sqrt(n) * sum|x|: four times that bound, which even
// a sequential one-thread sum stays within. It still sees a missing element
// up to n of about 10^4 in float32; the exact int32 checks of the same
// templated kernels catch indexing errors at every size.
Verdict verify(const void* result, const Reference& ref, std::int64_t n, DType dtype, Op op);

}  // namespace gpubench::reduce
