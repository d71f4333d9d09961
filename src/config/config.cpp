#include "src/config/config.hpp"

#include <fstream>

#include <fmt/format.h>

#include "src/config/json_fields.hpp"
#include "src/detail/errors.hpp"

namespace gpubench::config {
namespace {

// Parameters every pattern takes besides its axes.
const std::vector<std::string> kCommonParams = {"seed", "device"};

// One benchmark's requests: its params over the defaults' params, key by
// key, each parsed by its axis and named by the path where it was written.
std::vector<RunRequest> plan_benchmark(const Pattern& p, const json& defaults, const json& b, const std::string& path,
                                       const MeasureOptions& measure) {
  std::vector<std::string> keys;
  for (const Axis& a : p.axes) keys.push_back(a.name);
  keys.insert(keys.end(), kCommonParams.begin(), kCommonParams.end());
  const json own = b.value("params", json::object());
  check_keys(own, keys, path + ".params");
  const json shared = defaults.value("params", json::object());
  check_keys(shared, keys, "defaults.params");
  auto param = [&](const std::string& key, std::string& where) -> const json* {
    if (own.contains(key)) return where = path + ".params." + key, &own.at(key);
    if (shared.contains(key)) return where = "defaults.params." + key, &shared.at(key);
    return nullptr;
  };

  RunRequest base;
  base.pattern = &p;
  base.measure = measure;
  std::string where;
  const std::string variants_path = b.contains("variants") ? path + ".variants" : "defaults.variants";
  base.variants = variant_list(b.contains("variants") ? b.at("variants") : defaults.value("variants", json("all")),
                               variants_path);
  try {
    select_steps(p, base.variants);
  } catch (const UsageError& e) {
    fail(variants_path, e.what());
  }
  base.point["seed"] = 42;
  if (const json* v = param("seed", where)) base.point["seed"] = integer(*v, where, 0, INT64_MAX);
  if (const json* v = param("device", where)) base.device = int(integer(*v, where, 0, 1023));
  std::map<std::string, std::vector<Point>> values;
  for (const Axis& a : p.axes)
    if (const json* v = param(a.name, where)) values[a.name] = values_from_json(a, *v, where);
  return cross_product(base, values);
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

std::vector<RunRequest> plan(const json& config, const Registry& patterns) {
  check_keys(config, {"name", "description", "defaults", "benchmarks"}, "");
  const json defaults = config.value("defaults", json::object());
  check_keys(defaults, {"variants", "params", "measure"}, "defaults");
  if (defaults.contains("params")) require_object(defaults["params"], "defaults.params");
  const json shared_measure = defaults.value("measure", json::object());

  if (!config.contains("benchmarks")) fail("benchmarks", "missing");
  const json& list = config.at("benchmarks");
  if (!list.is_array() || list.empty()) fail_got("benchmarks", "a non-empty list", list);

  std::vector<RunRequest> runs;
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
    for (auto& r : plan_benchmark(*p, defaults, b, path, m)) runs.push_back(std::move(r));
  }
  return runs;
}

}  // namespace gpubench::config
