#include <atomic>
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "src/detail/measure.hpp"
#include "src/detail/parallel.hpp"
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

TEST_CASE("the thread pool runs every chunk exactly once, call after call") {
  // Many short jobs back to back: a worker that wakes late for one job must
  // not take indices of the next.
  for (int round = 0; round < 20000; ++round) {
    const std::int64_t n = 1 + round % 97;
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
    gpubench::parallel_chunks(
        n, [&](unsigned, std::int64_t b, std::int64_t e) {
          for (std::int64_t i = b; i < e; ++i) ++hits[std::size_t(i)];
        },
        1);
    for (const auto& h : hits) REQUIRE(h == 1);
  }
}

TEST_CASE("a pool whose threads went to sleep wakes them all for the next job, from any caller") {
  // Idle past the time its threads spin awake (5 ms), then jobs from two
  // callers at once: every index of every job runs once.
  gpubench::ThreadPool pool(3);
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::atomic<int> runs{0};
    auto caller = [&] {
      for (int job = 0; job < 200; ++job) pool.run(8, [&](unsigned) { ++runs; });
    };
    std::thread other(caller);
    caller();
    other.join();
    CHECK(runs == 2 * 200 * 8);
  }
}

TEST_CASE("a pool of many more threads than cores ends at once after its last job") {
  // Its workers spin awake after a job; at shutdown they must stop spinning
  // (4096 threads on 2 cores took a minute to exit before they did).
  const auto start = std::chrono::steady_clock::now();
  {
    gpubench::ThreadPool pool(512);
    std::atomic<int> runs{0};
    pool.run(1024, [&](unsigned) { ++runs; });
    CHECK(runs == 1024);
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("an exception in a pool job reaches the caller, and the pool goes on") {
  CHECK_THROWS_AS(gpubench::parallel_chunks(
                      1 << 20, [](unsigned c, std::int64_t, std::int64_t) {
                        if (c == 1 || gpubench::host_threads() == 1) throw std::bad_alloc();
                      },
                      1),
                  std::bad_alloc);
  std::atomic<int> chunks{0};
  gpubench::parallel_chunks(1 << 20, [&](unsigned, std::int64_t, std::int64_t) { ++chunks; }, 1);
  CHECK(chunks == int(std::min<unsigned>(gpubench::host_threads(), 1u << 20)));
}
