// The scan ladder (kernels/scan/steps.def) and step selection by name.
#pragma once

#include <string>
#include <vector>

#include "kernels/scan/scan_step.hpp"

namespace gpubench::scan {

const std::vector<Step>& ladder();
std::vector<Step> select_steps(const std::string& names);  // "all" or a comma-separated list
std::string ladder_name(Ladder l);

}  // namespace gpubench::scan
