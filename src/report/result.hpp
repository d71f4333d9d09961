// What a benchmark run produces, independent of how it is printed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/device.hpp"
#include "src/detail/measure.hpp"
#include "src/detail/stats.hpp"

namespace gpubench {

// One measured or derived quantity of a result, printed as a table column.
struct Metric {
  Metric(std::string name_, std::string label_, std::string unit_, std::optional<double> value_, int digits_ = 1,
         std::string of_ = "")
      : name(std::move(name_)), label(std::move(label_)), unit(std::move(unit_)), value(value_), digits(digits_),
        of(std::move(of_)) {}

  std::string name;             // stable key for readers: "gbps", "tflops", "pct_of_copy"
  std::string label;            // column header: "GB/s", "% copy"
  std::string unit;             // "GB/s", "TFLOP/s", "%", "" for counts
  std::optional<double> value;  // absent where it does not apply to the row ("-")
  int digits = 1;               // decimals in tables
  std::string of;               // a percentage of another row's primary metric: that row's variant
};

struct BenchResult {
  std::string pattern;    // the pattern's name
  std::string variant;    // the step's name
  std::string ladder;     // the ladder the step belongs to; "baseline" for libraries and the CPU
  std::string continues;  // the ladder whose steps this ladder continues for step speedups, or empty
  std::string summary;    // what the step changes
  nlohmann::json tags = nlohmann::json::object();  // labels of the step, e.g. {"precision": "fp32"}
  bool on_device = true;
  nlohmann::json params;   // the point: every axis's value, and the seed
  int device = 0;          // the CUDA device index of the run (host rows: of the run they were part of); -1: not recorded
  nlohmann::json measure;  // the sampling settings: warmup, min_samples, min_time_s
  std::vector<double> samples_ms;
  Stats stats;
  std::string primary;          // the metric tables lead with and compare and plots judge by
  std::vector<Metric> metrics;  // in column order
  bool verified = false;
  std::optional<std::string> error;  // why verification failed or the run broke
  bool hot = false;                  // the L2 was left warm between samples (--hot)
  nlohmann::json details = nlohmann::json::object();  // what the step chose at setup (StepRun::details)
  nlohmann::json clocks;  // ClockWatch::record() of a device row; null for host rows and without NVML

  // The SM clock was held down while it was sampled (and its samples kept).
  bool throttled() const { return clocks.is_object() && clocks.value("throttled", false); }
  // At the GPU's rated power limit, its clock held down by its own draw.
  bool power_limited() const { return clocks.is_object() && clocks.value("power_limited", false); }

  const Metric* metric(const std::string& name) const;
  // The primary metric's value, absent when it has none.
  std::optional<double> primary_value() const;
  // The devices a run that spanned GPUs used together (measure.devices);
  // null for a run on one device.
  nlohmann::json spanned_devices() const;
};

// A step `--variant all` chose that cannot run here (a compute capability,
// a library that did not load): the row it would have had, without
// samples or metrics, and why.
struct UnavailableStep {
  static constexpr std::size_t kAfterItsRun = std::size_t(-1);
  BenchResult row;
  std::string why;
  std::size_t first = 0;  // where its run's rows start in RunReport::results (none ran: where they would)
  // How many of its run's rows come before it in ladder order; files
  // written before it was recorded: after them all.
  std::size_t at = kAfterItsRun;
};

struct RunReport {
  std::vector<DeviceInfo> devices;  // each device the runs opened, in order; none when only host steps ran without a GPU
  std::vector<BenchResult> results;
  std::vector<UnavailableStep> unavailable;
  std::optional<nlohmann::json> config;  // the config file a `gpubench run` expanded
  nlohmann::json host;                   // the host that ran: "cpu" (model), "threads" (host steps use all)
  nlohmann::json launch;                 // merged from the ranks of a launch: {"launcher", "ranks", "hosts"}; else null
};

// A result's `measure` field: the sampling settings it ran with.
inline nlohmann::json measure_settings(const MeasureOptions& m) {
  return {{"warmup", m.warmup}, {"min_samples", m.min_samples}, {"min_time_s", m.min_time_s}};
}

// The entry of `devices` with CUDA index `index` (-1, not recorded: the
// first), or null.
const DeviceInfo* device_of(const RunReport& report, int index);

// The host's name the report records ("host": {"name"}), or empty.
std::string host_name(const RunReport& report);

// Appends `more`'s results and the devices not seen yet (a device seen
// again takes the later end temperature).
void append(RunReport& into, RunReport&& more);

// Moves `more`'s results and unavailable steps after `into`'s, leaving both
// lists of `more` empty; each step's `first` is shifted by the rows already
// there, so it still names its run.
void append_rows(RunReport& into, RunReport& more);

// Results with equal params on one device form a group (one table). Within its group, the
// speedup of result i over the previous step of its ladder (step; a ladder
// that continues another follows that one's steps) and over the group's
// first result (total); empty where there is none or either run failed.
std::optional<double> step_speedup(const std::vector<BenchResult>& rs, std::size_t i);
std::optional<double> total_speedup(const std::vector<BenchResult>& rs, std::size_t i);

// Index of the first result of result i's group.
std::size_t group_start(const std::vector<BenchResult>& rs, std::size_t i);

}  // namespace gpubench
