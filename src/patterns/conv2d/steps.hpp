// The registered convolution steps, in ladder order (kernels/conv2d/steps.def),
// for the tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/conv2d/conv2d_step.hpp"

namespace gpubench::conv2d {

const std::vector<Step>& ladder();

}  // namespace gpubench::conv2d
