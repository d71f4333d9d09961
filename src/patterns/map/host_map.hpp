// The map ladder's inputs, reference and check on the host, and the cpu
// baseline (the contract: kernels/map/map_step.hpp).
#pragma once

#include <cstdint>

#include "kernels/map/map_step.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::map {

// a and b: seeded, uniform in [-1, 1) (grayscale: a holds n random RGB
// pixels, bytes 0 to 254, so no luminance equals the poison 255); alpha: seeded, in [-1, 1), in the element
// type's precision.
void fill_inputs(const Problem& p, void* a, void* b, std::uint64_t seed);
double alpha_for(DType t, std::uint64_t seed);

// out = the operation, in higher precision where it rounds (saxpy), on all
// host threads; cpu_map computes it in the element type.
void reference_map(const Problem& p);
void cpu_map(const Problem& p);

// got against want, n elements of the output type: vecadd and grayscale
// exactly (one correctly rounded add; integer arithmetic), saxpy within
// 2 machine epsilons of |alpha| + 1 (with or without FMA). The copy
// baseline's output is checked against its input instead (the fixture).
Verdict verify_map(const Problem& p, const void* got, const void* want);

}  // namespace gpubench::map
