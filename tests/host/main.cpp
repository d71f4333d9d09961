#include "tests/test_session.hpp"

int main(int argc, char** argv) { return gpubench::testing::run_tests(argc, argv, 0); }
