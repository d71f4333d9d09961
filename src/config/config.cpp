#include "src/config/config.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "src/config/config_fields.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench::config {

using namespace json_fields;
using nlohmann::json;

namespace {

// Parameters every pattern takes besides its axes.
const std::vector<std::string> kCommonParams = {"seed", "device"};

// The params keys a benchmark of `p` may set: its axes, seed and device.
std::vector<std::string> param_names(const Pattern& p) {
  std::vector<std::string> keys;
  for (const Axis& a : p.axes) keys.push_back(a.name);
  keys.insert(keys.end(), kCommonParams.begin(), kCommonParams.end());
  return keys;
}

std::vector<Point> seeds_from_json(const json& v, const std::string& where) {
  if (v.is_array() && v.empty()) fail(where, "an empty list");
  std::vector<Point> seeds;
  for (const json& seed : v.is_array() ? v : json::array({v})) seeds.emplace_back(integer(seed, where, 0, INT64_MAX));
  return seeds;
}

std::vector<int> devices_from_json(const json& v, const std::string& where) {
  if (v.is_string() && v.get<std::string>() == "all") return parse_devices("all", where);
  if (v.is_array() && v.empty()) fail(where, "an empty list");
  std::vector<int> devices;
  for (const json& d : v.is_array() ? v : json::array({v})) devices.push_back(int(integer(d, where, 0, 1023)));
  return devices;
}

// Reads `key` of `p`'s params, written at `where`, as a benchmark would.
void check_param(const Pattern& p, const std::string& key, const json& v, const std::string& where) {
  if (key == "seed") seeds_from_json(v, where);
  else if (key == "device" && v != "all") devices_from_json(v, where);  // "all" would ask the driver
  else
    for (const Axis& a : p.axes)
      if (a.name == key) values_from_json(a, v, where);
}

// One benchmark's requests: its params over the defaults' params, key by
// key, each parsed by its axis and named by the path where it was written.
// The defaults' params apply to each benchmark whose pattern has them; one
// the benchmark overrides is read all the same, so that a mistake in it is
// found before a benchmark that takes it is added.
std::vector<RunRequest> plan_benchmark(const Pattern& p, const json& defaults, const json& b, const std::string& path,
                                       const MeasureOptions& measure, std::size_t max_runs,
                                       const std::optional<std::vector<int>>& devices_given) {
  const std::vector<std::string> keys = param_names(p);
  const json own = b.value("params", json::object());
  check_keys(own, keys, path + ".params");
  const json shared = defaults.value("params", json::object());
  auto param = [&](const std::string& key, std::string& where) -> const json* {
    if (own.contains(key)) return where = path + ".params." + key, &own.at(key);
    if (shared.contains(key)) return where = "defaults.params." + key, &shared.at(key);
    return nullptr;
  };
  for (const std::string& key : keys)
    if (own.contains(key) && shared.contains(key)) check_param(p, key, shared.at(key), "defaults.params." + key);

  RunRequest base;
  base.pattern = &p;
  base.measure = measure;
  std::string where;
  const std::string variants_path = b.contains("variants") ? path + ".variants" : "defaults.variants";
  base.variants = variant_list(b.contains("variants") ? b.at("variants") : defaults.value("variants", json("all")),
                               variants_path);
  try {
    base.variants = chosen_steps(p, base.variants);
  } catch (const UsageError& e) {
    fail(variants_path, e.what());
  }
  base.point["seed"] = 42;
  std::map<std::string, std::vector<Point>> values;
  if (const json* v = param("seed", where)) values["seed"] = seeds_from_json(*v, where);
  // A pattern whose runs span devices takes every one unless told which.
  std::vector<int> devices = p.min_devices > 1 ? parse_devices("all", path) : std::vector<int>{0};
  if (devices_given) devices = *devices_given;
  if (const json* v = param("device", where)) {
    if (devices_given) fail(where, "--devices names the devices: leave out params.device, or --devices");
    devices = devices_from_json(*v, where);
  }
  for (const Axis& a : p.axes)
    if (const json* v = param(a.name, where)) values[a.name] = values_from_json(a, *v, where);
  try {
    std::vector<RunRequest> runs = on_devices(cross_product(base, values, max_runs), devices, max_runs);
    // Named here by its benchmark's path; a span of every GPU where there is
    // none is no fault of the config: the run says so (NoDeviceError).
    for (const RunRequest& r : runs)
      if (r.pattern->min_devices <= 1 || !r.span.empty()) check_host(r);
    return runs;
  } catch (const UsageError& e) {
    fail(path, e.what());
  }
}

// The defaults' variants must be steps of a benchmark's pattern, even
// where every benchmark names its own; else the first pattern's complaint.
void check_fits_a_pattern(const std::string& variants, const std::vector<const Pattern*>& patterns) {
  std::string fault;
  for (const Pattern* p : patterns) {
    try {
      chosen_steps(*p, variants);
      return;
    } catch (const UsageError& e) {
      if (fault.empty()) fault = e.what();
    }
  }
  fail("defaults.variants", fault);
}

}  // namespace

std::vector<RunRequest> plan(const json& config, const Registry& patterns, std::size_t max_runs,
                             const std::optional<std::vector<int>>& devices) {
  check_keys(config, {"name", "description", "defaults", "benchmarks"}, "");
  for (const char* key : {"name", "description"})
    if (config.contains(key) &&
        (!config.at(key).is_string() || utf8_characters(config.at(key).get<std::string>()) > 1000))
      fail_got(key, "a string of at most 1000 characters", config.at(key));
  const json defaults = config.value("defaults", json::object());
  check_keys(defaults, {"variants", "params", "measure"}, "defaults");
  if (defaults.contains("params")) require_object(defaults["params"], "defaults.params");
  const json shared_measure = defaults.value("measure", json::object());
  std::optional<std::string> shared_variants;
  if (defaults.contains("variants")) shared_variants = variant_list(defaults["variants"], "defaults.variants");

  if (!config.contains("benchmarks")) fail("benchmarks", "missing");
  const json& list = config.at("benchmarks");
  if (!list.is_array() || list.empty()) fail_got("benchmarks", "a non-empty list", list);

  std::vector<RunRequest> runs;
  std::vector<std::string> used;  // the params of the benchmarks' patterns
  std::vector<const Pattern*> benchmarked;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = fmt::format("benchmarks[{}]", i);
    const json& b = list[i];
    check_keys(b, {"pattern", "variants", "params", "measure"}, path);
    if (!b.contains("pattern")) fail(path + ".pattern", "missing");
    const Pattern* p = patterns.find(b["pattern"].is_string() ? b["pattern"].get<std::string>() : "");
    if (!p) fail_got(path + ".pattern", fmt::format("one of {}", fmt::join(patterns.names(), ", ")), b["pattern"]);
    if (b.contains("params")) require_object(b["params"], path + ".params");
    const MeasureOptions m =
        measure(b.value("measure", json::object()), path + ".measure",
                measure(shared_measure, "defaults.measure", p->measure));
    for (auto& r : plan_benchmark(*p, defaults, b, path, m, max_runs, devices)) runs.push_back(std::move(r));
    if (runs.size() > max_runs)
      fail(path, fmt::format("the config plans more than {} runs up to this benchmark, the limit (--max-runs)", max_runs));
    const std::vector<std::string> names = param_names(*p);
    used.insert(used.end(), names.begin(), names.end());
    benchmarked.push_back(p);
  }
  if (shared_variants) check_fits_a_pattern(*shared_variants, benchmarked);
  const json shared_params = defaults.value("params", json::object());
  for (const auto& [key, value] : shared_params.items())
    if (std::find(used.begin(), used.end(), key) == used.end())
      fail("defaults.params." + key, "no benchmark's pattern has this parameter");
  return runs;
}

}  // namespace gpubench::config
