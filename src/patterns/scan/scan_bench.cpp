#include "src/patterns/scan/scan_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/gpu_timer.hpp"
#include "src/detail/stats.hpp"
#include "src/patterns/reduce/reduce_bench.hpp"
#include "src/patterns/scan/host_scan.hpp"
#include "src/patterns/scan/ladder.hpp"

namespace gpubench::scan {

std::string to_string(Kind k) { return k == Kind::inclusive ? "inclusive" : "exclusive"; }

const std::vector<std::string>& kind_names() {
  static const std::vector<std::string> names = {"inclusive", "exclusive"};
  return names;
}

Kind kind_named(const std::string& name) {
  for (Kind k : {Kind::inclusive, Kind::exclusive})
    if (to_string(k) == name) return k;
  throw UsageError(fmt::format("unknown kind '{}'; valid: {}", name, fmt::join(kind_names(), ", ")));
}

namespace {

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

bool any_device_step(const std::vector<Step>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.where == Where::device; });
}

Problem problem_for(const Options& o) { return {nullptr, nullptr, o.n, o.dtype, o.kind}; }

// Input, output, the largest step's scratch and the L2 flush.
double device_bytes(const Options& o, const std::vector<Step>& steps, const DeviceInfo& info) {
  std::size_t scratch = 0;
  for (const Step& s : steps)
    if (s.where == Where::device) scratch = std::max(scratch, s.scratch_bytes(problem_for(o)));
  const double data = 2.0 * double(o.n) * double(dtype_size(o.dtype));
  return data + double(scratch) + (o.measure.hot ? 0.0 : 2.0 * double(info.l2_bytes)) + double(64 << 20);
}

BenchResult base_result(const Options& o, const Step& s) {
  BenchResult r;
  r.pattern = "scan";
  r.variant = s.name;
  r.ladder = ladder_name(s.ladder);
  r.summary = s.summary;
  r.on_device = s.where == Where::device;
  r.params = {{"n", o.n}, {"dtype", reduce::to_string(o.dtype)}, {"kind", to_string(o.kind)}, {"seed", o.seed}};
  r.measure = measure_settings(o.measure);
  r.bytes = 2.0 * double(o.n) * double(dtype_size(o.dtype));
  r.hot = o.measure.hot;
  if (s.adds_per_element) r.adds_per_element = s.adds_per_element(o.n);
  return r;
}

}  // namespace

std::string describe(const Options& o) {
  return fmt::format("scan n={} dtype={} kind={} variants={}", o.n, reduce::to_string(o.dtype), to_string(o.kind),
                     o.variants);
}

void check(const Options& o) {
  const std::vector<Step> steps = select_steps(o.variants);
  if (o.n < 1) throw UsageError(fmt::format("n {}: must be at least 1", o.n));
  // Tiles are counted in unsigned grid dimensions and int tickets.
  if (o.n > (std::int64_t(1) << 40)) throw UsageError(fmt::format("n {}: must be at most 2^40", o.n));
  if (any_device_step(steps)) {
    if (cuda_device_count() == 0)
      throw NoDeviceError("no CUDA device found (variants other than 'cpu' need an NVIDIA GPU and its driver)");
    const DeviceInfo info = open_device(o.device);
    const double need = device_bytes(o, steps, info), free = double(device_free_bytes());
    if (need > free)
      throw UsageError(fmt::format("scan n={} {} needs {} of device memory, {} has {} free", o.n,
                                   reduce::to_string(o.dtype), gib(need), info.name, gib(free)));
  }
  const double host_need = 2.0 * double(o.n) * double(dtype_size(o.dtype));  // input and one output
  const double host = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (host_need > 0.8 * host)
    throw UsageError(fmt::format("scan n={} {} needs {} of host memory, the host has {}", o.n,
                                 reduce::to_string(o.dtype), gib(host_need), gib(host)));
}

RunReport run(const Options& o) {
  check(o);
  const std::vector<Step> steps = select_steps(o.variants);
  const std::size_t bytes = std::size_t(o.n) * dtype_size(o.dtype);
  std::unique_ptr<unsigned char[]> input(new unsigned char[bytes]), output(new unsigned char[bytes]);
  fill_input(input.get(), o.n, o.dtype, o.seed);

  RunReport report;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_guard(nullptr, [](cudaStream_t s) { cudaStreamDestroy(s); });
  DeviceBuffer din, dout;
  std::unique_ptr<GpuTimer> timer;
  if (any_device_step(steps)) {
    info = open_device(o.device);
    GPUBENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    stream_guard.reset(stream);
    info.copy_gbps = copy_gbps_once(o.device, stream);
    din = DeviceBuffer(bytes);
    dout = DeviceBuffer(bytes);
    GPUBENCH_CUDA(cudaMemcpyAsync(din.get(), input.get(), bytes, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(stream));
    timer = std::make_unique<GpuTimer>(stream, o.measure.hot ? 0 : 2 * info.l2_bytes);
    report.device = info;
  }

  for (const Step& s : steps) {
    BenchResult r = base_result(o, s);
    auto verify = [&](const char* when) {
      const Verdict v = verify_scan(input.get(), output.get(), o.n, o.dtype, o.kind);
      if (!v.ok && !r.error) r.error = fmt::format("{}: {}", when, v.detail);
      r.verified = r.verified && v.ok;
    };
    r.verified = true;
    if (s.where == Where::device) {
      try {
        const Problem p{din.get(), dout.get(), o.n, o.dtype, o.kind};
        DeviceBuffer scratch(s.scratch_bytes(p));
        const Workspace ws{scratch.get(), stream};
        auto poison = [&] { GPUBENCH_CUDA(cudaMemsetAsync(dout.get(), 0xff, bytes, stream)); };  // NaN / -1
        auto body = [&] { s.run(p, ws); };
        auto read_back = [&] {
          GPUBENCH_CUDA(cudaMemcpyAsync(output.get(), dout.get(), bytes, cudaMemcpyDeviceToHost, stream));
          GPUBENCH_CUDA(cudaStreamSynchronize(stream));
        };
        timer->time(poison, body);
        read_back();
        verify("first run");
        r.samples_ms = collect_samples(o.measure, [&] { return timer->time(poison, body); });
        read_back();
        verify("last timed run");
      } catch (const CudaError& e) {
        throw CudaError(e.code(), fmt::format("{} at n={}: {}", s.name, o.n, e.what()));
      }
    } else {
      const Problem p{input.get(), output.get(), o.n, o.dtype, o.kind};
      r.samples_ms = collect_samples(o.measure, [&] {
        std::memset(output.get(), 0xff, bytes);
        const auto t0 = std::chrono::steady_clock::now();
        s.run(p, Workspace{});
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      });
      verify("host run");
    }
    r.stats = summarize(r.samples_ms);
    r.gbps = r.bytes / (r.stats.median_ms * 1e-3) / 1e9;
    if (r.on_device) {
      r.pct_of_peak = 100.0 * r.gbps / info.theoretical_gbps;
      r.pct_of_copy = 100.0 * r.gbps / info.copy_gbps;
    }
    report.results.push_back(std::move(r));
  }
  return report;
}

std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& sizes) {
  return plan_each_size<Options>(base, sizes, &check, &run, &describe);
}

}  // namespace gpubench::scan
