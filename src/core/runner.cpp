#include "src/core/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <thread>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <unistd.h>

#include "src/core/gpu_watch.hpp"
#include "src/core/metrics.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/gpu_timer.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/host_cache.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/queued_batches.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

// The share of host memory a run (or runs at once) may plan to use.
constexpr double kHostShare = 0.8;

double host_memory_bytes() { return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)); }

std::string point_text(const RunRequest& r) {
  std::string s = r.pattern->name;
  for (const Axis& a : r.pattern->axes) s += fmt::format(" {}={}", a.name, value_text(r.point.at(a.name)));
  return s + fmt::format(" seed={}", r.point.at("seed").dump());
}

// The fixture's host bytes, and the host-cache flush's buffer when a host step runs.
double host_bytes(const RunRequest& r, const Footprint& f, const std::vector<std::size_t>& steps) {
  const bool host_steps =
      std::any_of(steps.begin(), steps.end(), [&](std::size_t i) { return r.pattern->steps[i].on_host; });
  return f.host_bytes + (host_steps && !r.measure.hot ? 2.0 * double(host_llc_bytes()) : 0);
}

void check_host_bytes(const RunRequest& r, const Footprint& f, const std::vector<std::size_t>& steps) {
  const double need = host_bytes(r, f, steps);
  if (need > kHostShare * host_memory_bytes())
    throw UsageError(fmt::format("{} needs {} of host memory; the host has {}, of which {} may be used", point_text(r),
                                 gib_text(need), gib_text(host_memory_bytes()),
                                 gib_text(kHostShare * host_memory_bytes())));
}

// The fixture a request would build, and the steps it names.
struct HostPlan {
  std::unique_ptr<Fixture> fixture;
  Env env;
};

HostPlan host_plan(const RunRequest& r) {
  HostPlan h{r.pattern->fixture(r.point), Env{}};
  h.env.steps = select_steps(*r.pattern, r.variants);
  return h;
}

// A checked request: its fixture, the steps that will run (those of the
// plan its device can run), and the device (with the other devices of a run
// that spans several).
struct Checked : HostPlan {
  std::optional<DeviceInfo> device;
  std::vector<DeviceInfo> peers;

  // The run's devices, `device` first; none without it.
  std::vector<DeviceInfo*> span() {
    std::vector<DeviceInfo*> all;
    if (device) all.push_back(&*device);
    for (DeviceInfo& d : peers) all.push_back(&d);
    return all;
  }
  // Env::span: the same when the run spans several devices, else none.
  std::vector<const DeviceInfo*> spanned() {
    std::vector<const DeviceInfo*> all;
    if (!peers.empty())
      for (DeviceInfo* d : span()) all.push_back(d);
    return all;
  }
};

// A run of a pattern that spans devices names enough of them, and every
// one once; runs of other patterns name none. Needs no GPU: check_host
// calls it, so that naming too few devices is a usage error before the
// device is looked for.
void check_span(const RunRequest& r) {
  const Pattern& p = *r.pattern;
  if (p.min_devices <= 1) return;
  if (r.span.empty())  // "all" found none
    throw NoDeviceError(
        no_device_message(fmt::format("{} needs at least {} NVIDIA GPUs at once and their driver", p.name, p.min_devices)));
  if (int(r.span.size()) < p.min_devices)
    throw UsageError(fmt::format("{} needs at least {} GPUs at once; {} {} named (one named twice counts once), and "
                                 "this machine has {}",
                                 p.name, p.min_devices, r.span.size(), r.span.size() == 1 ? "is" : "are",
                                 cuda_device_count()));
  if (r.measure.energy)
    throw UsageError(fmt::format("{}: --energy (a config's measure.energy) reads one GPU's counter, and a {} run spans "
                                 "{} GPUs",
                                 p.name, p.name, r.span.size()));
  if (r.span.front() != r.device) throw UsageError(fmt::format("{}: the run's first device is not its own", p.name));
  for (std::size_t k = 0; k < r.span.size(); ++k)
    if (std::find(r.span.begin() + long(k) + 1, r.span.end(), r.span[k]) != r.span.end())
      throw UsageError(fmt::format("{}: device {} is named twice in one run", p.name, r.span[k]));
}

// `skipped`: the steps of `all` that cannot run here, and why.
Checked check_request(const RunRequest& r, std::vector<std::pair<std::size_t, std::string>>* skipped) {
  const Pattern& p = *r.pattern;
  Checked c{host_plan(r), std::nullopt, {}};
  const std::vector<std::size_t> chosen = std::exchange(c.env.steps, {});
  if (has_device_steps(r)) {
    check_span(r);
    if (cuda_device_count() == 0)
      throw NoDeviceError(no_device_message("every variant but the host ones needs an NVIDIA GPU and its driver"));
    for (std::size_t k = 1; k < r.span.size(); ++k) c.peers.push_back(open_device(r.span[k]));
    c.device = open_device(r.device);  // current from here on
    c.env.device = &*c.device;
    c.env.span = c.spanned();
  }
  for (const std::size_t i : chosen) {
    std::string why;
    if (!p.steps[i].on_host)
      for (const DeviceInfo* d : c.span())
        if (why.empty()) why = lacks_compute_capability(*d, p.steps[i].min_cc);
    if (why.empty())
      why = c.env.span.empty() ? c.fixture->unavailable(i, c.env.device) : c.fixture->unavailable_across(i, c.env.span);
    if (why.empty()) c.env.steps.push_back(i);
    else if (r.variants != "all") throw UsageError(fmt::format("{} variant {}: {}", p.name, p.steps[i].name, why));
    else if (skipped) skipped->emplace_back(i, why);
  }
  const Footprint f = c.fixture->footprint(c.env);
  check_host_bytes(r, f, c.env.steps);
  if (c.device) {
    for (const DeviceInfo* d : c.span()) {
      GPUBENCH_CUDA(cudaSetDevice(d->index));
      const double flush = r.measure.hot ? 0 : 2.0 * double(d->l2_bytes);
      const double need = f.device_bytes + flush + double(64 << 20), free = double(device_free_bytes());
      if (need > free)
        throw UsageError(fmt::format("{} needs {} of device memory, device {} ({}) has {} free", point_text(r),
                                     gib_text(need), d->index, d->name, gib_text(free)));
    }
    GPUBENCH_CUDA(cudaSetDevice(c.device->index));
  }
  return c;
}

BenchResult base_result(const RunRequest& r, const StepInfo& s) {
  BenchResult b;
  b.pattern = r.pattern->name;
  b.variant = s.name;
  b.ladder = s.ladder;
  for (const LadderInfo& l : r.pattern->ladders)
    if (l.name == s.ladder) b.continues = l.continues;
  b.summary = s.summary;
  b.tags = s.tags;
  b.on_device = !s.on_host;
  b.params = r.point;
  b.device = r.device;
  b.measure = measure_settings(r.measure);
  if (r.concurrent_devices > 1) b.measure["concurrent_devices"] = r.concurrent_devices;
  if (!r.span.empty()) b.measure["devices"] = r.span;
  b.hot = r.measure.hot;
  b.primary = r.pattern->primary;
  return b;
}

// Runs one step: a checked first run, the samples, a check of the last one.
// timers: one per device of the run, its own first (none for host steps
// alone); a body on several devices is timed on the host across them all.
void measure_step(BenchResult& b, const StepRun& s, const StepInfo& info, const std::vector<GpuTimer*>& timers,
                  const MeasureOptions& m, SampleWatch* watch) {
  std::function<double()> sample = [&] { return timers.front()->time(s.prepare, s.body); };
  if (info.host_timed) sample = [&] { return GpuTimer::time_on_host(timers, s.prepare, s.body); };
  if (info.on_host) {
    sample = [&] {
      s.prepare();
      if (!m.hot) flush_host_caches();
      const auto t0 = std::chrono::steady_clock::now();
      s.body();
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
  }
  auto verify = [&](const char* when) {
    const std::string why = s.check();
    if (!why.empty() && !b.error) b.error = fmt::format("{}: {}", when, why);
    b.verified = b.verified && why.empty();
  };
  b.verified = true;
  sample();
  verify("first run");
  double sampled_s = 0;
  b.samples_ms = collect_samples(m, sample, &sampled_s, watch);
  verify("last timed run");
  // What was done, beside what was asked: the sample cap can end sampling
  // before min_time_s, or before min_samples where a pattern's cap is below it.
  const int taken = int(b.samples_ms.size());
  b.measure["samples"] = taken;
  b.measure["sampled_s"] = sampled_s;
  b.measure["capped"] = taken >= m.max_samples && (taken < m.min_samples || sampled_s < m.min_time_s);
  b.measure["timer"] = info.on_host || info.host_timed ? "host_clock" : "cuda_events";
}

// Seconds of rest after an energy window. The window can leave the GPU at
// its power limit (the heaviest tensor-core steps draw 700 W on the H200),
// and the next step's samples then start power-capped below the threshold.
constexpr double kAfterEnergy_s = 1;

// Runs per energy batch: about kEnergyBatch ms of them, longer than a read of
// the energy counter, which the next batch runs behind (QueuedBatches).
std::int64_t energy_batch_runs(double median_ms) {
  constexpr double kEnergyBatch = 20;  // ms
  return std::max<std::int64_t>(1, std::int64_t(std::ceil(kEnergyBatch / std::max(median_ms, 1e-6))));
}

// A device row's clocks, and with --energy its energy.
void watch_device_row(BenchResult& b, const StepRun& s, bool host_timed, const DeviceInfo& d, cudaStream_t stream,
                      const ClockWatch* watch, const MeasureOptions& m) {
  if (watch) b.clocks = watch->record();
  add_clock_metric(b, watch);
  if (!m.energy || !b.verified) return;
  const std::int64_t runs = energy_batch_runs(b.stats.median_ms);
  if (host_timed) {
    // Its work may be on streams of its own: wait for the whole device.
    add_energy_metrics(
        b, d,
        [&] {
          for (std::int64_t k = 0; k < runs; ++k) s.body();
          GPUBENCH_CUDA(cudaDeviceSynchronize());
        },
        runs, m.energy_time_s);
  } else {  // timed with events on `stream`, so all its work is queued there
    QueuedBatches batches(stream, s.body, runs);
    add_energy_metrics(b, d, [&] { batches(); }, runs, m.energy_time_s);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(kAfterEnergy_s));
}

// "% lib": each row's primary metric as a percentage of its library row's.
void add_library_percentages(std::vector<BenchResult>& rs, const std::vector<std::string>& library) {
  for (std::size_t i = 0; i < rs.size(); ++i) {
    if (library[i].empty()) continue;
    const auto lib = std::find_if(rs.begin(), rs.end(), [&](const BenchResult& x) { return x.variant == library[i]; });
    std::optional<double> pct;
    if (lib != rs.end() && lib->verified && lib->primary_value() && *lib->primary_value() > 0)
      pct = percent_of(rs[i].primary_value(), *lib->primary_value());
    const auto after_primary = std::find_if(rs[i].metrics.begin(), rs[i].metrics.end(),
                                            [&](const Metric& m) { return m.name == rs[i].primary; });
    rs[i].metrics.insert(after_primary == rs[i].metrics.end() ? after_primary : after_primary + 1,
                         Metric{"pct_of_library", "% lib", "%", pct, 1, library[i]});
  }
}

}  // namespace

std::string describe(const RunRequest& r) {
  const std::string devices = r.span.empty() ? fmt::format("device={}", r.device) : fmt::format("devices={}", fmt::join(r.span, ","));
  return fmt::format("{} {} variants={}", point_text(r), devices, r.variants);
}

std::vector<std::size_t> select_steps(const Pattern& p, const std::string& names) {
  std::vector<std::size_t> chosen;
  if (names == "all") {
    for (std::size_t i = 0; i < p.steps.size(); ++i) chosen.push_back(i);
    return chosen;
  }
  const std::vector<std::string> wanted = split(names, ',');
  if (std::find(wanted.begin(), wanted.end(), "all") != wanted.end())
    throw UsageError(fmt::format("{} variants '{}': 'all' cannot be combined with other steps", p.name, names));
  for (const std::string& w : wanted) {
    if (std::none_of(p.steps.begin(), p.steps.end(), [&](const StepInfo& s) { return w == s.name; })) {
      std::vector<std::string> valid{"all"};
      for (const StepInfo& s : p.steps) valid.push_back(s.name);
      throw UsageError(fmt::format("unknown {} variant '{}'; valid: {}", p.name, w, fmt::join(valid, ", ")));
    }
  }
  for (std::size_t i = 0; i < p.steps.size(); ++i)
    if (std::find(wanted.begin(), wanted.end(), p.steps[i].name) != wanted.end()) chosen.push_back(i);
  return chosen;
}

std::string chosen_steps(const Pattern& p, const std::string& names) {
  if (names == "all") return names;
  std::vector<std::string> chosen;
  for (const std::size_t i : select_steps(p, names)) chosen.push_back(p.steps[i].name);
  return fmt::format("{}", fmt::join(chosen, ","));
}

bool has_device_steps(const RunRequest& r) {
  const std::vector<std::size_t> steps = select_steps(*r.pattern, r.variants);
  return std::any_of(steps.begin(), steps.end(), [&](std::size_t i) { return !r.pattern->steps[i].on_host; });
}

std::vector<int> parse_devices(const std::string& text, const std::string& what) {
  std::vector<int> devices;
  if (text == "all") {
    for (int d = 0; d < cuda_device_count(); ++d) devices.push_back(d);
    return devices;
  }
  for (const std::string& item : split(text, ',')) {
    const std::optional<std::uint64_t> d = whole_number(item);
    if (!d || *d > 1023)
      throw UsageError(fmt::format("{} {}: {} is not a device index; expected 'all' or device indices from 0 to 1023, "
                                   "comma-separated",
                                   what, quoted(nlohmann::json(text)), quoted(nlohmann::json(item))));
    devices.push_back(int(*d));
  }
  return devices;
}

std::vector<RunRequest> on_devices(const std::vector<RunRequest>& runs, const std::vector<int>& devices,
                                   std::size_t max_runs) {
  std::vector<int> once;  // a device named twice runs once
  for (const int d : devices)
    if (std::find(once.begin(), once.end(), d) == once.end()) once.push_back(d);
  const bool spans = !runs.empty() && runs.front().pattern->min_devices > 1;
  std::vector<RunRequest> out;
  if (spans) {  // every run on all of them; none ("all" without a GPU): check_span says so
    for (RunRequest r : runs) {
      r.span = once;
      r.device = once.empty() ? 0 : once.front();
      out.push_back(std::move(r));
    }
    return out;
  }
  if (once.empty()) once.push_back(0);  // host steps still run; device steps say there is no GPU
  if (runs.size() * once.size() > max_runs)
    throw UsageError(fmt::format("{} runs on {} devices are more than {} (--max-runs)", runs.size(), once.size(),
                                 max_runs));
  for (const int d : once)
    for (RunRequest r : runs) {
      r.device = d;
      out.push_back(std::move(r));
    }
  return out;
}

std::vector<RunRequest> cross_product(const RunRequest& base, const std::map<std::string, std::vector<Point>>& values,
                                      std::size_t max_runs) {
  std::vector<std::string> names;
  for (const Axis& a : base.pattern->axes) names.push_back(a.name);
  names.push_back("seed");
  std::vector<std::vector<Point>> lists;
  double runs = 1;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto it = values.find(names[i]);
    std::vector<Point> list;
    if (it != values.end()) list = it->second;
    else if (i < base.pattern->axes.size()) list = values_from_text(base.pattern->axes[i], base.pattern->axes[i].fallback, "");
    else list = {base.point.at("seed")};
    std::vector<Point> unique;  // a value named twice runs once
    std::unordered_set<std::string> seen;
    for (Point& v : list)
      if (seen.insert(v.dump()).second) unique.push_back(std::move(v));
    runs *= double(unique.size());
    lists.push_back(std::move(unique));
  }
  if (runs > double(max_runs))
    throw UsageError(fmt::format("{}: the cross product has {:.0f} runs, more than the limit of {} (--max-runs)",
                                 base.pattern->name, runs, max_runs));
  std::vector<RunRequest> out;
  std::vector<std::size_t> at(names.size(), 0);
  for (bool more = true; more;) {
    RunRequest r = base;
    for (std::size_t i = 0; i < names.size(); ++i) r.point[names[i]] = lists[i][at[i]];
    out.push_back(std::move(r));
    more = false;
    for (std::size_t i = 0; i < names.size() && !more; ++i) {  // the first axis varies fastest
      if (++at[i] < lists[i].size()) more = true;
      else at[i] = 0;
    }
  }
  return out;
}

namespace {

// A step named by the user that cannot take the point for a reason known
// without a GPU (a library missing, a sample type the step does not take)
// is refused before the device is looked for, and by --dry-run; the
// device's own limits are asked once it is open.
void refuse_unavailable(const RunRequest& r, const HostPlan& h) {
  if (r.variants == "all") return;
  for (const std::size_t i : h.env.steps)
    if (const std::string why = h.fixture->unavailable(i, nullptr); !why.empty())
      throw UsageError(fmt::format("{} variant {}: {}", r.pattern->name, r.pattern->steps[i].name, why));
}

}  // namespace

void check_host(const RunRequest& r) {
  if (has_device_steps(r)) check_span(r);
  const HostPlan h = host_plan(r);
  refuse_unavailable(r, h);
  check_host_bytes(r, h.fixture->footprint(h.env), h.env.steps);
}

void check(const RunRequest& r) { check_request(r, nullptr); }

double host_bytes_needed(const RunRequest& r) {
  const HostPlan h = host_plan(r);
  return host_bytes(r, h.fixture->footprint(h.env), h.env.steps);
}

double host_memory_available() { return kHostShare * host_memory_bytes(); }

RunReport run(const RunRequest& r, std::ostream& notes) {
  // Declared first, destroyed last: the fixture's buffers and library handles go before the stream.
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream(nullptr, [](cudaStream_t s) { cudaStreamDestroy(s); });
  std::vector<std::pair<std::size_t, std::string>> skipped;
  Checked c = check_request(r, &skipped);
  c.env.device = c.device ? &*c.device : nullptr;  // the Checked may have moved

  // The other devices' streams and timers: destroyed before the fixture,
  // which uses streams of its own on them.
  std::vector<std::unique_ptr<CUstream_st, void (*)(cudaStream_t)>> peer_streams;
  std::vector<std::unique_ptr<GpuTimer>> timers;  // one per device of the run, its own first
  RunReport report;
  // `all` runs its steps in ladder order: an unavailable step stands after those before it that run.
  for (const auto& [i, why] : skipped) {
    const auto before = std::count_if(c.env.steps.begin(), c.env.steps.end(), [i = i](std::size_t s) { return s < i; });
    report.unavailable.push_back({base_result(r, r.pattern->steps[i]), why, 0, std::size_t(before)});
  }
  report.host = {{"name", host_name()}, {"cpu", host_cpu_model()}, {"threads", host_threads()}, {"llc_bytes", host_llc_bytes()}};
  for (DeviceInfo* d : c.span()) {
    GPUBENCH_CUDA(cudaSetDevice(d->index));
    cudaStream_t s;
    GPUBENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (d == &*c.device) stream.reset(s);
    else peer_streams.emplace_back(s, [](cudaStream_t x) { cudaStreamDestroy(x); });
    d->copy_gbps = copy_gbps_once(d->index, s);
    timers.push_back(std::make_unique<GpuTimer>(s, r.measure.hot ? 0 : 2 * d->l2_bytes));
    d->telemetry = telemetry_state(*d);
    if (const std::string why = unavailable_once(*d); !why.empty())
      notes << "gpubench: note: SM clocks, throttle checks and energy unavailable: " << why << "\n";
    if (r.measure.energy) measure_idle_once(*d);
    report.devices.push_back(*d);
  }
  c.env.span = c.spanned();  // the Checked may have moved
  if (c.device) {
    GPUBENCH_CUDA(cudaSetDevice(c.device->index));
    c.env.stream = stream.get();
  }
  std::vector<GpuTimer*> timer_list;
  for (const auto& t : timers) timer_list.push_back(t.get());
  const Pattern& p = *r.pattern;
  std::vector<std::string> library;
  try {
    c.fixture->setup(c.env);
  } catch (const CudaError& e) {
    throw CudaError(e.code(), fmt::format("setting up {}: {}", point_text(r), e.what()));
  }
  for (const std::size_t i : c.env.steps) {
    const StepInfo& info = p.steps[i];
    BenchResult b = base_result(r, info);
    try {
      const StepRun s = c.fixture->step(i, c.env);
      Telemetry* telemetry = info.on_host ? nullptr : telemetry_of(*c.device);
      std::optional<ClockWatch> watch;
      if (telemetry) watch.emplace(*telemetry, r.measure.throttle_threshold, r.measure.discard_on_throttle);
      measure_step(b, s, info, timer_list, r.measure, watch ? &*watch : nullptr);
      b.stats = summarize(b.samples_ms);
      b.metrics = s.metrics(b.stats.median_ms);
      if (!info.on_host)
        watch_device_row(b, s, info.host_timed, *c.device, c.env.stream, watch ? &*watch : nullptr, r.measure);
      b.details = s.details;
      library.push_back(s.library);
    } catch (const CudaError& e) {
      throw CudaError(e.code(), fmt::format("{} at {}: {}", info.name, point_text(r), e.what()));
    }
    report.results.push_back(std::move(b));
  }
  add_library_percentages(report.results, library);
  for (DeviceInfo& d : report.devices)
    if (const auto t = temperature_now(d)) d.telemetry["temperature_c_end"] = *t;
  return report;
}

}  // namespace gpubench
