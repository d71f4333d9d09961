// Typed access to a config's JSON with errors that name the JSON path
// ("benchmarks[2].params.n: expected a size, got \"abc\"").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/measure.hpp"

namespace gpubench::config {

using nlohmann::json;

// One entry of "benchmarks", merged with the defaults, for its pattern to expand.
struct Benchmark {
  std::string path;  // "benchmarks[2]"
  json variants;     // "all", "a,b" or ["a", "b"]
  json params;       // the benchmark's params over the defaults' params
  std::map<std::string, std::string> param_paths;  // where each param was written
  MeasureOptions measure;

  const std::string& param_path(const std::string& key) const { return param_paths.at(key); }
};

// Throws UsageError("PATH: WHAT").
[[noreturn]] void fail(const std::string& path, const std::string& what);

// `what` followed by the offending value as JSON: "expected a size, got \"abc\"".
[[noreturn]] void fail_got(const std::string& path, const std::string& expected, const json& got);

void require_object(const json& j, const std::string& path);

// Fails on a key outside `allowed`, naming the valid ones.
void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& path);

// A value or an array of values, each with its own path ("x" or "x[2]").
struct Item {
  const json* value;
  std::string path;
};
std::vector<Item> as_list(const json& j, const std::string& path);

// Sizes: an integer >= 1, or a string of sizes and sweeps as --n takes them.
std::vector<std::int64_t> sizes(const Item& item);
std::string one_of(const Item& item, const std::vector<std::string>& valid);
std::int64_t integer(const Item& item, std::int64_t min, std::int64_t max);

// The values of one param of b: each item parsed by `parse` (which returns
// a vector), or {fallback} when the param is absent.
template <class T, class Parse>
std::vector<T> param_values(const Benchmark& b, const char* key, T fallback, Parse parse) {
  if (!b.params.contains(key)) return {fallback};
  std::vector<T> out;
  for (const Item& item : as_list(b.params.at(key), b.param_path(key)))
    for (const T& v : parse(item)) out.push_back(v);
  return out;
}

// "variants": "all", "a,b" or ["a", "b"], joined with commas as --variant
// takes them and checked by `validate` (which throws UsageError).
std::string variant_list(const json& v, const std::string& path,
                         const std::function<void(const std::string&)>& validate);

// The params every pattern takes: "seed" (into seed) and "device" (into
// device), each left as it is when absent.
void seed_and_device(const Benchmark& b, std::uint64_t& seed, int& device);

// "measure": {"min_samples", "min_time", "hot", "warmup"} over `base`.
MeasureOptions measure(const json& j, const std::string& path, MeasureOptions base);

}  // namespace gpubench::config
