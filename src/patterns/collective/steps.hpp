// The registered collective steps, in ladder order (kernels/collective/steps.def).
#pragma once

#include <vector>

#include "kernels/collective/collective_step.hpp"

namespace gpubench::collective {

const std::vector<Step>& ladder();

}  // namespace gpubench::collective
