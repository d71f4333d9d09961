// The 3D-stencil ladder as a pattern: the 7-point stencil over the interior
// of an n^3 grid, boundary points copied (kernels/stencil3d/steps.def,
// host_stencil3d.hpp).
#include <algorithm>

#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/element_types.hpp"
#include "src/patterns/stencil3d/host_stencil3d.hpp"
#include "src/patterns/stencil3d/steps.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace stencil3d {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/stencil3d/steps.def"
#undef GPUBENCH_STEP

namespace {

class StencilFixture : public Fixture {
 public:
  explicit StencilFixture(const Point& p)
      : n_(p.at("size")), dtype_(dtype_named(p.at("dtype"))), seed_(p.at("seed")),
        bytes_(std::size_t(points()) * dtype_size(dtype_)) {
    fill_coefficients(c_, dtype_, seed_);
  }

  // A device step's own check asks the current GPU (whether this build has a
  // TMA kernel's sm_90 code): it waits for the device.
  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    const Step& s = ladder()[i];
    const bool ask = s.unavailable && (d || s.where == Where::host);
    return ask ? s.unavailable(problem(nullptr, nullptr)) : std::string();
  }

  // The grid, the reference and the output read back on the host; the two
  // grids on the device, and the largest step's own memory (cuSPARSE's matrix).
  Footprint footprint(const Env& env) const override {
    const double grid = double(points()) * double(dtype_size(dtype_));
    double extra = 0;
    for (const std::size_t i : env.steps)
      if (ladder()[i].extra_device_bytes && env.device)
        extra = std::max(extra, ladder()[i].extra_device_bytes(problem(nullptr, nullptr)));
    return {3 * grid, env.device ? 2 * grid + extra : 0.0};
  }

  void setup(const Env& env) override {
    in_.reset(new unsigned char[bytes_]);
    want_.reset(new unsigned char[bytes_]);
    out_.reset(new unsigned char[bytes_]);
    fill_grid(in_.get(), points(), dtype_, seed_);
    reference_stencil(in_.get(), want_.get(), n_, c_, dtype_);
    if (!env.device) return;
    din_ = DeviceBuffer(bytes_);
    dout_ = DeviceBuffer(bytes_);
    GPUBENCH_CUDA(cudaMemcpyAsync(din_.get(), in_.get(), bytes_, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(env.stream));
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    StepRun r;
    r.library = "cusparse";
    const std::optional<Resources> res = step_resources(s.resources, device != nullptr, problem(nullptr, nullptr));
    r.metrics = [this, device, res](double ms) {
      const double pts = double(points()), inner = std::max(0.0, double(n_ - 2));
      std::vector<Metric> m{{"gpoints", "Gpoints/s", "Gpoints/s", pts / (ms * 1e-3) / 1e9, 1}};
      for (Metric& b : bandwidth_metrics(2.0 * double(bytes_), ms, device)) m.push_back(std::move(b));
      m.push_back({"gflops", "GFLOP/s", "GFLOP/s", kFlopsPerPoint * inner * inner * inner / (ms * 1e-3) / 1e9, 0});
      for (Metric& x : resource_metrics(res)) m.push_back(std::move(x));
      return m;
    };
    const CheckedOutput out{out_.get(), dout_.get(), bytes_, 0xff, [this, tol = tolerance(c_, dtype_)] {
                              const Verdict v = verify_stencil(out_.get(), want_.get(), points(), dtype_, tol);
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(in_.get(), out_.get()), Workspace{}); });
      return r;
    }
    const Problem p = problem(din_.get(), dout_.get());
    const std::shared_ptr<void> plan = s.make_plan ? s.make_plan(p, env.stream) : nullptr;
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{env.stream, plan.get()}, plan] { s.run(p, ws); });
    return r;
  }

 private:
  std::int64_t points() const { return n_ * n_ * n_; }
  Problem problem(const void* in, void* out) const {
    Problem p{in, out, n_, {}, dtype_};
    std::copy(std::begin(c_), std::end(c_), p.c);
    return p;
  }

  std::int64_t n_;
  DType dtype_;
  std::uint64_t seed_;
  std::size_t bytes_;
  double c_[7] = {};
  std::unique_ptr<unsigned char[]> in_, want_, out_;
  DeviceBuffer din_, dout_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/stencil3d/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace stencil3d

const Pattern& stencil3d_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "stencil3d";
    d.title = "7-point stencil over the interior of an n^3 grid, boundary points copied";
    d.help = "Run the 3D-stencil ladder (basic ... register tiling, TMA ring, row slabs, TMA stores, cusparse, cpu)";
    // Grid dimensions stop at 65535 blocks: shared_tiling's of 6 points in z.
    d.axes = {size_axis("size", "Cube side in points: 512, a list, or 2^6:2^10", "512", 65535LL * 6),
              dtype_axis({DType::f32, DType::f64})};
    d.ladders = {{"course", ""}, {"modern", "course"}, {"baseline", ""}};
    for (const stencil3d::Step& s : stencil3d::ladder())
      d.steps.push_back(step_info(s, ladder_name(s.ladder), s.where == stencil3d::Where::host));
    d.primary = "gpoints";
    d.fixture = [](const Point& pt) { return std::make_unique<stencil3d::StencilFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
