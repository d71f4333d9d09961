#include <iostream>

#include "src/cli/commands.hpp"

int main(int argc, char** argv) { return gpubench::run_cli(argc, argv, std::cout, std::cerr); }
