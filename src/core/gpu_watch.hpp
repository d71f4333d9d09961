// The runner's use of the GPU's telemetry: one NVML handle per device for
// the process, the clock column and throttle record of every device row,
// and with --energy the energy columns.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "src/detail/clock_watch.hpp"
#include "src/detail/device.hpp"
#include "src/report/result.hpp"

namespace gpubench {

// The telemetry of `d`, opened at the first call for it; null where NVML
// cannot be had (unavailable_once and telemetry_state say why).
Telemetry* telemetry_of(const DeviceInfo& d);

// The device block's `telemetry`: the state and the temperature now (as
// `temperature_c_start`), or {"unavailable": why}.
nlohmann::json telemetry_state(const DeviceInfo& d);

// Why `d` has no telemetry, at the first call for it; empty otherwise.
std::string unavailable_once(const DeviceInfo& d);

// The temperature now, for the device block's `temperature_c_end`.
std::optional<double> temperature_now(const DeviceInfo& d);

// The "MHz" column: the mean SM clock while the row was sampled.
void add_clock_metric(BenchResult& b, const ClockWatch* watch);

// The idle power, once per device and process: call with the GPU idle
// before the first step of a run with --energy.
void measure_idle_once(const DeviceInfo& d);

// Energy per run over back-to-back runs of `batch` (runs_per_batch runs and
// a wait for them), its columns added to b: mJ per run, mJ above idle, W,
// the primary metric's work per joule, and the uncertainty; b.measure's
// "energy" says how it was measured (or why it could not be). Uses the idle
// power measure_idle_once found.
void add_energy_metrics(BenchResult& b, const DeviceInfo& d, const std::function<void()>& batch,
                        std::int64_t runs_per_batch, double min_window_s);

}  // namespace gpubench
