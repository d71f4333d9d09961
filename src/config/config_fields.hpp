// The parts of a config that more than one of its objects holds, read with
// errors that name the JSON path
// ("benchmarks[2].measure.hot: expected true or false, got \"yes\"").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "src/detail/json_fields.hpp"
#include "src/detail/measure.hpp"

namespace gpubench::config {

// "variants": "all", "a,b" or ["a", "b"], joined with commas as --variant takes them.
std::string variant_list(const nlohmann::json& v, const std::string& path);

// "measure": {"min_samples", "min_time", "hot", "warmup", ...} over `base`.
MeasureOptions measure(const nlohmann::json& j, const std::string& path, MeasureOptions base);

}  // namespace gpubench::config
