// Benchmark configs (docs/configs.md): a JSON file listing benchmarks, each a
// pattern, its variants, parameters that may be lists or sweeps, and
// measurement settings, with defaults at the top level.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/patterns/planned_run.hpp"

namespace gpubench::config {

// Reads and parses a JSON file; UsageError names the file and, for a syntax
// error, the byte where parsing stopped.
nlohmann::json load_json_file(const std::string& path);

// Validates the whole config and expands every benchmark into the cross
// product of its parameter lists. Nothing runs here: any error is a
// UsageError naming the JSON path, before the first run.
std::vector<PlannedRun> plan(const nlohmann::json& config);

}  // namespace gpubench::config
