// Every transfer step end to end through the benchmark itself (c poisoned
// before each run, checked after the first and the last): n = 1, n not a
// multiple of the chunk, more streams than chunks, 2^24 + 3, and past 2^31
// elements (64-bit indexing in the add and the chunks).
#include <catch2/catch.hpp>

#include "tests/gpu/check_point.hpp"

using namespace gpubench;

TEST_CASE("every transfer step is correct at small, odd and chunk-straddling sizes", "[gpu][transfer]") {
  struct Case {
    std::int64_t n, chunk;
    int streams;
  };
  for (const Case& c : {Case{1, 0, 4}, Case{1000, 300, 4}, Case{10, 5, 8}, Case{65537, 0, 3}, Case{(1 << 24) + 3, 0, 4},
                        Case{(1 << 20) + 1, 1000, 16}})
    testing::check_point("transfer", {{"n", c.n}, {"chunk", c.chunk}, {"streams", c.streams}, {"seed", c.n}});
}

TEST_CASE("every transfer step past 2^31 elements", "[gpu][transfer][large]") {
  const std::int64_t n = (std::int64_t(1) << 31) + 3;  // 8 GiB an array: 24 GiB through the host link each way of a run
  testing::check_point("transfer", {{"n", n}, {"chunk", 0}, {"streams", 4}, {"seed", 3}});
}

