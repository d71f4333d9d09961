// The `cpu` step: OpenBLAS sgemm on every host thread, the fair CPU
// comparison. It runs on host copies of A and B.
#include "kernels/gemm/gemm_step.hpp"
#include "src/patterns/gemm/openblas.hpp"

namespace gpubench::gemm {
namespace {

void run_cpu(const Problem& p, const Workspace&) { openblas::sgemm(p.a, p.b, p.c, p.m, p.n, p.k); }

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu",   Ladder::baseline, "OpenBLAS sgemm on all host threads", Precision::fp32, &run_cpu,
                         nullptr, 0,                0,                                    true, &openblas::unavailable};
  return step;
}

}  // namespace gpubench::gemm
