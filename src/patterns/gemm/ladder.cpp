#include "src/patterns/gemm/ladder.hpp"

#include "src/patterns/select_steps.hpp"

namespace gpubench::gemm {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/gemm/steps.def"
#undef GPUBENCH_STEP

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/gemm/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

std::vector<Step> select_steps(const std::string& names) { return select_by_name(ladder(), names, "gemm"); }

std::string ladder_name(Ladder l) {
  switch (l) {
    case Ladder::cuda_core: return "cuda-core";
    case Ladder::tensor_core: return "tensor-core";
    case Ladder::baseline: return "baseline";
  }
  return "?";
}

std::string precision_name(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
  }
  return "?";
}

}  // namespace gpubench::gemm
