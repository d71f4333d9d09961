// The generic runner: one point of one pattern, every chosen step checked,
// timed and measured the same way whatever the pattern.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "src/core/pattern.hpp"

namespace gpubench {

// One unit of work that a command or a config asks for.
struct RunRequest {
  const Pattern* pattern = nullptr;
  Point point;                   // every axis's value, and "seed"
  std::string variants = "all";  // "all" or a comma-separated list of steps
  int device = 0;
  MeasureOptions measure;
  int concurrent_devices = 1;  // above 1: run at the same time as the runs of that many devices in all (--concurrent)
  std::vector<int> span;       // a pattern whose runs span devices: every device of the run, `device` first
};

// "NAME a=1 b=x seed=42 device=0 variants=...": the point in axis order, for progress and errors.
std::string describe(const RunRequest& r);

// The indices of the steps `names` chooses ("all" or a comma-separated
// list), in ladder order. Throws UsageError naming the valid steps.
std::vector<std::size_t> select_steps(const Pattern& p, const std::string& names);

// `names` as the run reads it: "all", or the steps it chooses once each, in
// ladder order (the order they run in). Throws UsageError as select_steps.
std::string chosen_steps(const Pattern& p, const std::string& names);

// Whether any step the request selects runs on the GPU (and so needs one).
bool has_device_steps(const RunRequest& r);

// The most runs one command or one config benchmark plans, unless told otherwise.
constexpr std::size_t kDefaultMaxRuns = 100000;

// One request per element of the cross product of `values` (an axis's name,
// or "seed", to its values; one left out takes its default, the seed
// base.point's), the first axis varying fastest and the seed slowest; the
// other fields from `base`. A value listed twice runs once. Throws
// UsageError, before building any, for more than `max_runs` runs.
std::vector<RunRequest> cross_product(const RunRequest& base, const std::map<std::string, std::vector<Point>>& values,
                                      std::size_t max_runs = kDefaultMaxRuns);

// The devices `text` names: "all" (every CUDA device, none where there is
// none) or a comma-separated list of indices from 0 to 1023. Throws
// UsageError naming `what`.
std::vector<int> parse_devices(const std::string& text, const std::string& what);

// Every run on each device (a device named twice once), one device's runs
// after the other's; for a pattern whose runs span devices, every run on
// all of them at once. No devices (a machine without a GPU): device 0, so
// that host steps still run and device steps say there is no GPU, or for a
// pattern whose runs span devices an empty span, refused with NoDeviceError
// before anything runs. Throws UsageError for more than `max_runs` runs.
std::vector<RunRequest> on_devices(const std::vector<RunRequest>& runs, const std::vector<int>& devices,
                                   std::size_t max_runs = kDefaultMaxRuns);

// What can be checked without a GPU: values of the point's axes the pattern
// does not take together, a step named at a point it cannot take, the
// devices a run spans, host memory. Throws UsageError (NoDeviceError for a
// run that spans every GPU of a machine that has none).
void check_host(const RunRequest& r);

// The host memory a run plans to use, and what runs may use in all (runs
// at the same time, too).
double host_bytes_needed(const RunRequest& r);
double host_memory_available();

// check_host(), then the device: whether device steps have one, which steps
// it can run, and device memory. Allocates nothing. Throws UsageError, or
// NoDeviceError when a device step is chosen and there is no GPU.
void check(const RunRequest& r);

// check(), then the run; notes (what NVML cannot say) go to `notes`, and
// steps of `all` that cannot run here to RunReport::unavailable. A wrong result
// comes back with verified == false; CUDA errors throw CudaError naming the step.
RunReport run(const RunRequest& r, std::ostream& notes);

}  // namespace gpubench
