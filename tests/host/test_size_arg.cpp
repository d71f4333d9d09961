#include <catch2/catch.hpp>

#include "src/detail/size_arg.hpp"
#include "src/detail/errors.hpp"

using gpubench::parse_size;
using gpubench::UsageError;

TEST_CASE("sizes are read as integers, binary suffixes and powers") {
  CHECK(parse_size("4194304") == 4194304);
  CHECK(parse_size("4M") == 4194304);
  CHECK(parse_size("4m") == 4194304);
  CHECK(parse_size("2^22") == 4194304);
  CHECK(parse_size("1G") == (std::int64_t(1) << 30));
  CHECK(parse_size("16K") == 16384);
  CHECK(parse_size("1") == 1);
  CHECK(parse_size("2^0") == 1);
  CHECK(parse_size("2^62") == (std::int64_t(1) << 62));
  CHECK(parse_size("3^2") == 9);
  CHECK(parse_size("1^0") == 1);
  // Powers of 1 (and of 0, refused below) answer at once, whatever the exponent.
  CHECK(parse_size("1^999999999999999999") == 1);
}

TEST_CASE("bad sizes are rejected with a message naming the input") {
  for (const char* bad : {"", "abc", "4X", "-5", "0", "0M", "2^", "^3", "2^63", "1.5M", "4 M", "99999999999999999999",
                          "0^5", "0^999999999999999999", "2^-1"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_size(bad), UsageError);
  }
  CHECK_THROWS_WITH(parse_size("4X"), Catch::Contains("'4X'"));
  // Past 2^63 in decimal digits: refused without overflowing on the way.
  CHECK_THROWS_WITH(parse_size("18446744073709551616"), Catch::Contains("too large"));
  CHECK_THROWS_WITH(parse_size("99999999999999999999999"), Catch::Contains("too large"));
}

TEST_CASE("size lists and power-of-two sweeps") {
  using V = std::vector<std::int64_t>;
  CHECK(gpubench::parse_size_list("2^22") == V{4194304});
  CHECK(gpubench::parse_size_list("1K,2^11") == V{1024, 2048});
  CHECK(gpubench::parse_size_list("2^16:2^19") == V{65536, 131072, 262144, 524288});
  CHECK(gpubench::parse_size_list("3:12,5") == V{3, 6, 12, 5});
  CHECK(gpubench::parse_size_list("4M:4M") == V{4194304});
  CHECK(gpubench::parse_size_list("2^61:2^62") == V{std::int64_t(1) << 61, std::int64_t(1) << 62});
  CHECK_THROWS_WITH(gpubench::parse_size_list("2^20:2^10"), Catch::Contains("smaller size to the larger"));
  CHECK_THROWS_WITH(gpubench::parse_size_list("1M,x"), Catch::Contains("'x'"));
  CHECK_THROWS_AS(gpubench::parse_size_list("1M:"), UsageError);
}
