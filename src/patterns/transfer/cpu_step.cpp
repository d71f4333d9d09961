// The `cpu` step: c = a + b on all host threads, the data never leaving
// host memory (what the GPU has to beat end to end).
#include "src/detail/parallel.hpp"
#include "src/patterns/transfer/steps.hpp"

namespace gpubench::transfer {
namespace {

void run_cpu(const Problem& p, const Workspace&) {
  parallel_chunks(p.n, [&](unsigned, std::int64_t b, std::int64_t e) {
#pragma omp simd
    for (std::int64_t i = b; i < e; ++i) p.c[i] = p.a[i] + p.b[i];
  });
}

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu", Ladder::baseline, "all host threads, the data staying in host memory",
                         Memory::pageable, true, &run_cpu};
  return step;
}

}  // namespace gpubench::transfer
