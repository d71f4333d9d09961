// The `cpu` step: the multi-threaded host scan of host_scan.hpp.
#include "src/patterns/scan/host_scan.hpp"

namespace gpubench::scan {
namespace {

std::size_t no_scratch(const Problem&) { return 0; }
void run_cpu(const Problem& p, const Workspace&) { cpu_scan(p.in, p.out, p.n, p.dtype, p.kind); }
double two_adds(std::int64_t) { return 2.0; }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu",         Ladder::baseline, "all host threads: chunk sums, their scan, chunk scans",
                         Where::host, &no_scratch,      &run_cpu,
                         &two_adds};
  return step;
}

}  // namespace gpubench::scan
