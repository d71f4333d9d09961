// Seeded, counter-based random inputs: element i depends only on (seed, i),
// so inputs are the same whatever the thread count.
#pragma once

#include <cstdint>

namespace gpubench {

// SplitMix64.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1) from 53 random bits.
inline double uniform_pm1(std::uint64_t seed_base, std::int64_t i) {
  return double(mix(seed_base + std::uint64_t(i)) >> 11) * 0x1.0p-52 - 1.0;
}

}  // namespace gpubench
