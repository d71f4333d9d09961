#include "src/patterns/reduce/reduce_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>

#include <unistd.h>

#include <fmt/format.h>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/gpu_timer.hpp"
#include "src/detail/stats.hpp"
#include "src/patterns/reduce/host_reduce.hpp"
#include "src/patterns/reduce/ladder.hpp"

namespace gpubench::reduce {

std::string to_string(DType t) {
  switch (t) {
    case DType::i32: return "int32";
    case DType::f32: return "float32";
    case DType::f64: return "float64";
  }
  return "?";
}

std::string to_string(Op o) {
  switch (o) {
    case Op::sum: return "sum";
    case Op::min: return "min";
    case Op::max: return "max";
  }
  return "?";
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = {"int32", "float32", "float64"};
  return names;
}

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> names = {"sum", "min", "max"};
  return names;
}

DType dtype_named(const std::string& name) {
  for (DType t : {DType::i32, DType::f32, DType::f64})
    if (to_string(t) == name) return t;
  throw UsageError(fmt::format("unknown dtype '{}'; valid: {}", name, fmt::join(dtype_names(), ", ")));
}

Op op_named(const std::string& name) {
  for (Op o : {Op::sum, Op::min, Op::max})
    if (to_string(o) == name) return o;
  throw UsageError(fmt::format("unknown op '{}'; valid: {}", name, fmt::join(op_names(), ", ")));
}

namespace {

bool valid_block(int b) { return b >= 32 && b <= 1024 && (b & (b - 1)) == 0; }

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

// Everything a device step needs, allocated once per run.
struct DeviceSide {
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  DeviceBuffer input;       // the pristine input
  DeviceBuffer work;        // a copy for steps that fold in place
  DeviceBuffer out;         // one element
  std::unique_ptr<GpuTimer> timer;

  ~DeviceSide() {
    if (stream) cudaStreamDestroy(stream);
  }
};

Workspace workspace_for(const DeviceSide& dev) {
  Workspace ws;
  ws.stream = dev.stream;
  ws.sm_count = dev.info.sm_count;
  ws.max_threads_per_sm = dev.info.max_threads_per_sm;
  return ws;
}

bool any_device_step(const std::vector<Step>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.where == Where::device; });
}

bool any_in_place_step(const std::vector<Step>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.modifies_input; });
}

// Throws UsageError when the run's device buffers cannot fit in free memory.
void check_device_fit(const Options& o, const std::vector<Step>& steps, const DeviceInfo& info) {
  Workspace ws;
  ws.sm_count = info.sm_count;
  ws.max_threads_per_sm = info.max_threads_per_sm;
  const Problem probe{nullptr, nullptr, o.n, o.dtype, o.op, o.block};
  std::size_t scratch = 0;
  for (const Step& s : steps)
    if (s.where == Where::device) scratch = std::max(scratch, s.scratch_bytes(probe, ws));
  const double in_bytes = double(o.n) * double(dtype_size(o.dtype));
  const double flush = o.measure.hot ? 0 : 2.0 * double(info.l2_bytes);
  const double need = in_bytes * (any_in_place_step(steps) ? 2 : 1) + double(scratch) + flush + double(64 << 20);
  const double free = double(device_free_bytes());
  if (need > free)
    throw UsageError(fmt::format("n={} {} needs {} of device memory, {} has {} free", o.n, to_string(o.dtype),
                                 gib(need), info.name, gib(free)));
}

// Opens the device and allocates the run's buffers.
std::unique_ptr<DeviceSide> open_device_side(const Options& o, const std::vector<Step>& steps) {
  auto dev = std::make_unique<DeviceSide>();
  dev->info = open_device(o.device);
  check_device_fit(o, steps, dev->info);
  GPUBENCH_CUDA(cudaStreamCreateWithFlags(&dev->stream, cudaStreamNonBlocking));
  dev->info.copy_gbps = copy_gbps_once(o.device, dev->stream);
  const std::size_t in_bytes = std::size_t(o.n) * dtype_size(o.dtype);
  dev->input = DeviceBuffer(in_bytes);
  if (any_in_place_step(steps)) dev->work = DeviceBuffer(in_bytes);
  dev->out = DeviceBuffer(dtype_size(o.dtype));
  dev->timer = std::make_unique<GpuTimer>(dev->stream, o.measure.hot ? 0 : 2 * dev->info.l2_bytes);
  return dev;
}

BenchResult base_result(const Options& o, const Step& s) {
  BenchResult r;
  r.pattern = "reduce";
  r.variant = s.name;
  r.ladder = ladder_name(s.ladder);
  r.summary = s.summary;
  r.on_device = s.where == Where::device;
  r.params = {{"n", o.n}, {"dtype", to_string(o.dtype)}, {"op", to_string(o.op)}, {"block", o.block}, {"seed", o.seed}};
  r.measure = measure_settings(o.measure);
  r.bytes = double(o.n) * double(dtype_size(o.dtype));
  r.hot = o.measure.hot;
  return r;
}

// Checks the result left by the last run; the first failure is kept.
void check(BenchResult& r, const void* value, const Reference& ref, const Options& o, const char* when) {
  const Verdict v = verify(value, ref, o.n, o.dtype, o.op);
  if (!v.ok && !r.error) r.error = fmt::format("{}: {}", when, v.detail);
  r.verified = r.verified && v.ok;
}

void run_device_step(BenchResult& r, const Step& s, const Options& o, DeviceSide& dev, const Reference& ref) {
  Workspace ws = workspace_for(dev);
  Problem p{s.modifies_input ? dev.work.get() : dev.input.get(), dev.out.get(), o.n, o.dtype, o.op, o.block};
  DeviceBuffer scratch(s.scratch_bytes(p, ws));
  if (scratch.bytes()) GPUBENCH_CUDA(cudaMemsetAsync(scratch.get(), 0, scratch.bytes(), dev.stream));
  ws.scratch = scratch.get();

  const std::size_t elem = dtype_size(o.dtype);
  auto prepare = [&] {
    if (s.modifies_input && o.n)
      GPUBENCH_CUDA(cudaMemcpyAsync(dev.work.get(), dev.input.get(), o.n * elem, cudaMemcpyDeviceToDevice, dev.stream));
    GPUBENCH_CUDA(cudaMemsetAsync(dev.out.get(), 0xff, elem, dev.stream));  // poison: NaN / -1
  };
  auto body = [&] { s.run(p, ws); };
  unsigned char value[8];
  auto read_back = [&] {
    GPUBENCH_CUDA(cudaMemcpyAsync(value, dev.out.get(), elem, cudaMemcpyDeviceToHost, dev.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(dev.stream));
  };

  r.verified = true;
  dev.timer->time(prepare, body);
  read_back();
  check(r, value, ref, o, "first run");
  r.samples_ms = collect_samples(o.measure, [&] { return dev.timer->time(prepare, body); });
  read_back();
  check(r, value, ref, o, "last timed run");
}

void run_host_step(BenchResult& r, const Step& s, const Options& o, const void* host_input, const Reference& ref) {
  unsigned char value[8];
  std::memset(value, 0xff, sizeof value);
  Problem p{host_input, value, o.n, o.dtype, o.op, o.block};
  auto sample = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    s.run(p, Workspace{});
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  r.verified = true;
  r.samples_ms = collect_samples(o.measure, sample);
  check(r, value, ref, o, "host run");
}

}  // namespace

void check(const Options& o) {
  const std::vector<Step> steps = select_steps(o.variants);
  if (o.n < 1) throw UsageError(fmt::format("n {}: must be at least 1", o.n));
  if (!valid_block(o.block)) throw UsageError(fmt::format("block {}: must be a power of two from 32 to 1024", o.block));
  if (any_device_step(steps)) {
    if (cuda_device_count() == 0)
      throw NoDeviceError("no CUDA device found (variants other than 'cpu' need an NVIDIA GPU and its driver)");
    check_device_fit(o, steps, open_device(o.device));
  }
  const double in_bytes = double(o.n) * double(dtype_size(o.dtype));
  const double host_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (in_bytes > 0.8 * host_bytes)  // the input and its reference are built on the host
    throw UsageError(fmt::format("n={} {} needs {} of host memory for the input, the host has {}", o.n,
                                 to_string(o.dtype), gib(in_bytes), gib(host_bytes)));
}

RunReport run(const Options& o) {
  check(o);
  const std::vector<Step> steps = select_steps(o.variants);
  std::unique_ptr<DeviceSide> dev;
  if (any_device_step(steps)) dev = open_device_side(o, steps);

  const std::size_t in_bytes = std::size_t(o.n) * dtype_size(o.dtype);
  std::unique_ptr<unsigned char[]> host_input(new unsigned char[in_bytes]);
  fill_random(host_input.get(), o.n, o.dtype, o.seed);
  const Reference ref = host_reference(host_input.get(), o.n, o.dtype, o.op);

  RunReport report;
  if (dev) {
    // Our stream does not wait for the legacy default stream, and a cudaMemcpy
    // from pageable memory may return before its DMA has landed: copy on our
    // stream and wait for it.
    GPUBENCH_CUDA(cudaMemcpyAsync(dev->input.get(), host_input.get(), in_bytes, cudaMemcpyHostToDevice, dev->stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(dev->stream));
    report.device = dev->info;
  }
  for (const Step& s : steps) {
    BenchResult r = base_result(o, s);
    if (s.where == Where::device) {
      try {
        run_device_step(r, s, o, *dev, ref);
      } catch (const CudaError& e) {
        throw CudaError(e.code(), fmt::format("{} at n={}: {}", s.name, o.n, e.what()));
      }
    } else {
      run_host_step(r, s, o, host_input.get(), ref);
    }
    r.stats = summarize(r.samples_ms);
    r.gbps = r.bytes / (r.stats.median_ms * 1e-3) / 1e9;
    if (dev && r.on_device) {
      r.pct_of_peak = 100.0 * r.gbps / dev->info.theoretical_gbps;
      r.pct_of_copy = 100.0 * r.gbps / dev->info.copy_gbps;
    }
    report.results.push_back(std::move(r));
  }
  return report;
}

}  // namespace gpubench::reduce
