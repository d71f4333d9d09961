// Seeded, counter-based random inputs: element i depends only on (seed, i),
// so inputs are the same whatever the thread count. GPUBENCH_HD: a
// standalone program (scripts/cublas_anchor_check.cu) draws them on the GPU.
#pragma once

#include <cstdint>

#include "kernels/common/host_device.hpp"

namespace gpubench {

// SplitMix64.
GPUBENCH_HD std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1) from 53 random bits.
GPUBENCH_HD double uniform_pm1(std::uint64_t seed_base, std::int64_t i) {
  return double(mix(seed_base + std::uint64_t(i)) >> 11) * 0x1.0p-52 - 1.0;
}

// A multiple of 1/8 in [-4, 4] (k/8, k uniform in -32..32; symmetric, so
// sums do not drift). Every partial sum of such values is exact in float32
// while it stays below 2^21 in magnitude, in float64 below 2^50, whatever
// the order of the additions; a sum of n of them is a random walk with a
// standard deviation of about 2.3 sqrt(n), far below 2^21 for any n that
// fits a GPU (2^31 of them: 1.1e5). A float sum of them can be checked
// exactly.
GPUBENCH_HD double eighths_pm4(std::uint64_t seed_base, std::int64_t i) {
  return double(int(mix(seed_base + std::uint64_t(i)) % 65) - 32) / 8;
}

}  // namespace gpubench
