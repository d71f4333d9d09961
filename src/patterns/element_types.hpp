// The element-type axis of the patterns whose steps are templated over
// kernels/common/dtype.hpp's types.
#pragma once

#include <string>
#include <vector>

#include "kernels/common/dtype.hpp"
#include "src/core/axis.hpp"

namespace gpubench {

// The axis of the types a pattern takes; the first is the default.
inline Axis dtype_axis(const std::vector<DType>& types = {DType::i32, DType::f32, DType::f64}) {
  std::vector<std::string> names;
  for (const DType t : types) names.push_back(dtype_name(t));
  return choice_axis("dtype", "Element type", names);
}

// The type a dtype_axis() value names.
inline DType dtype_named(const std::string& name) {
  for (const DType t : {DType::i32, DType::f32, DType::f64, DType::i64})
    if (name == dtype_name(t)) return t;
  return DType::i32;
}

}  // namespace gpubench
