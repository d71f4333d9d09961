// The outcome of checking a result against its reference.
#pragma once

#include <string>

namespace gpubench {

struct Verdict {
  bool ok = false;
  std::string detail;  // why not, when not ok: "got X, expected Y (tolerance Z)"
};

}  // namespace gpubench
