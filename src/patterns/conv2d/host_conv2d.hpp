// The 2D convolution's inputs, reference and check on the host, and the cpu
// baseline (the contract: kernels/conv2d/conv2d_step.hpp).
#pragma once

#include <cstdint>

#include "kernels/common/dtype.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::conv2d {

// Seeded pixels, uniform in [-1, 1) (negative values too), and a
// seeded side x side mask, uniform in [-1, 1) too: neither sums to anything
// special, so a missed or doubled tap changes the output.
void fill_image(void* image, std::int64_t pixels, DType t, std::uint64_t seed);
void fill_mask(void* mask, int side, DType t, std::uint64_t seed);

// The convolution accumulated in higher precision (double for float32, long
// double for float64), rounded to the element type, on all host threads.
void reference_conv2d(const void* in, void* out, const void* mask, std::int64_t w, std::int64_t h, int side, DType t);

// The cpu baseline: the same loops accumulating in the element type, which
// the compiler vectorizes along each row.
void cpu_conv2d(const void* in, void* out, const void* mask, std::int64_t w, std::int64_t h, int side, DType t);

// The largest error a correct step may make at any pixel, from the mask:
// see host_conv2d.cpp.
double tolerance(const void* mask, int side, DType t);

// Every pixel of got within tolerance of want; NaN fails.
Verdict verify_conv2d(const void* got, const void* want, std::int64_t pixels, DType t, double tol);

}  // namespace gpubench::conv2d
