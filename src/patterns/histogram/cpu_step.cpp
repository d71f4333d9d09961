// The `cpu` step: the multi-threaded host histogram of host_histogram.hpp.
#include "src/patterns/histogram/host_histogram.hpp"
#include "src/patterns/histogram/steps.hpp"

namespace gpubench::histogram {
namespace {

std::size_t no_scratch(const Problem&) { return 0; }
int any_bins(std::size_t) { return 0; }
void run_cpu(const Problem& p, const Workspace&) { cpu_histogram(p.samples, p.n, p.type, p.bins, p.hist); }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu",   Ladder::baseline, "all host threads: a private histogram each, then a merge",
                         Where::host, &no_scratch,      &run_cpu,
                         &any_bins,   nullptr};
  return step;
}

}  // namespace gpubench::histogram
