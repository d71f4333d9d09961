// The registered histogram steps, in ladder order (kernels/histogram/steps.def),
// for the tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/histogram/histogram_step.hpp"

namespace gpubench::histogram {

const std::vector<Step>& ladder();

}  // namespace gpubench::histogram
