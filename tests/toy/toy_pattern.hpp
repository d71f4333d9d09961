// A pattern that exists only for the tests: host steps, no GPU, so the
// generic core (CLI, configs, runner, reports, compare) is exercised in CI.
#pragma once

#include "src/core/pattern.hpp"

namespace gpubench::toy {

// "toy": the sum of n seeded integers times a `scale` axis value, with a
// `mode` choice (b: no library step; c: its library call fails; d: setup
// fails). Steps: loop (ladder "basic"), unrolled (ladder "fast", continuing
// "basic"), broken (misses the last element: a FAIL row), stale (right on
// its first run only) and library (std::accumulate, the baseline every
// step's % lib refers to).
const Pattern& toy_pattern();

}  // namespace gpubench::toy
