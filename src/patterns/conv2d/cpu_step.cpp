// The `cpu` step: the multi-threaded host convolution of host_conv2d.hpp.
#include "src/patterns/conv2d/host_conv2d.hpp"
#include "src/patterns/conv2d/steps.hpp"

namespace gpubench::conv2d {
namespace {

void run_cpu(const Problem& p, const Workspace&) { cpu_conv2d(p.in, p.out, p.mask, p.width, p.height, p.side, p.dtype); }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu", Ladder::baseline, "all host threads, row strips vectorized along x", Where::host,
                         &run_cpu};
  return step;
}

}  // namespace gpubench::conv2d
