#include "src/config/config.hpp"

#include <fstream>
#include <map>

#include <fmt/format.h>

#include "src/config/json_fields.hpp"
#include "src/detail/errors.hpp"
#include "src/patterns/gemm/gemm_bench.hpp"
#include "src/patterns/reduce/reduce_config.hpp"
#include "src/patterns/scan/scan_bench.hpp"

namespace gpubench::config {
namespace {

using Planner = std::vector<PlannedRun> (*)(const Benchmark&);

const std::map<std::string, Planner>& planners() {
  static const std::map<std::string, Planner> p = {{"gemm", &gemm::plan_from_config},
                                                    {"reduce", &reduce::plan_from_config},
                                                    {"scan", &scan::plan_from_config}};
  return p;
}

// Benchmark-level params override the defaults' key by key; each keeps the
// path where it was written, for error messages.
void merge_params(Benchmark& b, const json& defaults, const json& own) {
  b.params = json::object();
  for (const auto& [key, value] : defaults.items()) {
    b.params[key] = value;
    b.param_paths[key] = "defaults.params." + key;
  }
  for (const auto& [key, value] : own.items()) {
    b.params[key] = value;
    b.param_paths[key] = b.path + ".params." + key;
  }
}

}  // namespace

json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("cannot read '{}'", path));
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw UsageError(fmt::format("{}: not valid JSON (at byte {})", path, e.byte));
  }
}

std::vector<PlannedRun> plan(const json& config) {
  check_keys(config, {"name", "description", "defaults", "benchmarks"}, "");
  json defaults = config.value("defaults", json::object());
  check_keys(defaults, {"variants", "params", "measure"}, "defaults");
  if (defaults.contains("params")) require_object(defaults["params"], "defaults.params");
  const MeasureOptions base = measure(defaults.value("measure", json::object()), "defaults.measure", {});

  if (!config.contains("benchmarks")) fail("benchmarks", "missing");
  const json& list = config.at("benchmarks");
  if (!list.is_array() || list.empty()) fail_got("benchmarks", "a non-empty list", list);

  std::vector<PlannedRun> runs;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = fmt::format("benchmarks[{}]", i);
    const json& b = list[i];
    check_keys(b, {"pattern", "variants", "params", "measure"}, path);
    if (!b.contains("pattern")) fail(path + ".pattern", "missing");
    const auto it = planners().find(b["pattern"].is_string() ? b["pattern"].get<std::string>() : "");
    if (it == planners().end()) {
      std::vector<std::string> valid;
      for (const auto& [name, planner] : planners()) valid.push_back(name);
      fail_got(path + ".pattern", fmt::format("one of {}", fmt::join(valid, ", ")), b["pattern"]);
    }
    Benchmark bench;
    bench.path = path;
    bench.variants = b.contains("variants") ? b["variants"] : defaults.value("variants", json("all"));
    if (b.contains("params")) require_object(b["params"], path + ".params");
    merge_params(bench, defaults.value("params", json::object()), b.value("params", json::object()));
    bench.measure = measure(b.value("measure", json::object()), path + ".measure", base);
    for (auto& r : it->second(bench)) runs.push_back(std::move(r));
  }
  return runs;
}

}  // namespace gpubench::config
