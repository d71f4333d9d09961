#include "src/config/json_fields.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "src/cli/size_arg.hpp"
#include "src/detail/errors.hpp"

namespace gpubench::config {

void fail(const std::string& path, const std::string& what) {
  throw UsageError(fmt::format("{}: {}", path, what));
}

void fail_got(const std::string& path, const std::string& expected, const json& got) {
  fail(path, fmt::format("expected {}, got {}", expected, got.dump()));
}

void require_object(const json& j, const std::string& path) {
  if (!j.is_object()) fail_got(path, "an object", j);
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& path) {
  require_object(obj, path);
  for (const auto& [key, value] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(path.empty() ? key : path + "." + key, fmt::format("unknown key (valid: {})", fmt::join(allowed, ", ")));
  }
}

std::vector<Item> as_list(const json& j, const std::string& path) {
  if (!j.is_array()) return {Item{&j, path}};
  if (j.empty()) fail(path, "an empty list");
  std::vector<Item> items;
  for (std::size_t i = 0; i < j.size(); ++i) items.push_back(Item{&j[i], fmt::format("{}[{}]", path, i)});
  return items;
}

std::vector<std::int64_t> sizes(const Item& item) {
  const json& v = *item.value;
  if (v.is_number_integer() && v.get<std::int64_t>() >= 1) return {v.get<std::int64_t>()};
  if (v.is_string()) {
    try {
      return parse_size_list(v.get<std::string>());
    } catch (const UsageError&) {
      // fall through to the uniform message below
    }
  }
  fail_got(item.path, "a size (4194304, \"4M\", \"2^22\", \"2^16:2^30\")", v);
}

std::string one_of(const Item& item, const std::vector<std::string>& valid) {
  const json& v = *item.value;
  if (v.is_string() && std::find(valid.begin(), valid.end(), v.get<std::string>()) != valid.end())
    return v.get<std::string>();
  fail_got(item.path, fmt::format("one of {}", fmt::join(valid, ", ")), v);
}

std::int64_t integer(const Item& item, std::int64_t min, std::int64_t max) {
  const json& v = *item.value;
  if (v.is_number_integer() && v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max)
    return v.get<std::int64_t>();
  fail_got(item.path, fmt::format("an integer from {} to {}", min, max), v);
}

std::string variant_list(const json& v, const std::string& path,
                         const std::function<void(const std::string&)>& validate) {
  std::string joined;
  if (v.is_string()) {
    joined = v.get<std::string>();
  } else if (v.is_array() && !v.empty()) {
    for (const auto& item : as_list(v, path)) {
      if (!item.value->is_string()) fail_got(item.path, "a variant name", *item.value);
      joined += (joined.empty() ? "" : ",") + item.value->get<std::string>();
    }
  } else {
    fail_got(path, "\"all\", a variant name or a list of them", v);
  }
  try {
    validate(joined);
  } catch (const UsageError& e) {
    fail(path, e.what());
  }
  return joined;
}

void seed_and_device(const Benchmark& b, std::uint64_t& seed, int& device) {
  if (b.params.contains("seed"))
    seed = std::uint64_t(integer({&b.params.at("seed"), b.param_path("seed")}, 0, INT64_MAX));
  if (b.params.contains("device")) device = int(integer({&b.params.at("device"), b.param_path("device")}, 0, 1023));
}

MeasureOptions measure(const json& j, const std::string& path, MeasureOptions m) {
  check_keys(j, {"min_samples", "min_time", "hot", "warmup"}, path);
  if (j.contains("min_samples")) m.min_samples = int(integer({&j.at("min_samples"), path + ".min_samples"}, 1, 100000));
  if (j.contains("warmup")) m.warmup = int(integer({&j.at("warmup"), path + ".warmup"}, 0, 1000));
  if (j.contains("min_time")) {
    const json& t = j.at("min_time");
    if (!t.is_number() || t.get<double>() < 0 || t.get<double>() > 3600)
      fail_got(path + ".min_time", "seconds from 0 to 3600", t);
    m.min_time_s = t.get<double>();
  }
  if (j.contains("hot")) {
    if (!j.at("hot").is_boolean()) fail_got(path + ".hot", "true or false", j.at("hot"));
    m.hot = j.at("hot").get<bool>();
  }
  return m;
}

}  // namespace gpubench::config
