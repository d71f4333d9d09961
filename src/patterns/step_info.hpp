// The StepInfo of a kernel-side step (kernels/<pattern>/*_step.hpp): its
// name, summary and, where the step has one, the compute capability it
// needs (min_cc), with the ladder, placement and tags its pattern gives it.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/core/pattern.hpp"

namespace gpubench {

namespace detail {
template <class Step, class = void>
struct has_min_cc : std::false_type {};
template <class Step>
struct has_min_cc<Step, std::void_t<decltype(std::declval<const Step&>().min_cc)>> : std::true_type {};
}  // namespace detail

template <class KernelStep>
StepInfo step_info(const KernelStep& s, std::string ladder, bool on_host,
                   nlohmann::json tags = nlohmann::json::object()) {
  StepInfo info{s.name, std::move(ladder), s.summary, on_host, std::move(tags)};
  if constexpr (detail::has_min_cc<KernelStep>::value) info.min_cc = s.min_cc;
  return info;
}

}  // namespace gpubench
