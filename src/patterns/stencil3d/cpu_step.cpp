// The `cpu` step: the multi-threaded host stencil of host_stencil3d.hpp.
#include "src/patterns/stencil3d/host_stencil3d.hpp"
#include "src/patterns/stencil3d/steps.hpp"

namespace gpubench::stencil3d {
namespace {

void run_cpu(const Problem& p, const Workspace&) { cpu_stencil(p.in, p.out, p.n, p.c, p.dtype); }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu", Ladder::baseline, "all host threads over rows of x, vectorized along x", Where::host,
                         &run_cpu};
  return step;
}

}  // namespace gpubench::stencil3d
