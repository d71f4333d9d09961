// Host side of the scan benchmark: the seeded input, the check of a
// device's output against a prefix sum computed in higher precision, and
// the multi-threaded CPU scan (the `cpu` step).
#pragma once

#include <cstdint>
#include <string>

#include "kernels/scan/scan_step.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::scan {

// n seeded random values: int32 from [-1000, 1000), int64 from
// [-2^40, 2^40); floats k/8 for k uniform in -32..32 (eighths_pm4 in
// src/detail/random.hpp), whose partial sums are exact in any order.
void fill_input(void* dst, std::int64_t n, DType dtype, std::uint64_t seed);

// Checks out against the inclusive or exclusive prefix sums of in, computed
// on every host thread: integers exactly (wrapping, as the GPU's adds do);
// floats in double (exact for these inputs up to 2^50), within 16 units in
// the last place (of the type) of the largest partial sum seen in the
// chunk being checked, which only matters past the exact range above. NaN
// (the poison of an unwritten float) fails.
Verdict verify_scan(const void* in, const void* out, std::int64_t n, DType dtype, Kind kind);

// The CPU baseline: every thread sums its chunk, the chunk sums are scanned,
// every thread scans its chunk from its prefix (2 additions per element).
void cpu_scan(const void* in, void* out, std::int64_t n, DType dtype, Kind kind);

}  // namespace gpubench::scan
