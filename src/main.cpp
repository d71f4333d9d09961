#include <csignal>
#include <iostream>

#include <unistd.h>

#include "src/cli/commands.hpp"

int main(int argc, char** argv) {
  // A reader that goes away (| head) is a write error to report, not a signal that kills.
  std::signal(SIGPIPE, SIG_IGN);
  // Progress lines only for a person watching a terminal, not for logs.
  return gpubench::run_cli(argc, argv, std::cout, std::cerr, gpubench::builtin_patterns(),
                           isatty(STDERR_FILENO) != 0);
}
