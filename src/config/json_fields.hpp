// Typed access to a config's JSON with errors that name the JSON path
// ("benchmarks[2].measure.hot: expected true or false, got \"yes\"").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/measure.hpp"

namespace gpubench::config {

using nlohmann::json;

// Throws UsageError("PATH: WHAT"); an empty path is the document, "(root)".
[[noreturn]] void fail(const std::string& path, const std::string& what);

// `what` followed by the offending value as JSON: "expected a size, got \"abc\"".
[[noreturn]] void fail_got(const std::string& path, const std::string& expected, const json& got);

void require_object(const json& j, const std::string& path);

// Fails on a key outside `allowed`, naming the valid ones.
void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& path);

std::int64_t integer(const json& v, const std::string& path, std::int64_t min, std::int64_t max);

// "variants": "all", "a,b" or ["a", "b"], joined with commas as --variant takes them.
std::string variant_list(const json& v, const std::string& path);

// "measure": {"min_samples", "min_time", "hot", "warmup"} over `base`.
MeasureOptions measure(const json& j, const std::string& path, MeasureOptions base);

}  // namespace gpubench::config
