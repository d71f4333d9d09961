// Running the command line in-process, as the host tests do.
#pragma once

#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "src/cli/commands.hpp"

namespace gpubench::testing {

struct Outcome {
  int rc;
  std::string out, err;  // out is empty when the test passed its own stream
};

// gpubench ARGS... with `patterns`; standard output to `out` when given.
inline Outcome run_gpubench(const Registry& patterns, const std::vector<std::string>& args,
                            std::ostream* out = nullptr) {
  std::vector<const char*> argv{"gpubench"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream o, e;
  const int rc = run_cli(int(argv.size()), argv.data(), out ? *out : o, e, patterns);
  return {rc, o.str(), e.str()};
}

}  // namespace gpubench::testing
