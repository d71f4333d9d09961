#include "src/patterns/reduce/ladder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

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

std::vector<Step> select_steps(const std::string& names) {
  const auto& all = ladder();
  if (names == "all") return all;
  const std::vector<std::string> wanted = split(names, ',');
  std::vector<Step> chosen;
  for (const Step& s : all) {
    if (std::find(wanted.begin(), wanted.end(), s.name) != wanted.end()) chosen.push_back(s);
  }
  for (const std::string& w : wanted) {
    const bool known = std::any_of(all.begin(), all.end(), [&](const Step& s) { return w == s.name; });
    if (!known) {
      std::vector<std::string> valid{"all"};
      for (const Step& s : all) valid.emplace_back(s.name);
      throw UsageError(fmt::format("unknown reduce variant '{}'; valid: {}", w, fmt::join(valid, ", ")));
    }
  }
  return chosen;
}

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
