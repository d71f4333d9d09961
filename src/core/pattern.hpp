// A pattern as data: its axes, its ladders and steps, and a fixture that
// builds one point's inputs and runs its steps. The generic runner
// (runner.hpp) owns everything else: checks, timing, sampling,
// verification, metrics and errors. docs/adding-a-pattern.md shows one.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "src/core/axis.hpp"
#include "src/detail/device.hpp"
#include "src/detail/measure.hpp"
#include "src/report/result.hpp"

namespace gpubench {

// One point of a pattern's axes: every axis's value by name, and "seed".
using Point = nlohmann::json;

struct LadderInfo {
  std::string name;       // "slides"; "baseline" holds the library and CPU rows
  std::string continues;  // step speedups follow this ladder's steps ("modern" continues "slides"), or empty
};

struct StepInfo {
  std::string name, ladder, summary;
  // Timed with the host's clock on host buffers; needs no GPU. Device steps
  // are timed with CUDA events behind a kernel that holds the stream until
  // the whole sample is queued.
  bool on_host = false;
  nlohmann::json tags = nlohmann::json::object();  // labels shown as columns: {"precision": "fp32"}
  // A device step whose host calls block (a pageable cudaMemcpy, a
  // synchronize): it cannot be queued behind the stream-holding kernel, so
  // it is timed with the host's clock from a synchronized device to the end
  // of a device-wide synchronize after its body. Rows say which timer ran
  // (measure.timer).
  bool host_timed = false;
  // The compute capability a device step needs on every GPU of its run, as
  // major * 10 + minor (90: Hopper's TMA); 0: any. The runner checks it
  // before it asks the fixture.
  int min_cc = 0;
};

// What a point needs, checked before anything is allocated. The runner adds
// the L2 flush buffer and a margin to the device bytes.
struct Footprint {
  double host_bytes = 0, device_bytes = 0;
};

// What the runner hands a fixture.
struct Env {
  const DeviceInfo* device = nullptr;  // null when every chosen step runs on the host
  cudaStream_t stream = nullptr;       // null until setup
  std::vector<std::size_t> steps;      // indices in Pattern::steps of the steps that run, in order
  // A run that spans several devices (Pattern::min_devices > 1): each of
  // them, `device` first, which is current; footprint() sees them too.
  // Empty otherwise.
  std::vector<const DeviceInfo*> span;
};

// One step at one point, as its fixture prepares it.
struct StepRun {
  std::function<void()> prepare;       // untimed, before every sample: poison outputs, restore inputs
  std::function<void()> body;          // the timed work
  std::function<std::string()> check;  // reads back what the last body left: empty when right, else why
  // The row's metrics from its median time; the pattern's primary one first.
  std::function<std::vector<Metric>(double median_ms)> metrics;
  std::string library;  // "% lib" is the primary metric as a percentage of this variant's; empty: no column
  // What the step chose when it was set up (a library's algorithm, say),
  // recorded in the row as `details`.
  nlohmann::json details = nlohmann::json::object();
};

class Fixture {
 public:
  virtual ~Fixture() = default;
  // Why the step cannot run on `device`, or empty. Asked first with a null
  // device, before any GPU is looked for: answer then what the point alone
  // rules out. A step named by the user that cannot run is an error; under
  // `all` it is a row of RunReport::unavailable.
  virtual std::string unavailable(std::size_t /*step*/, const DeviceInfo* /*device*/) const { return {}; }
  // The same for a run that spans several devices: all of them, its own first.
  virtual std::string unavailable_across(std::size_t step, const std::vector<const DeviceInfo*>& span) const {
    return unavailable(step, span.front());
  }
  // Memory the run of env.steps needs. Allocates nothing.
  virtual Footprint footprint(const Env& env) const = 0;
  // Builds the inputs, the reference and the buffers every step shares.
  virtual void setup(const Env& env) = 0;
  virtual StepRun step(std::size_t step, const Env& env) = 0;
};

struct Pattern {
  std::string name;   // the subcommand, and "pattern" in results and configs
  std::string title;  // one line for `gpubench list`
  std::string help;   // the subcommand's help line
  std::vector<Axis> axes;
  std::vector<LadderInfo> ladders;
  std::vector<StepInfo> steps;  // in ladder order
  std::string primary;          // the name of the metric tables lead with and compare and plots judge by
  MeasureOptions measure;       // sampling defaults
  // Above 1: every run spans several GPUs of this process at once (to
  // measure communication between them), at least this many: the devices --devices or a config's
  // params.device list (default: all) serve each run together instead of
  // taking the runs in turn. Device steps are then timed with the host's
  // clock across all of them (host_timed), and Footprint::device_bytes is
  // what each device needs.
  int min_devices = 1;
  // The fixture of one point. Throws UsageError for a point the axes alone
  // do not rule out; allocates nothing.
  std::function<std::unique_ptr<Fixture>(const Point&)> fixture;
};

}  // namespace gpubench
