#include "src/config/config_fields.hpp"

#include <fmt/format.h>

namespace gpubench::config {

using namespace json_fields;
using nlohmann::json;

std::string variant_list(const json& v, const std::string& path) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_array() || v.empty()) fail_got(path, "\"all\", a variant name or a list of them", v);
  std::string joined;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) fail_got(fmt::format("{}[{}]", path, i), "a variant name", v[i]);
    joined += (joined.empty() ? "" : ",") + v[i].get<std::string>();
  }
  return joined;
}

MeasureOptions measure(const json& j, const std::string& path, MeasureOptions m) {
  check_keys(j, {"min_samples", "min_time", "hot", "warmup", "throttle_threshold", "discard_on_throttle", "energy",
                 "energy_time"},
             path);
  if (j.contains("min_samples")) m.min_samples = int(integer(j.at("min_samples"), path + ".min_samples", 1, 100000));
  if (j.contains("warmup")) m.warmup = int(integer(j.at("warmup"), path + ".warmup", 0, 1000));
  auto flag = [&](const char* key, bool& into) {
    if (j.contains(key)) into = boolean(j.at(key), path + "." + key);
  };
  auto seconds_or_fraction = [&](const char* key, const char* what, double least, double most, double& into) {
    if (!j.contains(key)) return;
    const json& t = j.at(key);
    if (!t.is_number() || t.get<double>() < least || t.get<double>() > most)
      fail_got(path + "." + key, fmt::format("{} from {} to {}", what, least, most), t);
    into = t.get<double>();
  };
  flag("hot", m.hot);
  flag("discard_on_throttle", m.discard_on_throttle);
  flag("energy", m.energy);
  seconds_or_fraction("min_time", "seconds", 0, 3600, m.min_time_s);
  seconds_or_fraction("throttle_threshold", "a fraction", 0, 1, m.throttle_threshold);
  seconds_or_fraction("energy_time", "seconds", 0, 600, m.energy_time_s);
  return m;
}

}  // namespace gpubench::config
