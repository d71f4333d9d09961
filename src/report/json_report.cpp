#include "src/report/json_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <type_traits>

#include <fmt/format.h>

#include "git_commit.hpp"  // generated at build time: GPUBENCH_GIT_COMMIT

#include "src/detail/errors.hpp"
#include "src/detail/json_fields.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/stats.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json to_json(const Metric& m) {
  json j = {{"name", m.name}, {"label", m.label}, {"unit", m.unit}, {"value", optional_json(m.value)},
            {"digits", m.digits}};
  if (!m.of.empty()) j["of"] = m.of;
  return j;
}

// Samples at a float's precision, each in its shortest form: CUDA events
// time in float, and the 17 digits of that float as a double made samples
// half of a sweep's file (7 digits are 1 ns in 10 ms for host-timed rows).
json samples_json(const std::vector<double>& samples_ms) {
  json out = json::array();
  for (const double ms : samples_ms) {
    const std::string shortest = fmt::format("{}", float(ms));
    double v = ms;
    std::from_chars(shortest.data(), shortest.data() + shortest.size(), v);  // not locale-bound, as strtod is
    out.push_back(v);
  }
  return out;
}

// What a row that ran and a step that could not run both record: the step,
// its point and where it ran.
json step_fields(const BenchResult& r) {
  return {{"pattern", r.pattern}, {"variant", r.variant}, {"ladder", r.ladder},
          {"summary", r.summary}, {"tags", r.tags},       {"where", r.on_device ? "device" : "host"},
          {"device", r.device},   {"params", r.params},
          {"l2", r.hot ? "hot" : "flushed"}};  // a host step's flush is of the host's caches
}

json to_json(const BenchResult& r) {
  json metrics = json::array();
  for (const Metric& m : r.metrics) metrics.push_back(to_json(m));
  json j = step_fields(r);
  j.update({{"continues", r.continues.empty() ? json(nullptr) : json(r.continues)},
            {"measure", r.measure},
            {"samples_ms", samples_json(r.samples_ms)},
            {"median_ms", r.stats.median_ms},
            {"min_ms", r.stats.min_ms},
            {"max_ms", r.stats.max_ms},
            {"mean_ms", r.stats.mean_ms},
            {"noise", r.stats.noise},
            {"primary", r.primary},
            {"metrics", metrics},
            {"verified", r.verified},
            {"error", optional_json(r.error)},
            {"details", r.details},
            {"clocks", r.clocks}});
  return j;
}

// Tables and messages print a results file's names and values: a control
// character would break the line or drive the terminal, a bidirectional one
// reorder what follows. gpubench writes none of them in what is printed
// (a row's details, never printed, may hold a step's own multi-line text).
void refuse_control_characters(const std::string& text, const std::string& path) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (display_control_at(text, i)) json_fields::fail_got(path, "text without control characters", json(text));
}

// The same for every key and string at any depth of `v` (a row's params).
void refuse_control_characters_in(const json& v, const std::string& path) {
  if (v.is_string()) refuse_control_characters(v.get<std::string>(), path);
  if (v.is_object())
    for (const auto& [key, value] : v.items()) {
      refuse_control_characters(key, path);
      refuse_control_characters_in(value, path + "/" + key);
    }
  if (v.is_array())
    for (std::size_t i = 0; i < v.size(); ++i) refuse_control_characters_in(v[i], fmt::format("{}/{}", path, i));
}

// A member of `obj` read as T, named by its JSON pointer (WHERE/KEY) when it
// is missing or is not a T. An integer member takes a whole number T holds,
// at most 2^63 - 1; a string, no control characters.
template <class T>
T field(const json& obj, const std::string& key, const std::string& where) {
  const std::string path = where + "/" + key;
  if (!obj.is_object() || !obj.contains(key)) json_fields::fail(path, "missing");
  const json& v = obj.at(key);
  if constexpr (std::is_same_v<T, bool>) {
    return json_fields::boolean(v, path);
  } else if constexpr (std::is_integral_v<T>) {
    constexpr auto most = std::min<std::uint64_t>(std::numeric_limits<T>::max(), std::numeric_limits<std::int64_t>::max());
    return T(json_fields::integer(v, path, std::numeric_limits<T>::min(), std::int64_t(most)));
  } else if constexpr (std::is_floating_point_v<T>) {
    return T(json_fields::number(v, path));
  } else if constexpr (std::is_same_v<T, std::string>) {
    std::string text = json_fields::string(v, path);
    refuse_control_characters(text, path);
    return text;
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (!v.is_array()) json_fields::fail_got(path, "a list of numbers", v);
    T out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(json_fields::number(v[i], fmt::format("{}/{}", path, i)));
    return out;
  } else {
    static_assert(std::is_same_v<T, json>);
    return v;
  }
}

template <class T>
std::optional<T> optional_field(const json& obj, const std::string& key, const std::string& where) {
  if (obj.is_object() && obj.contains(key) && obj.at(key).is_null()) return std::nullopt;
  return field<T>(obj, key, where);
}

DeviceInfo device_from_json(const json& j, const std::string& where) {
  DeviceInfo d;
  d.name = field<std::string>(j, "name", where);
  const auto cc = field<std::string>(j, "compute_capability", where);
  const std::vector<std::string> parts = split(cc, '.');
  const std::optional<std::uint64_t> major = whole_number(parts.front()), minor = whole_number(parts.back());
  if (parts.size() != 2 || !major || !minor || *major > 99 || *minor > 99)
    throw UsageError(fmt::format("{}/compute_capability: expected 'major.minor', got {}", where, quoted(json(cc))));
  d.cc_major = int(*major);
  d.cc_minor = int(*minor);
  d.sm_count = field<int>(j, "sm_count", where);
  d.l2_bytes = field<std::size_t>(j, "l2_bytes", where);
  d.memory_bytes = field<std::size_t>(j, "memory_bytes", where);
  d.sm_clock_mhz = field<int>(j, "sm_clock_mhz", where);
  d.memory_clock_mhz = field<int>(j, "memory_clock_mhz", where);
  d.bus_width_bits = field<int>(j, "bus_width_bits", where);
  d.theoretical_gbps = field<double>(j, "theoretical_gbps", where);
  d.copy_gbps = field<double>(j, "copy_gbps", where);
  if (j.contains("fp32_peak_gflops")) d.fp32_peak_gflops = field<double>(j, "fp32_peak_gflops", where);
  if (j.contains("index")) d.index = field<int>(j, "index", where);
  if (j.contains("pci_bus_id")) d.pci_bus_id = field<std::string>(j, "pci_bus_id", where);
  if (j.contains("uuid")) d.uuid = field<std::string>(j, "uuid", where);
  if (j.contains("telemetry")) d.telemetry = j.at("telemetry");
  if (j.contains("rank")) {
    d.rank = field<int>(j, "rank", where);
    d.cuda_index = field<int>(j, "cuda_index", where);
    d.host = field<std::string>(j, "host", where);
  }
  return d;
}

// What names a row, in results and unavailable steps alike: its step
// (pattern, variant, ladder, summary, where) and its point (params).
BenchResult step_and_point(const json& j, const std::string& where) {
  json_fields::require_object(j, where);
  BenchResult r;
  r.pattern = field<std::string>(j, "pattern", where);
  r.variant = field<std::string>(j, "variant", where);
  r.ladder = field<std::string>(j, "ladder", where);
  r.summary = field<std::string>(j, "summary", where);
  const std::string place = field<std::string>(j, "where", where);
  if (place != "device" && place != "host") json_fields::fail_got(where + "/where", "'device' or 'host'", json(place));
  r.on_device = place == "device";
  r.params = field<json>(j, "params", where);
  json_fields::require_object(r.params, where + "/params");
  refuse_control_characters_in(r.params, where + "/params");
  return r;
}

// What results of both versions share.
BenchResult common_fields(const json& j, const std::string& where) {
  BenchResult r = step_and_point(j, where);
  if (j.contains("measure")) {
    r.measure = j.at("measure");
    if (!r.measure.is_null()) json_fields::require_object(r.measure, where + "/measure");
    refuse_control_characters_in(r.measure, where + "/measure");  // fleet prints its devices
  }
  r.samples_ms = field<std::vector<double>>(j, "samples_ms", where);
  r.stats.median_ms = field<double>(j, "median_ms", where);
  r.stats.min_ms = field<double>(j, "min_ms", where);
  r.stats.max_ms = field<double>(j, "max_ms", where);
  r.stats.mean_ms = field<double>(j, "mean_ms", where);
  r.stats.noise = field<double>(j, "noise", where);
  r.verified = field<bool>(j, "verified", where);
  r.error = optional_field<std::string>(j, "error", where);
  if (j.contains("details")) r.details = field<json>(j, "details", where);  // never printed: may hold lines
  r.device = j.contains("device") ? field<int>(j, "device", where) : -1;  // older files: not recorded
  if (j.contains("clocks") && !j.at("clocks").is_null()) {
    r.clocks = field<json>(j, "clocks", where);
    const auto flag = [&](const char* key) { return r.clocks.contains(key) && !r.clocks.at(key).is_boolean(); };
    if (!r.clocks.is_object() || flag("throttled") || flag("power_limited"))
      throw UsageError(fmt::format("{}/clocks: expected an object whose throttled and power_limited are true or false", where));
  }
  if (j.contains("l2")) {
    const std::string l2 = field<std::string>(j, "l2", where);
    if (l2 != "flushed" && l2 != "hot" && l2 != "n/a")  // n/a: host rows of older files
      json_fields::fail_got(where + "/l2", "'flushed', 'hot' or 'n/a'", json(l2));
    r.hot = l2 == "hot";
  }
  // A gate must not compare what no run can have measured.
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  const std::string row = fmt::format("{} ({} {})", where, r.variant, r.params.dump());
  if (r.samples_ms.empty()) throw UsageError(row + ": samples_ms is empty");
  if (!std::all_of(r.samples_ms.begin(), r.samples_ms.end(), positive))
    throw UsageError(row + ": samples_ms holds a value that is not a positive number");
  for (const double v : {r.stats.median_ms, r.stats.min_ms, r.stats.max_ms, r.stats.mean_ms})
    if (!positive(v)) throw UsageError(row + ": median_ms, min_ms, max_ms and mean_ms must be positive numbers");
  // The mean is a sum over the count: a few ulps past the extremes where every sample is the same.
  const auto within = [&](double v, double slack) {
    return r.stats.min_ms * (1 - slack) <= v && v <= r.stats.max_ms * (1 + slack);
  };
  if (!within(r.stats.median_ms, 0) || !within(r.stats.mean_ms, 1e-9))
    throw UsageError(row + ": median_ms and mean_ms must lie between min_ms and max_ms");
  if (!(std::isfinite(r.stats.noise) && r.stats.noise >= 0)) throw UsageError(row + ": noise must be a number, 0 or more");
  // compare reads both the statistics and the samples: they must agree (the
  // samples are written to float precision, the statistics to double).
  const Stats of_samples = summarize(r.samples_ms);
  const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-6 * b; };
  if (!near(of_samples.min_ms, r.stats.min_ms) || !near(of_samples.max_ms, r.stats.max_ms) ||
      !near(of_samples.median_ms, r.stats.median_ms))
    throw UsageError(row + ": min_ms, max_ms and median_ms must be the least, the greatest and the median of samples_ms");
  if (r.verified && r.error) throw UsageError(row + ": verified is true, yet the row has an error");
  return r;
}

BenchResult result_from_json(const json& j, const std::string& where) {
  BenchResult r = common_fields(j, where);
  if (const auto c = optional_field<std::string>(j, "continues", where)) r.continues = *c;
  r.tags = field<json>(j, "tags", where);
  refuse_control_characters_in(r.tags, where + "/tags");
  r.primary = field<std::string>(j, "primary", where);
  const json metrics = field<json>(j, "metrics", where);
  if (!metrics.is_array()) json_fields::fail_got(where + "/metrics", "a list", metrics);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string at = fmt::format("{}/metrics/{}", where, i);
    const json& m = metrics[i];
    r.metrics.push_back({field<std::string>(m, "name", at), field<std::string>(m, "label", at),
                         field<std::string>(m, "unit", at), optional_field<double>(m, "value", at),
                         field<int>(m, "digits", at), m.contains("of") ? field<std::string>(m, "of", at) : ""});
  }
  return r;
}

// Version 1 kept each metric in a field of its own; they become the metrics
// version 2 would have written, GFLOP/s as TFLOP/s.
BenchResult result_from_v1(const json& j, const std::string& where) {
  BenchResult r = common_fields(j, where);
  if (j.contains("precision") && !j.at("precision").is_null())
    r.tags["precision"] = field<std::string>(j, "precision", where);
  auto value = [&](const char* key) { return j.contains(key) ? optional_field<double>(j, key, where) : std::nullopt; };
  if (const auto gflops = value("gflops")) {
    r.primary = "tflops";
    r.metrics.push_back({"tflops", "TFLOP/s", "TFLOP/s", *gflops / 1e3, 2});
    r.metrics.push_back({"pct_of_library", "% lib", "%", value("pct_of_library"), 1});
    r.metrics.push_back({"pct_of_fp32_peak", "% fp32", "%", value("pct_of_fp32_peak"), 1});
  } else {
    r.primary = "gbps";
    r.metrics.push_back({"gbps", "GB/s", "GB/s", field<double>(j, "gbps", where), 1});
    r.metrics.push_back({"pct_of_peak", "% peak", "%", value("pct_of_peak"), 1});
    r.metrics.push_back({"pct_of_copy", "% copy", "%", value("pct_of_copy"), 1});
  }
  if (j.contains("adds_per_element") && !j.at("adds_per_element").is_null())
    r.metrics.push_back({"adds_per_element", "adds/elem", "", value("adds_per_element"), 2});
  return r;
}

json to_json(const UnavailableStep& u) {
  json j = step_fields(u.row);
  j.update({{"why", u.why}, {"first", u.first}});
  if (u.at != UnavailableStep::kAfterItsRun) j["at"] = u.at;
  return j;
}

UnavailableStep unavailable_from_json(const json& j, const std::string& where) {
  UnavailableStep u{step_and_point(j, where), "", 0};
  BenchResult& r = u.row;
  r.tags = field<json>(j, "tags", where);
  json_fields::require_object(r.tags, where + "/tags");
  refuse_control_characters_in(r.tags, where + "/tags");
  r.device = field<int>(j, "device", where);
  const std::string l2 = field<std::string>(j, "l2", where);
  if (l2 != "flushed" && l2 != "hot") json_fields::fail_got(where + "/l2", "'flushed' or 'hot'", json(l2));
  r.hot = l2 == "hot";
  u.why = field<std::string>(j, "why", where);
  u.first = field<std::size_t>(j, "first", where);
  if (j.contains("at")) u.at = field<std::size_t>(j, "at", where);  // files before it was written have none
  return u;
}

}  // namespace

json to_json(const DeviceInfo& d) {
  json j = {{"index", d.index},
          {"name", d.name},
          {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"memory_bytes", d.memory_bytes},
          {"sm_clock_mhz", d.sm_clock_mhz},
          {"memory_clock_mhz", d.memory_clock_mhz},
          {"bus_width_bits", d.bus_width_bits},
          {"theoretical_gbps", d.theoretical_gbps},
          {"copy_gbps", d.copy_gbps},
          {"fp32_peak_gflops", d.fp32_peak_gflops},
          {"pci_bus_id", d.pci_bus_id},
          {"uuid", d.uuid},
          {"telemetry", d.telemetry}};
  if (d.rank >= 0) {
    j["rank"] = d.rank;
    j["cuda_index"] = d.cuda_index;
    j["host"] = d.host;
  }
  return j;
}

json to_json(const RunReport& report) {
  json results = json::array(), devices = json::array(), unavailable = json::array();
  for (const UnavailableStep& u : report.unavailable) unavailable.push_back(to_json(u));
  for (const DeviceInfo& d : report.devices) devices.push_back(to_json(d));
  std::set<std::string> l2;
  for (const auto& r : report.results) {
    results.push_back(to_json(r));
    l2.insert(r.hot ? "hot" : "flushed");
  }
  json doc = {{"schema_version", kSchemaVersion},
              {"kind", "results"},
              {"tool", {{"name", "gpubench"}, {"version", GPUBENCH_VERSION}, {"git_commit", GPUBENCH_GIT_COMMIT}}},
              {"device", report.devices.empty() ? json(nullptr) : to_json(report.devices.front())},
              {"devices", devices},
              {"l2", l2.empty() ? "n/a" : l2.size() == 1 ? *l2.begin() : "mixed"},
              {"results", results},
              {"unavailable", unavailable}};
  if (report.config) doc["config"] = *report.config;
  if (!report.host.is_null()) doc["host"] = report.host;
  if (!report.launch.is_null()) doc["launch"] = report.launch;
  return doc;
}

RunReport report_from_json(const json& doc) {
  json_fields::require_object(doc, "");
  if (doc.contains("kind") && doc.at("kind") != "results") {
    if (doc.at("kind") == "comparison")
      throw UsageError("this is a comparison (gpubench compare --json), not a results file");
    json_fields::fail_got("/kind", "'results'", doc.at("kind"));
  }
  const int version = field<int>(doc, "schema_version", "");
  if (version != 1 && version != kSchemaVersion)
    throw UsageError(fmt::format("/schema_version: {} is not supported (this build reads 1 and {})", version,
                                 kSchemaVersion));
  RunReport report;
  // Documents before "devices" held the one device in "device".
  if (doc.contains("devices")) {
    const json devices = field<json>(doc, "devices", "");
    if (!devices.is_array()) json_fields::fail_got("/devices", "a list", devices);
    for (std::size_t i = 0; i < devices.size(); ++i)
      report.devices.push_back(device_from_json(devices[i], fmt::format("/devices/{}", i)));
  } else if (!doc.contains("device") || !doc.at("device").is_null()) {
    report.devices.push_back(device_from_json(field<json>(doc, "device", ""), "/device"));
  }
  // Documents before per-result "l2" said it once for the whole run.
  const bool hot = field<std::string>(doc, "l2", "") == "hot";
  const json results = field<json>(doc, "results", "");
  if (!results.is_array()) json_fields::fail_got("/results", "a list", results);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string where = fmt::format("/results/{}", i);
    report.results.push_back(version == 1 ? result_from_v1(results[i], where) : result_from_json(results[i], where));
    BenchResult& r = report.results.back();
    if (!r.metric(r.primary))
      throw UsageError(fmt::format("{}/primary: '{}' is not one of the row's metrics", where, r.primary));
    const std::optional<double> v = r.primary_value();
    if (!v) throw UsageError(fmt::format("{} ({}): its primary metric {} has no value", where, r.variant, r.primary));
    if (!(std::isfinite(*v) && *v > 0))
      throw UsageError(fmt::format("{} ({}): its primary metric {} is {}, not a positive number", where, r.variant,
                                   r.primary, *v));
    if (!results[i].contains("l2")) r.hot = hot;
  }
  if (doc.contains("unavailable")) {  // files before it was written have none
    const json unavailable = field<json>(doc, "unavailable", "");
    if (!unavailable.is_array()) json_fields::fail_got("/unavailable", "a list", unavailable);
    for (std::size_t i = 0; i < unavailable.size(); ++i) {
      const std::string where = fmt::format("/unavailable/{}", i);
      report.unavailable.push_back(unavailable_from_json(unavailable[i], where));
      const UnavailableStep& u = report.unavailable.back();
      if (u.first > report.results.size() || (i > 0 && u.first < report.unavailable[i - 1].first))
        json_fields::fail_got(where + "/first", fmt::format("an index from {} to {}", i > 0 ? report.unavailable[i - 1].first : 0,
                                                            report.results.size()), json(u.first));
      if (u.at != UnavailableStep::kAfterItsRun && u.at > report.results.size() - u.first)
        json_fields::fail_got(where + "/at", fmt::format("a count from 0 to {}", report.results.size() - u.first), json(u.at));
    }
  }
  if (doc.contains("config")) report.config = doc.at("config");
  if (doc.contains("host") && !doc.at("host").is_null()) {
    report.host = doc.at("host");
    json_fields::require_object(report.host, "/host");
    if (report.host.contains("name")) field<std::string>(report.host, "name", "/host");  // printed by fleet
  }
  if (doc.contains("launch")) report.launch = doc.at("launch");
  return report;
}

}  // namespace gpubench
