// The StepInfo of a kernel-side step (kernels/<pattern>/*_step.hpp): its
// name, summary and the compute capability it needs, with the ladder,
// placement and tags its pattern gives it.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/core/pattern.hpp"

namespace gpubench {

template <class KernelStep>
StepInfo step_info(const KernelStep& s, std::string ladder, bool on_host,
                   nlohmann::json tags = nlohmann::json::object()) {
  StepInfo info{s.name, std::move(ladder), s.summary, on_host, std::move(tags)};
  info.min_cc = s.min_cc;
  return info;
}

}  // namespace gpubench
