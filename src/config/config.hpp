// Benchmark configs (docs/configs.md): a JSON file listing benchmarks, each a
// pattern, its variants, parameters that may be lists or sweeps, and
// measurement settings, with defaults at the top level.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/core/registry.hpp"
#include "src/core/runner.hpp"

namespace gpubench::config {

// Validates the whole config against the patterns' axes and steps and
// expands every benchmark into the cross product of its parameter lists, at
// most `max_runs` runs in all. Nothing runs here: any error is a UsageError
// naming the JSON path. `devices` (gpubench run --devices), when given,
// stands for every benchmark's params.device, which must then be absent.
std::vector<RunRequest> plan(const nlohmann::json& config, const Registry& patterns,
                             std::size_t max_runs = kDefaultMaxRuns,
                             const std::optional<std::vector<int>>& devices = std::nullopt);

}  // namespace gpubench::config
