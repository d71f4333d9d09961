#include "src/core/registry.hpp"

namespace gpubench {

#define GPUBENCH_PATTERN(name) const Pattern& name##_pattern();
#include "src/patterns/patterns.def"
#undef GPUBENCH_PATTERN

const Registry& builtin_patterns() {
  static const Registry r{{
#define GPUBENCH_PATTERN(name) &name##_pattern(),
#include "src/patterns/patterns.def"
#undef GPUBENCH_PATTERN
  }};
  return r;
}

}  // namespace gpubench
