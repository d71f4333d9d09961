// The transfer ladder as a pattern: c = a + b from host memory to host
// memory, every copy included (kernels/transfer/steps.def). Every device
// step is timed with the host's clock: pageable copies block the host.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "kernels/transfer/transfer_common.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/patterns/step_info.hpp"
#include "src/patterns/transfer/host_arrays.hpp"
#include "src/patterns/transfer/steps.hpp"
#include "src/patterns/within_tolerance.hpp"

namespace gpubench {
namespace transfer {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/transfer/steps.def"
#undef GPUBENCH_STEP

namespace {

// Median milliseconds of `copy` over a few runs (after one to warm up).
template <class F>
double median_ms(F&& copy, cudaStream_t stream) {
  std::vector<float> ms;
  cudaEvent_t start, stop;
  GPUBENCH_CUDA(cudaEventCreate(&start));
  GPUBENCH_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < 6; ++i) {
    GPUBENCH_CUDA(cudaEventRecord(start, stream));
    copy();
    GPUBENCH_CUDA(cudaEventRecord(stop, stream));
    GPUBENCH_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    GPUBENCH_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (i) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

constexpr std::int64_t kMaxChunks = 1 << 20;
constexpr std::int64_t kProbe = std::int64_t(1) << 26;  // elements per copy of the bound's measurement (256 MiB)

class TransferFixture : public Fixture {
 public:
  explicit TransferFixture(const Point& p)
      : n_(p.at("n")), streams_(int(p.at("streams"))), seed_(p.at("seed")) {
    const std::int64_t chunk = p.at("chunk");
    chunk_ = chunk > 0 ? chunk : std::max<std::int64_t>(1, n_ / (4 * streams_));
    // Each chunk is four calls (a graph: four nodes).
    if ((n_ + chunk_ - 1) / chunk_ > kMaxChunks)
      throw UsageError(fmt::format("transfer: n={} in chunks of {} is {} chunks, more than {}: take a larger --chunk", n_,
                                   chunk_, (n_ + chunk_ - 1) / chunk_, kMaxChunks));
  }

  ~TransferFixture() override {
    for (cudaStream_t s : streams_list_) cudaStreamDestroy(s);
  }

  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    if (ladder()[i].memory == Memory::managed && d && 12.0 * double(n_) > 0.9 * double(device_free_bytes()))
      return "its managed a, b and c would not fit in the device's free memory";
    return {};
  }

  // The inputs and the reference on the host, one step's a, b and c, and
  // the pinned buffers of the bound's measurement; a, b, c and a + b on the
  // device, and the managed a, b and c.
  Footprint footprint(const Env& env) const override {
    const double array = 4.0 * double(n_), probe = 3 * 4.0 * double(std::min(n_, kProbe));
    const bool managed = std::any_of(env.steps.begin(), env.steps.end(),
                                     [](std::size_t i) { return ladder()[i].memory == Memory::managed; });
    return {6 * array + (env.device ? probe : 0.0), env.device ? array * (managed ? 7 : 4) : 0.0};
  }

  void setup(const Env& env) override {
    a_.resize(std::size_t(n_));
    b_.resize(std::size_t(n_));
    want_.resize(std::size_t(n_));
    const std::uint64_t base = mix(seed_);
    parallel_chunks(n_, [&](unsigned, std::int64_t lo, std::int64_t hi) {
      for (std::int64_t i = lo; i < hi; ++i) {
        a_[i] = float(uniform_pm1(base, 2 * i));
        b_[i] = float(uniform_pm1(base, 2 * i + 1));
        want_[i] = a_[i] + b_[i];
      }
    });
    if (!env.device) return;
    device_ = env.device->index;
    const std::size_t bytes = std::size_t(n_) * sizeof(float);
    da_ = DeviceBuffer(bytes);
    db_ = DeviceBuffer(bytes);
    dc_ = DeviceBuffer(bytes);
    dsum_ = DeviceBuffer(bytes);
    GPUBENCH_CUDA(cudaMemcpyAsync(dsum_.get(), want_.data(), bytes, cudaMemcpyHostToDevice, env.stream));
    for (int i = 0; i < streams_; ++i) {
      cudaStream_t s;
      GPUBENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_list_.push_back(s);
    }
    bound_ms_ = overlap_bound_ms(env.stream);
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    auto host = std::make_shared<HostArrays>(s.memory, n_, a_.data(), b_.data());
    Problem p{host->a, host->b, host->c, host->da, host->db, host->dc, n_, streams_, chunk_, device_};
    const bool device_arrays = !s.on_host && s.memory != Memory::mapped && s.memory != Memory::managed;
    if (device_arrays) {
      p.da = static_cast<float*>(da_.get());
      p.db = static_cast<float*>(db_.get());
      // The copy-out baselines send a + b, which no step writes.
      p.dc = static_cast<float*>(s.bytes ? dsum_.get() : dc_.get());
    }
    Workspace ws{env.stream, streams_list_.data(), nullptr};
    const std::shared_ptr<void> plan = s.make_plan && !s.on_host ? s.make_plan(p, ws) : nullptr;
    ws.plan = plan.get();
    const double bytes = s.bytes ? s.bytes(n_) : 12.0 * double(n_);
    const std::optional<double> bound = s.ladder != Ladder::baseline && bound_ms_ > 0 ? std::optional<double>(bound_ms_) : std::nullopt;
    StepRun r;
    r.metrics = [bytes, bound](double ms) {
      std::vector<Metric> m{{"gbps", "GB/s", "GB/s", bytes / (ms * 1e-3) / 1e9, 1}};
      m.push_back({"pct_of_bound", "% bound", "%", bound ? std::optional<double>(100.0 * *bound / ms) : std::nullopt, 1});
      return m;
    };
    r.prepare = [this, host, managed = s.memory == Memory::managed, device_arrays, stream = env.stream] {
      // Managed inputs start in host memory every time: writing them there
      // moves their pages back.
      if (managed) {
        std::copy(a_.begin(), a_.end(), host->a);
        std::copy(b_.begin(), b_.end(), host->b);
      }
      std::memset(host->c, 0xff, std::size_t(n_) * sizeof(float));  // poison: NaN
      if (device_arrays) {  // so a step that skips a copy or the add fails its check
        for (const DeviceBuffer* d : {&da_, &db_, &dc_}) GPUBENCH_CUDA(cudaMemsetAsync(d->get(), 0xff, d->bytes(), stream));
        GPUBENCH_CUDA(cudaStreamSynchronize(stream));
      }
    };
    r.body = [&s, p, ws, host, plan] { s.run(p, ws); };
    // Tolerance 0: c[i] = a[i] + b[i] is one IEEE float add, which the host's
    // reference (want_, the same add in float) rounds the same way, and the
    // copies move bits; any difference is a lost or misplaced element.
    r.check = [this, host, check = s.check] {
      Verdict v{true, {}};
      if (check != Check::inputs) v = verify_within(host->c, want_.data(), n_, 0.0, "elements of c");
      if (v.ok && check != Check::sum) v = inputs_on_device();
      return v.ok ? std::string() : v.detail;
    };
    return r;
  }

 private:
  // max(8 n / H2D, 4 n / D2H) with both measured now on pinned memory: the
  // best time with both copy engines busy and the add hidden.
  double overlap_bound_ms(cudaStream_t stream) {
    const std::int64_t m = std::min(n_, kProbe);
    HostArrays pinned(Memory::pinned, m, a_.data(), b_.data());
    const std::size_t bytes = std::size_t(m) * sizeof(float);
    const double h2d = median_ms([&] {
      GPUBENCH_CUDA(cudaMemcpyAsync(da_.get(), pinned.a, bytes, cudaMemcpyHostToDevice, stream));
    }, stream);
    const double d2h = median_ms([&] {
      GPUBENCH_CUDA(cudaMemcpyAsync(pinned.c, dsum_.get(), bytes, cudaMemcpyDeviceToHost, stream));
    }, stream);
    const double scale = double(n_) / double(m);  // per element, as measured
    return std::max(2 * h2d * scale, d2h * scale);
  }

  Verdict inputs_on_device() const {
    std::vector<float> got(static_cast<std::size_t>(n_));
    for (const auto& [dev, want, name] : {std::tuple{&da_, &a_, "a"}, std::tuple{&db_, &b_, "b"}}) {
      GPUBENCH_CUDA(cudaMemcpy(got.data(), dev->get(), std::size_t(n_) * 4, cudaMemcpyDeviceToHost));
      Verdict v = verify_within(got.data(), want->data(), n_, 0.0, "elements of the device's copy");
      if (!v.ok) return {false, std::string(name) + ": " + v.detail};
    }
    return {true, {}};
  }

  std::int64_t n_;
  int streams_;
  std::int64_t chunk_ = 1;
  std::uint64_t seed_;
  int device_ = 0;
  double bound_ms_ = 0;
  std::vector<float> a_, b_, want_;
  DeviceBuffer da_, db_, dc_, dsum_;  // dsum_: a + b, for the copy-out baselines
  std::vector<cudaStream_t> streams_list_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/transfer/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace transfer

const Pattern& transfer_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "transfer";
    d.title = "c = a + b end to end: host memory in, the add on the GPU, c back in host memory";
    d.help = "Run the transfer ladder (pageable ... pinned, streams, zero-copy, managed, graphs, copy ceilings, cpu)";
    Axis n = size_axis("n", "Float elements of a, b and c: 268435456, 256M, 2^28, a list, or 2^16:2^30", "2^28",
                       std::int64_t(1) << 36);
    n.flags = "-n,--n";
    d.axes = {n, integer_axis("streams", "Streams of the pipelined steps: 4, or a list (1,2,4,8,16)", "4", 1, 64),
              integer_axis("chunk", "Elements per chunk of the pipelined steps; 0: n / (4 x streams)", "0", 0,
                           std::int64_t(1) << 36)};
    d.ladders = {{"course", ""}, {"modern", "course"}, {"baseline", ""}};
    for (const transfer::Step& s : transfer::ladder()) {
      StepInfo info = step_info(s, ladder_name(s.ladder), s.on_host);
      info.host_timed = !s.on_host;
      d.steps.push_back(info);
    }
    d.primary = "gbps";
    d.measure = {2, 10, 0.5, 100000, false};
    d.fixture = [](const Point& pt) { return std::make_unique<transfer::TransferFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
