// The registered scan steps, in ladder order (kernels/scan/steps.def), for the
// tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/scan/scan_step.hpp"

namespace gpubench::scan {

const std::vector<Step>& ladder();

}  // namespace gpubench::scan
