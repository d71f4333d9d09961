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
// stays far from overflow). Floats for a sum are multiples of 1/8 in [-4, 4]
// (eighths_pm4 in src/detail/random.hpp), whose sum is exact in any order of
// additions; floats for min and max uniform in [-1, 1), so that the extreme
// is one of a few elements, not one of the many that eighths would tie.
void fill_random(void* dst, std::int64_t n, DType dtype, Op op, std::uint64_t seed);

struct Reference {
  long double value = 0;  // op over the input, accumulated in higher precision
};

// int32 in int64, float32 in double, float64 in long double.
Reference host_reference(const void* data, std::int64_t n, DType dtype, Op op);

// Exact, all of them: int32 sums modulo 2^32 (int32 arithmetic wraps); min
// and max; and float sums, since fill_random's floats for a sum add up
// exactly in any order (a rounding tolerance such as 4 eps sqrt(n) sum|x|
// would pass a result of 0 for a zero-mean input past n of about 10^6). A
// missing or doubled element fails unless it is 0. NaN never passes.
Verdict verify(const void* result, const Reference& ref, std::int64_t n, DType dtype, Op op);

}  // namespace gpubench::reduce
