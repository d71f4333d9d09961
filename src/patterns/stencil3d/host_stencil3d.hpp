// The 3D stencil's inputs, reference and check on the host, and the cpu
// baseline (the contract: kernels/stencil3d/stencil3d_step.hpp).
#pragma once

#include <cstdint>

#include "kernels/common/dtype.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::stencil3d {

// Seeded points, uniform in [-1, 1), and seven seeded coefficients, uniform
// in [-1, 1) and rounded to the element type (the steps use them in it).
void fill_grid(void* grid, std::int64_t points, DType t, std::uint64_t seed);
void fill_coefficients(double (&c)[7], DType t, std::uint64_t seed);

// The stencil accumulated in higher precision (double for float32, long
// double for float64), rounded to the element type, on all host threads.
void reference_stencil(const void* in, void* out, std::int64_t n, const double (&c)[7], DType t);

// The cpu baseline: the same sweep accumulating in the element type, which
// the compiler vectorizes along each row.
void cpu_stencil(const void* in, void* out, std::int64_t n, const double (&c)[7], DType t);

// The largest error a correct step may make at any point: see host_stencil3d.cpp.
double tolerance(const double (&c)[7], DType t);

// Every point of got within tolerance of want; NaN fails.
Verdict verify_stencil(const void* got, const void* want, std::int64_t points, DType t, double tol);

}  // namespace gpubench::stencil3d
