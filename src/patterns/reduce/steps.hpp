// The registered reduce steps, in ladder order (kernels/reduce/steps.def), for the
// tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/reduce/reduce_step.hpp"

namespace gpubench::reduce {

const std::vector<Step>& ladder();

}  // namespace gpubench::reduce
