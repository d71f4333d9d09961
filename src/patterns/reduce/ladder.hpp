// The registered reduction steps, in ladder order (kernels/reduce/steps.def).
#pragma once

#include <string>
#include <vector>

#include "kernels/reduce/reduce_step.hpp"

namespace gpubench::reduce {

const std::vector<Step>& ladder();

// The steps named in a comma-separated list ("all" for every step), in ladder
// order. Throws UsageError naming the valid steps for an unknown name.
std::vector<Step> select_steps(const std::string& names);

std::string ladder_name(Ladder l);

}  // namespace gpubench::reduce
