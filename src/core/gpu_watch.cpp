#include "src/core/gpu_watch.hpp"

#include <map>
#include <memory>
#include <mutex>

#include "src/detail/energy_meter.hpp"

namespace gpubench {
namespace {

struct Opened {
  std::unique_ptr<Telemetry> telemetry;
  std::string why;
  std::optional<EnergyReading> idle;  // measured once, before the first step of the first run with --energy
  bool idle_tried = false;
  bool told = false;                  // unavailable_once said why
};

// An entry is used by the one thread that runs its device (--concurrent
// runs a thread per device); the table of them is shared.
Opened& opened(const DeviceInfo& d) {
  static std::map<std::string, Opened> by_bus;
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  auto it = by_bus.find(d.pci_bus_id);
  if (it == by_bus.end()) {
    Opened o;
    o.telemetry = open_nvml(d.pci_bus_id, o.why);
    it = by_bus.emplace(d.pci_bus_id, std::move(o)).first;
  }
  return it->second;
}

constexpr double kIdleWindow = 1;  // seconds

}  // namespace

Telemetry* telemetry_of(const DeviceInfo& d) { return opened(d).telemetry.get(); }

nlohmann::json telemetry_state(const DeviceInfo& d) {
  Opened& o = opened(d);
  Telemetry* t = o.telemetry.get();
  if (!t) return {{"unavailable", o.why}};
  nlohmann::json s = t->state();
  if (const auto c = t->temperature_c()) s["temperature_c_start"] = *c;
  return s;
}

std::string unavailable_once(const DeviceInfo& d) {
  Opened& o = opened(d);
  if (o.telemetry || o.told) return "";
  o.told = true;
  return o.why;
}

std::optional<double> temperature_now(const DeviceInfo& d) {
  Telemetry* t = telemetry_of(d);
  return t ? t->temperature_c() : std::nullopt;
}

void add_clock_metric(BenchResult& b, const ClockWatch* watch) {
  b.metrics.push_back({"sm_clock_mhz", "MHz", "MHz", watch ? watch->mean_mhz() : std::nullopt, 0});
}

void measure_idle_once(const DeviceInfo& d) {
  Opened& o = opened(d);
  if (!o.telemetry || o.idle_tried) return;
  o.idle_tried = true;
  o.idle = EnergyMeter(*o.telemetry).idle(kIdleWindow);
}

void add_energy_metrics(BenchResult& b, const DeviceInfo& d, const std::function<void()>& batch,
                        std::int64_t runs_per_batch, double min_window_s) {
  Opened& o = opened(d);
  std::optional<EnergyReading> run;
  std::string why = o.why;
  if (o.telemetry && !o.idle) {
    why = "the idle power could not be measured (NVML's energy counter did not advance with the GPU idle)";
  } else if (o.telemetry) {
    run = EnergyMeter(*o.telemetry).measure(batch, runs_per_batch, min_window_s);
    if (!run) why = "NVML's energy counter could not be read or did not advance";
  }
  const bool ok = run && o.idle;
  std::optional<double> mj, above_idle_mj, watts, uncertainty_pct;
  if (ok) {
    mj = run->joules * 1e3;
    above_idle_mj = (run->watts - o.idle->watts) * run->window_s / double(run->runs) * 1e3;
    watts = run->watts;
    uncertainty_pct = 100 * run->uncertainty;
  }
  b.metrics.push_back({"energy_mj", "mJ/run", "mJ", mj, 3});
  b.metrics.push_back({"energy_above_idle_mj", "mJ>idle", "mJ", above_idle_mj, 3});
  b.metrics.push_back({"watts", "W", "W", watts, 0});
  // Work per joule: the primary metric's rate times the run's time is its work.
  const Metric* primary = b.metric(b.primary);
  const std::string unit = primary ? primary->unit : "";
  if (unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0) {
    // A tera-rate gives tera per joule, too coarse at two digits (0.00 TFLOP/J
    // for a step of a few TFLOP/s): work per joule drops to giga.
    const bool tera = unit[0] == 'T';
    const std::string per_joule = (tera ? "G" + unit.substr(1, unit.size() - 3) : unit.substr(0, unit.size() - 2)) + "/J";
    std::optional<double> work;
    if (ok && primary->value) work = *primary->value * (tera ? 1e3 : 1) * b.stats.median_ms / 1e3 / run->joules;
    b.metrics.push_back({"work_per_joule", per_joule, per_joule, work, 2});
  }
  b.metrics.push_back({"energy_uncertainty", "+-E", "%", uncertainty_pct, 1});
  if (ok) {
    b.measure["energy"] = {{"window_s", run->window_s},     {"runs", run->runs},
                           {"runs_per_batch", runs_per_batch}, {"idle_watts", o.idle->watts},
                           {"idle_window_s", o.idle->window_s}, {"l2", "hot"}};
  } else {
    b.measure["energy"] = {{"unavailable", why}};
  }
}

}  // namespace gpubench
