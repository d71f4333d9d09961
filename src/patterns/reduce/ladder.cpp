#include "src/patterns/reduce/ladder.hpp"

#include "src/patterns/select_steps.hpp"

namespace gpubench::reduce {

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

std::vector<Step> select_steps(const std::string& names) { return select_by_name(ladder(), names, "reduce"); }

std::string ladder_name(Ladder l) {
  switch (l) {
    case Ladder::slides: return "slides";
    case Ladder::modern: return "modern";
    case Ladder::course: return "course";
    case Ladder::baseline: return "baseline";
  }
  return "?";
}

}  // namespace gpubench::reduce
