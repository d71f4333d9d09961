// The reduction ladder as a pattern: n elements of a type folded by an
// operator into one value (kernels/reduce/steps.def, host_reduce.hpp).
#include <algorithm>

#include "kernels/reduce/reduce_step.hpp"
#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/element_types.hpp"
#include "src/patterns/reduce/steps.hpp"
#include "src/patterns/reduce/host_reduce.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace reduce {

#define GPUBENCH_STEP(name) const Step& step_##name();
#define GPUBENCH_ALIAS(name, of, ladder, summary)
#include "kernels/reduce/steps.def"
#undef GPUBENCH_STEP
#undef GPUBENCH_ALIAS

namespace {

Step alias(const Step& of, const char* name, Ladder l, const char* summary) {
  Step s = of;
  s.name = name;
  s.ladder = l;
  s.summary = summary;
  return s;
}


const char* ladder_name(Ladder l) {
  switch (l) {
    case Ladder::slides: return "slides";
    case Ladder::modern: return "modern";
    case Ladder::course: return "course";
    case Ladder::baseline: break;
  }
  return "baseline";
}

const std::vector<std::string> kOps = {"sum", "min", "max"};

Op op_named(const std::string& name) { return Op(std::find(kOps.begin(), kOps.end(), name) - kOps.begin()); }

class ReduceFixture : public Fixture {
 public:
  explicit ReduceFixture(const Point& p)
      : n_(p.at("n")), dtype_(dtype_named(p.at("dtype"))), op_(op_named(p.at("op"))), block_(p.at("block")),
        seed_(p.at("seed")), bytes_(std::size_t(n_) * dtype_size(dtype_)) {}

  Footprint footprint(const Env& env) const override {
    std::size_t scratch = 0;
    bool in_place = false;
    for (const std::size_t i : env.steps) {
      const Step& s = ladder()[i];
      if (s.where == Where::host || !env.device) continue;  // device scratch only counts with a device
      scratch = std::max(scratch, s.scratch_bytes(problem(nullptr, nullptr), workspace(env)));
      in_place = in_place || s.modifies_input;
    }
    // The input and its reference are built on the host; a step that folds
    // in place works on a copy of the device input.
    const double input = double(n_) * double(dtype_size(dtype_));  // in double: may be past 2^64
    const double device_input = env.device ? input * (in_place ? 2 : 1) : 0.0;
    return {input, device_input + double(scratch)};
  }

  void setup(const Env& env) override {
    host_input_.reset(new unsigned char[bytes_]);
    fill_random(host_input_.get(), n_, dtype_, op_, seed_);
    ref_ = host_reference(host_input_.get(), n_, dtype_, op_);
    if (!env.device) return;
    input_ = DeviceBuffer(bytes_);
    out_ = DeviceBuffer(dtype_size(dtype_));
    if (std::any_of(env.steps.begin(), env.steps.end(), [](std::size_t i) { return ladder()[i].modifies_input; }))
      work_ = DeviceBuffer(bytes_);
    // Our stream does not wait for the legacy default stream, and a cudaMemcpy
    // from pageable memory may return before its DMA has landed: copy on our
    // stream and wait for it.
    GPUBENCH_CUDA(cudaMemcpyAsync(input_.get(), host_input_.get(), bytes_, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(env.stream));
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const std::size_t elem = dtype_size(dtype_);
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    StepRun r;
    r.library = "cub";
    const std::optional<Resources> res = step_resources(s.resources, device != nullptr, problem(nullptr, nullptr));
    r.metrics = [this, device, res](double ms) {
      std::vector<Metric> m = bandwidth_metrics(double(bytes_), ms, device);
      for (Metric& x : resource_metrics(res)) m.push_back(std::move(x));
      return m;
    };
    const CheckedOutput out{value_, out_.get(), elem, 0xff, [this] {  // poison: NaN / -1
                              const Verdict v = verify(value_, ref_, n_, dtype_, op_);
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(host_input_.get(), value_), Workspace{}); });
      return r;
    }
    Workspace ws = workspace(env);
    const Problem p = problem(s.modifies_input ? work_.get() : input_.get(), out_.get());
    auto scratch = std::make_shared<DeviceBuffer>(s.scratch_bytes(p, ws));
    if (scratch->bytes()) GPUBENCH_CUDA(cudaMemsetAsync(scratch->get(), 0, scratch->bytes(), env.stream));
    ws.scratch = scratch->get();
    std::function<void()> restore;  // a step that folds in place gets a fresh copy of the input every time
    if (s.modifies_input && n_)
      restore = [this, stream = env.stream] {
        GPUBENCH_CUDA(cudaMemcpyAsync(work_.get(), input_.get(), bytes_, cudaMemcpyDeviceToDevice, stream));
      };
    run_on_device(r, out, env.stream, [&s, p, ws, scratch] { s.run(p, ws); }, restore);
    return r;
  }

 private:
  Problem problem(const void* in, void* out) const { return {in, out, n_, dtype_, op_, block_}; }

  static Workspace workspace(const Env& env) {
    Workspace ws;
    ws.stream = env.stream;
    if (env.device) {
      ws.sm_count = env.device->sm_count;
      ws.max_threads_per_sm = env.device->max_threads_per_sm;
    }
    return ws;
  }

  std::int64_t n_;
  DType dtype_;
  Op op_;
  int block_;
  std::uint64_t seed_;
  std::size_t bytes_;
  std::unique_ptr<unsigned char[]> host_input_;
  Reference ref_;
  DeviceBuffer input_, work_, out_;  // the pristine input, a copy for steps that fold in place, one element
  unsigned char value_[8] = {};      // the result, read back
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#define GPUBENCH_ALIAS(name, of, ladder, summary) alias(step_##of(), #name, ladder, summary),
#include "kernels/reduce/steps.def"
#undef GPUBENCH_STEP
#undef GPUBENCH_ALIAS
  };
  return steps;
}

}  // namespace reduce

const Pattern& reduce_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "reduce";
    d.title = "parallel reduction of n elements to one value";
    d.help = "Run the parallel-reduction ladder (reduce0 ... reduce9, course steps, cub, cpu)";
    Axis n = size_axis("n", "Elements to reduce: 4194304, 4M, 2^22, 1G, a comma-separated list, or 2^16:2^30", "2^28");
    n.flags = "-n,--n";
    d.axes = {n, dtype_axis(), choice_axis("op", "Reduction operator", reduce::kOps),
              integer_axis("block", "Threads per block: a power of two from 32 to 1024", "256", 32, 1024, true)};
    d.ladders = {{"slides", ""}, {"modern", "slides"}, {"course", ""}, {"baseline", ""}};
    for (const reduce::Step& s : reduce::ladder())
      d.steps.push_back(step_info(s, reduce::ladder_name(s.ladder), s.where == reduce::Where::host));
    d.primary = "gbps";
    d.fixture = [](const Point& pt) { return std::make_unique<reduce::ReduceFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
