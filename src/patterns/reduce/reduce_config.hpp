// The "reduce" entries of a benchmark config.
#pragma once

#include <vector>

#include "src/config/json_fields.hpp"
#include "src/patterns/planned_run.hpp"
#include "src/patterns/reduce/reduce_bench.hpp"

namespace gpubench::reduce {

// One run per element of n x dtype x op x block (each a value or a list; n
// also takes sweeps). Params: n (default 2^28), dtype, op, block, seed, device.
std::vector<PlannedRun> plan_from_config(const config::Benchmark& b);

// The runs `gpubench reduce` makes: one per size, the other options fixed.
std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& sizes);

std::string describe(const Options& o);

}  // namespace gpubench::reduce
