#include "src/patterns/scan/ladder.hpp"

#include "src/patterns/select_steps.hpp"

namespace gpubench::scan {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/scan/steps.def"
#undef GPUBENCH_STEP

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/scan/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

std::vector<Step> select_steps(const std::string& names) { return select_by_name(ladder(), names, "scan"); }

std::string ladder_name(Ladder l) {
  switch (l) {
    case Ladder::course: return "course";
    case Ladder::single_pass: return "single-pass";
    case Ladder::baseline: return "baseline";
  }
  return "?";
}

}  // namespace gpubench::scan
