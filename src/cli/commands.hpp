// The gpubench command line. run_cli is main() without the process: tests
// drive it with their own argv, streams and patterns.
#pragma once

#include <ostream>

#include "src/core/registry.hpp"

namespace gpubench {

// Parses argv, runs the chosen command and returns the process exit code
// (ExitCode in src/detail/errors.hpp). Every pattern of `patterns` is a
// subcommand. Errors become one line on `err`; with `progress`, multi-run
// commands say on `err` what they are running.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const Registry& patterns,
            bool progress = false);

}  // namespace gpubench
