#include "src/report/result.hpp"

#include <algorithm>

namespace gpubench {
namespace {

bool timed(const BenchResult& r) { return !r.samples_ms.empty() && r.stats.median_ms > 0; }

const std::string& chain(const BenchResult& r) { return r.continues.empty() ? r.ladder : r.continues; }

}  // namespace

const Metric* BenchResult::metric(const std::string& name) const {
  for (const Metric& m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

nlohmann::json BenchResult::spanned_devices() const {
  return measure.is_object() ? measure.value("devices", nlohmann::json()) : nlohmann::json();
}

std::optional<double> BenchResult::primary_value() const {
  const Metric* m = metric(primary);
  return m ? m->value : std::nullopt;
}

std::optional<double> step_speedup(const std::vector<BenchResult>& rs, std::size_t i) {
  if (rs[i].ladder == "baseline" || !timed(rs[i])) return std::nullopt;
  for (std::size_t j = i; j-- > group_start(rs, i);) {
    if (chain(rs[j]) != chain(rs[i])) continue;
    if (!timed(rs[j])) return std::nullopt;
    return rs[j].stats.median_ms / rs[i].stats.median_ms;
  }
  return std::nullopt;
}

std::optional<double> total_speedup(const std::vector<BenchResult>& rs, std::size_t i) {
  const std::size_t first = group_start(rs, i);
  if (i == first || !timed(rs[first]) || !timed(rs[i])) return std::nullopt;
  return rs[first].stats.median_ms / rs[i].stats.median_ms;
}

void append(RunReport& into, RunReport&& more) {
  for (DeviceInfo& d : more.devices) {
    auto seen = std::find_if(into.devices.begin(), into.devices.end(), [&](const DeviceInfo& x) { return x.index == d.index; });
    if (seen == into.devices.end()) into.devices.push_back(std::move(d));
    else if (d.telemetry.contains("temperature_c_end")) seen->telemetry["temperature_c_end"] = d.telemetry.at("temperature_c_end");
  }
  if (into.host.is_null()) into.host = more.host;
  append_rows(into, more);
}

void append_rows(RunReport& into, RunReport& more) {
  for (UnavailableStep& u : more.unavailable) {
    u.first += into.results.size();
    into.unavailable.push_back(std::move(u));
  }
  for (BenchResult& r : more.results) into.results.push_back(std::move(r));
  more.results.clear();
  more.unavailable.clear();
}

std::string host_name(const RunReport& report) {
  const nlohmann::json& h = report.host;
  return h.is_object() && h.contains("name") && h.at("name").is_string() ? h.at("name").get<std::string>() : "";
}

const DeviceInfo* device_of(const RunReport& report, int index) {
  if (index < 0) return report.devices.empty() ? nullptr : &report.devices.front();
  for (const DeviceInfo& d : report.devices)
    if (d.index == index) return &d;
  return nullptr;
}

std::size_t group_start(const std::vector<BenchResult>& rs, std::size_t i) {
  while (i > 0 && rs[i - 1].pattern == rs[i].pattern && rs[i - 1].params == rs[i].params && rs[i - 1].hot == rs[i].hot &&
         rs[i - 1].device == rs[i].device)
    --i;
  return i;
}

}  // namespace gpubench
