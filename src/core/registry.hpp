// The patterns a command line knows: the built-in ones
// (src/patterns/patterns.def), or any other list (tests add their own).
#pragma once

#include <string>
#include <vector>

#include "src/core/pattern.hpp"

namespace gpubench {

struct Registry {
  std::vector<const Pattern*> patterns;

  // Null when no pattern has that name.
  const Pattern* find(const std::string& name) const {
    for (const Pattern* p : patterns)
      if (p->name == name) return p;
    return nullptr;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Pattern* p : patterns) out.push_back(p->name);
    return out;
  }
};

// Every pattern of src/patterns/patterns.def, in its order.
const Registry& builtin_patterns();

}  // namespace gpubench
