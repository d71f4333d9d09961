// The `cpu` step: the multi-threaded, vectorized host loop of host_map.hpp.
#include "src/patterns/map/host_map.hpp"
#include "src/patterns/map/steps.hpp"

namespace gpubench::map {
namespace {

void run_cpu(const Problem& p, const Workspace&) { cpu_map(p); }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu", Ladder::baseline, "all host threads, vectorized by the compiler", Where::host, &run_cpu};
  return step;
}

}  // namespace gpubench::map
