#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "src/patterns/reduce/host_reduce.hpp"
#include "src/core/registry.hpp"
#include "src/core/runner.hpp"
#include "src/patterns/reduce/steps.hpp"

using namespace gpubench;
using namespace gpubench::reduce;

TEST_CASE("random inputs are seeded, deterministic, non-zero and zero-mean for int32") {
  const std::int64_t n = 1 << 20;
  std::vector<int> a(n), b(n), c(n);
  fill_random(a.data(), n, DType::i32, 1);
  fill_random(b.data(), n, DType::i32, 1);
  fill_random(c.data(), n, DType::i32, 2);
  CHECK(a == b);
  CHECK(a != c);
  long long sum = 0, zeros = 0;
  for (int v : a) {
    CHECK((v >= -1000 && v <= 1000));
    sum += v;
    zeros += v == 0;
  }
  CHECK(std::llabs(sum) < 4 * 577 * 1024);  // 4 sigma of a sum of 2^20 uniform[-1000, 1000]
  CHECK(zeros < n / 100);

  std::vector<float> f(n);
  fill_random(f.data(), n, DType::f32, 3);
  for (float v : f) CHECK((v >= -1.0f && v < 1.0f));
}

TEST_CASE("the host reference is exact on small inputs") {
  const std::vector<int> x = {5, -3, 7, -9, 2};
  CHECK(host_reference(x.data(), 5, DType::i32, Op::sum).value == 2);
  CHECK(host_reference(x.data(), 5, DType::i32, Op::min).value == -9);
  CHECK(host_reference(x.data(), 5, DType::i32, Op::max).value == 7);
  CHECK(host_reference(x.data(), 5, DType::i32, Op::sum).abs_sum == 26);
  const std::vector<double> d = {0.5, 0.25, -1.0};
  CHECK(host_reference(d.data(), 3, DType::f64, Op::sum).value == -0.25L);
}

TEST_CASE("the reference adds many floats in higher precision") {
  // 2^25 copies of 1.0f: a float accumulator stalls at 2^24, the reference does not.
  const std::int64_t n = std::int64_t(1) << 25;
  std::vector<float> ones(n, 1.0f);
  CHECK(host_reference(ones.data(), n, DType::f32, Op::sum).value == static_cast<long double>(n));
}

TEST_CASE("verification: exact for integers, tolerant for float sums, NaN always fails") {
  Reference r;
  r.value = 42;
  r.abs_sum = 100;
  const int good = 42, bad = 43;
  CHECK(verify(&good, r, 10, DType::i32, Op::sum).ok);
  const Verdict v = verify(&bad, r, 10, DType::i32, Op::sum);
  CHECK_FALSE(v.ok);
  CHECK(v.detail.find("expected 42") != std::string::npos);

  // int32 sums wrap modulo 2^32 like the device arithmetic
  Reference big;
  big.value = 4294967296.0L + 5;
  const int wrapped = 5;
  CHECK(verify(&wrapped, big, 10, DType::i32, Op::sum).ok);

  const float close = 42.0f + 1e-4f, far = 43.0f, nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(verify(&close, r, 100, DType::f32, Op::sum).ok);
  CHECK_FALSE(verify(&far, r, 100, DType::f32, Op::sum).ok);
  CHECK_FALSE(verify(&nan, r, 100, DType::f32, Op::sum).ok);
  CHECK_FALSE(verify(&close, r, 100, DType::f32, Op::max).ok);  // min and max are exact
}

TEST_CASE("the cpu step matches the reference for every dtype and operator") {
  const Step* cpu = nullptr;
  for (const Step& s : ladder())
    if (std::string(s.name) == "cpu") cpu = &s;
  REQUIRE(cpu != nullptr);
  for (const std::int64_t n : {1, 2, 33, 1000, 300007}) {
    for (const DType t : {DType::i32, DType::f32, DType::f64}) {
      for (const Op o : {Op::sum, Op::min, Op::max}) {
        std::vector<unsigned char> in(std::size_t(n) * dtype_size(t));
        fill_random(in.data(), n, t, 9);
        unsigned char out[8];
        std::memset(out, 0xff, sizeof out);
        cpu->run(Problem{in.data(), out, n, t, o, 256}, Workspace{});
        INFO("n=" << n << " dtype=" << int(t) << " op=" << int(o));
        CHECK(verify(out, host_reference(in.data(), n, t, o), n, t, o).ok);
      }
    }
  }
}

TEST_CASE("variant selection keeps ladder order and names the valid steps") {
  const Pattern& p = *builtin_patterns().find("reduce");
  const auto chosen = select_steps(p, "cub,reduce3,reduce0");
  REQUIRE(chosen.size() == 3);
  CHECK(p.steps[chosen[0]].name == "reduce0");
  CHECK(p.steps[chosen[2]].name == "cub");
  CHECK(select_steps(p, "all").size() == ladder().size());
  CHECK_THROWS_WITH(select_steps(p, "reduce0,nope"), Catch::Contains("'nope'") && Catch::Contains("reduce9"));
  CHECK_THROWS_WITH(select_steps(p, ""), Catch::Contains("unknown reduce variant ''"));
}
