#include <catch2/catch.hpp>

#include <stdexcept>

#include "src/detail/measure.hpp"
#include "src/detail/stats.hpp"

using namespace gpubench;

TEST_CASE("summary statistics of samples") {
  const Stats odd = summarize({3, 1, 2});
  CHECK(odd.median_ms == 2);
  CHECK(odd.min_ms == 1);
  CHECK(odd.max_ms == 3);
  CHECK(odd.mean_ms == Approx(2));
  CHECK(odd.noise == Approx(0.5));  // stddev 1 / mean 2

  CHECK(summarize({4, 1, 3, 2}).median_ms == Approx(2.5));
  CHECK(summarize({5}).noise == 0);
  CHECK_THROWS_AS(summarize({}), std::invalid_argument);
}

TEST_CASE("sampling honours warm-up, minimum count and maximum count") {
  int calls = 0;
  MeasureOptions o;
  o.warmup = 2;
  o.min_samples = 5;
  o.min_time_s = 0;
  const auto s = collect_samples(o, [&] { return double(++calls); });
  CHECK(s.size() == 5);
  CHECK(calls == 7);
  CHECK(s.front() == 3);  // warm-up results are discarded

  o.min_time_s = 3600;
  o.max_samples = 10;
  CHECK(collect_samples(o, [] { return 1.0; }).size() == 10);
}
