// The registered matrix-multiplication steps, in ladder order (kernels/gemm/steps.def).
#pragma once

#include <string>
#include <vector>

#include "kernels/gemm/gemm_step.hpp"

namespace gpubench::gemm {

const std::vector<Step>& ladder();

// The steps named in a comma-separated list ("all" for every step), in
// ladder order. Throws UsageError naming the valid steps for an unknown name.
std::vector<Step> select_steps(const std::string& names);

std::string ladder_name(Ladder l);
std::string precision_name(Precision p);

}  // namespace gpubench::gemm
