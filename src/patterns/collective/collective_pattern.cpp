// The collective ladder as a pattern: an all-reduce across every GPU of the
// run (kernels/collective/steps.def). Its runs span devices
// (Pattern::min_devices), and every step is timed with the host's clock
// from all GPUs idle to all GPUs synchronized. Metrics as nccl-tests
// defines them: algbw = bytes / time, busbw = algbw x 2(G-1)/G, against the
// peer-to-peer bandwidth measured in setup.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <cuda_bf16.h>
#include <fmt/format.h>

#include "kernels/collective/collective_common.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/patterns/collective/steps.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace collective {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/collective/steps.def"
#undef GPUBENCH_STEP

namespace {

const std::vector<std::string> kElems = {"float32", "bfloat16", "float64"};

Elem elem_named(const std::string& s) { return s == "bfloat16" ? Elem::bf16 : s == "float64" ? Elem::f64 : Elem::f32; }

// Unit roundoff of each element type.
double roundoff(Elem e) { return e == Elem::f64 ? 0x1p-53 : e == Elem::bf16 ? 0x1p-8 : 0x1p-24; }

// Element i of GPU g's input, in [-1, 1) and exactly representable in `e`.
double input_value(Elem e, std::uint64_t base, int g, std::int64_t i) {
  const double u = uniform_pm1(base + std::uint64_t(g) * 0x9e3779b97f4a7c15ull, i);
  if (e == Elem::f64) return u;
  if (e == Elem::bf16) return double(__bfloat162float(__float2bfloat16(float(u))));
  return double(float(u));
}

// Element i of a buffer of `e` as a double.
double element(const unsigned char* p, Elem e, std::int64_t i) {
  switch (e) {
    case Elem::f64: { double v; std::memcpy(&v, p + 8 * i, 8); return v; }
    case Elem::bf16: { __nv_bfloat16 v; std::memcpy(&v, p + 2 * i, 2); return double(__bfloat162float(v)); }
    case Elem::f32: break;
  }
  float v;
  std::memcpy(&v, p + 4 * i, 4);
  return double(v);
}

void store(unsigned char* p, Elem e, std::int64_t i, double v) {
  if (e == Elem::f64) std::memcpy(p + 8 * i, &v, 8);
  else if (e == Elem::bf16) { const __nv_bfloat16 b = __float2bfloat16(float(v)); std::memcpy(p + 2 * i, &b, 2); }
  else { const float f = float(v); std::memcpy(p + 4 * i, &f, 4); }
}

// `nvidia-smi topo -m` as printed, once per process, or why not.
const std::string& topology() {
  static const std::string text = [] {
    std::string out;
    if (FILE* f = popen("nvidia-smi topo -m 2>/dev/null", "r")) {
      char buf[4096];
      for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, got);
      if (pclose(f) != 0) out.clear();
    }
    return out.empty() ? std::string("unavailable (nvidia-smi topo -m printed nothing)") : out;
  }();
  return text;
}

constexpr std::int64_t kUploadChunk = std::int64_t(1) << 28;  // bytes of input built on the host at a time
constexpr std::size_t kProbeBytes = std::size_t(1) << 28;     // per GPU, for the peer-to-peer ceiling

class CollectiveFixture : public Fixture {
 public:
  explicit CollectiveFixture(const Point& p)
      : bytes_(p.at("bytes")), elem_(elem_named(p.at("dtype"))), op_(p.at("op") == "max" ? Op::max : Op::sum),
        seed_(p.at("seed")) {
    if (bytes_ % std::int64_t(elem_size(elem_)) != 0)
      throw UsageError(fmt::format("collective: --bytes {} is not a whole number of {} elements ({} bytes each)", bytes_,
                                   std::string(p.at("dtype")), elem_size(elem_)));
    count_ = bytes_ / std::int64_t(elem_size(elem_));
  }

  ~CollectiveFixture() override {
    for (std::size_t g = 0; g < streams_.size(); ++g) {
      cudaSetDevice(devices_[g]);
      cudaStreamDestroy(streams_[g]);
    }
    if (!devices_.empty()) cudaSetDevice(devices_.front());
  }

  std::string unavailable_across(std::size_t i, const std::vector<const DeviceInfo*>& span) const override {
    return ladder()[i].unavailable(problem_shape(span));
  }

  // On each GPU: its input, its output, the largest scratch of the chosen
  // steps and the ceiling's probe; on the host: the input being built, one
  // GPU's output read back, and the largest host memory of the chosen steps.
  Footprint footprint(const Env& env) const override {
    const Problem shape = problem_shape(env.span);
    double scratch = 0, held = 0;
    for (const std::size_t i : env.steps) {
      scratch = std::max(scratch, double(ladder()[i].scratch_bytes(shape)));
      held = std::max(held, double(ladder()[i].host_bytes(shape)));
    }
    return {double(std::min(bytes_, kUploadChunk)) + double(bytes_) + held,
            2.0 * double(bytes_) + scratch + 2.0 * double(kProbeBytes)};
  }

  void setup(const Env& env) override {
    for (const DeviceInfo* d : env.span) devices_.push_back(d->index);
    const int G = int(devices_.size());
    const Problem shape = problem_shape(env.span);
    std::size_t scratch = 0;
    for (const std::size_t i : env.steps) scratch = std::max(scratch, ladder()[i].scratch_bytes(shape));
    std::vector<unsigned char> host(std::size_t(std::min(bytes_, kUploadChunk)));
    const std::int64_t per_chunk = std::int64_t(host.size()) / std::int64_t(elem_size(elem_));
    const std::uint64_t base = mix(seed_);
    for (int g = 0; g < G; ++g) {
      OnDevice on(devices_[g]);
      cudaStream_t s;
      GPUBENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_.push_back(s);
      in_.emplace_back(std::size_t(bytes_));
      out_.emplace_back(std::size_t(bytes_));
      scratch_.emplace_back(scratch);
      for (std::int64_t first = 0; first < count_; first += per_chunk) {
        const std::int64_t m = std::min(per_chunk, count_ - first);
        parallel_chunks(m, [&](unsigned, std::int64_t lo, std::int64_t hi) {
          for (std::int64_t i = lo; i < hi; ++i) store(host.data(), elem_, i, input_value(elem_, base, g, first + i));
        });
        GPUBENCH_CUDA(cudaMemcpy(at(in_[g].get(), first, elem_), host.data(), std::size_t(m) * elem_size(elem_),
                                 cudaMemcpyHostToDevice));
      }
    }
    p2p_gbps_ = measure_p2p_gbps();
  }

  StepRun step(std::size_t i, const Env&) override {
    const Step& s = ladder()[i];
    Problem p = problem_shape({});
    p.devices = devices_;
    p.streams = streams_;
    for (std::size_t g = 0; g < devices_.size(); ++g) {
      p.in.push_back(in_[g].get());
      p.out.push_back(out_[g].get());
      p.scratch.push_back(scratch_[g].get());
    }
    const std::shared_ptr<Plan> plan(s.make_plan(p).release());
    const int G = p.gpus();
    StepRun r;
    r.library = "nccl";
    r.details = {{"gpus", G}, {"p2p_gbps", p2p_gbps_}, {"nvls", "off (NCCL_NVLS_ENABLE=0)"}, {"topology", topology()}};
    r.prepare = [this, p] {
      for (int g = 0; g < p.gpus(); ++g) {
        OnDevice on(p.devices[g]);
        GPUBENCH_CUDA(cudaMemsetAsync(p.out[g], 0xff, std::size_t(bytes_), p.streams[g]));  // poison: NaN
        GPUBENCH_CUDA(cudaStreamSynchronize(p.streams[g]));
      }
    };
    r.body = [&s, p, plan] { s.run(p, plan.get()); };
    r.check = [this] { return check_outputs(); };
    const double bytes = double(bytes_), ceiling = p2p_gbps_;
    r.metrics = [bytes, G, ceiling](double ms) {
      const double algbw = bytes / (ms * 1e-3) / 1e9, busbw = algbw * 2.0 * (G - 1) / G;
      return std::vector<Metric>{{"busbw", "busbw", "GB/s", busbw, 1},
                                 {"algbw", "algbw", "GB/s", algbw, 1},
                                 {"pct_of_p2p", "% p2p", "%", ceiling > 0 ? std::optional<double>(100 * busbw / ceiling) : std::nullopt, 1}};
    };
    return r;
  }

 private:
  Problem problem_shape(const std::vector<const DeviceInfo*>& span) const {
    Problem p;
    for (const DeviceInfo* d : span) p.devices.push_back(d->index);
    p.count = count_;
    p.elem = elem_;
    p.op = op_;
    return p;
  }

  // Every GPU's output against the exact result of the rounded inputs.
  // Sums: each of the G-1 additions rounds a partial sum of magnitude at
  // most G (inputs are in [-1, 1)) by at most u G, in whatever order a
  // step adds, so |error| <= G^2 u. Max is exact.
  std::string check_outputs() const {
    const int G = int(devices_.size());
    const double tol = op_ == Op::max ? 0.0 : double(G) * G * roundoff(elem_);
    const std::uint64_t base = mix(seed_);
    std::vector<unsigned char> got(static_cast<std::size_t>(bytes_));
    for (int g = 0; g < G; ++g) {
      OnDevice on(devices_[g]);
      GPUBENCH_CUDA(cudaMemcpy(got.data(), out_[g].get(), got.size(), cudaMemcpyDeviceToHost));
      std::atomic<std::int64_t> first_bad{count_}, bad{0};
      parallel_chunks(count_, [&](unsigned, std::int64_t lo, std::int64_t hi) {
        for (std::int64_t i = lo; i < hi; ++i) {
          long double want = input_value(elem_, base, 0, i);
          for (int h = 1; h < G; ++h) {
            const long double v = input_value(elem_, base, h, i);
            want = op_ == Op::sum ? want + v : std::max(want, v);
          }
          if (!(std::fabs(double(element(got.data(), elem_, i) - want)) <= tol)) {  // NaN fails
            ++bad;
            for (std::int64_t cur = first_bad; i < cur && !first_bad.compare_exchange_weak(cur, i);) {}
          }
        }
      });
      if (bad > 0) {
        const std::int64_t i = first_bad;
        return fmt::format("GPU {} (device {}): {} of {} elements wrong, first at {}: got {}, tolerance {:g}", g,
                           devices_[g], bad.load(), count_, i, element(got.data(), elem_, i), tol);
      }
    }
    return {};
  }

  // GB/s each GPU sends while every GPU copies 256 MiB to the next at once
  // (peer access on where the GPUs allow it): the bound on busbw, since a
  // bandwidth-optimal all-reduce keeps every GPU sending and receiving.
  double measure_p2p_gbps() {
    const int G = int(devices_.size());
    if (G < 2) return 0;
    if (peers_reachable(devices_)) enable_peer_access(devices_);
    std::vector<DeviceBuffer> src, dst;
    for (int g = 0; g < G; ++g) {
      OnDevice on(devices_[g]);
      src.emplace_back(kProbeBytes);
      dst.emplace_back(kProbeBytes);
      GPUBENCH_CUDA(cudaMemset(src.back().get(), 1, kProbeBytes));
    }
    const auto sync_all = [&] {
      for (int g = 0; g < G; ++g) {
        OnDevice on(devices_[g]);
        GPUBENCH_CUDA(cudaDeviceSynchronize());
      }
    };
    std::vector<double> ms;
    for (int rep = 0; rep < 6; ++rep) {
      sync_all();
      const auto t0 = std::chrono::steady_clock::now();
      for (int g = 0; g < G; ++g) {
        const int q = (g + 1) % G;
        OnDevice on(devices_[q]);
        GPUBENCH_CUDA(cudaMemcpyPeerAsync(dst[q].get(), devices_[q], src[g].get(), devices_[g], kProbeBytes, streams_[q]));
      }
      sync_all();
      if (rep) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return double(kProbeBytes) / (ms[ms.size() / 2] * 1e-3) / 1e9;
  }

  std::int64_t bytes_, count_ = 0;
  Elem elem_;
  Op op_;
  std::uint64_t seed_;
  double p2p_gbps_ = 0;
  std::vector<int> devices_;
  std::vector<cudaStream_t> streams_;
  std::vector<DeviceBuffer> in_, out_, scratch_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/collective/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace collective

const Pattern& collective_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "collective";
    d.title = "an all-reduce across the GPUs of one process: host-staged, peer copies, peer loads, NCCL";
    d.help = "Run the all-reduce ladder across GPUs (host_staged, p2p_copy, p2p_direct, nccl); --devices: at least two";
    d.axes = {size_axis("bytes", "Bytes per GPU: 8, 1M, 2^30, a list, or 2^3:2^33 (every power of two)", "2^3:2^33",
                        std::int64_t(1) << 36),
              choice_axis("dtype", "Element type: float32, bfloat16 or float64", collective::kElems),
              choice_axis("op", "Reduction: sum or max", {"sum", "max"})};
    d.ladders = {{"course", ""}, {"baseline", ""}};
    for (const collective::Step& s : collective::ladder()) {
      StepInfo info = step_info(s, s.ladder == collective::Ladder::course ? "course" : "baseline", false);
      info.host_timed = true;
      d.steps.push_back(info);
    }
    d.primary = "busbw";
    d.measure = {2, 10, 0.2, 100000, false};
    d.min_devices = 2;
    d.fixture = [](const Point& pt) { return std::make_unique<collective::CollectiveFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
