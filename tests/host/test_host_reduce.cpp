#include <catch2/catch.hpp>

#include <algorithm>
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
  fill_random(a.data(), n, DType::i32, Op::sum, 1);
  fill_random(b.data(), n, DType::i32, Op::sum, 1);
  fill_random(c.data(), n, DType::i32, Op::sum, 2);
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
}

TEST_CASE("float inputs: eighths for a sum and uniform from -1 to 1 for min and max") {
  const std::int64_t n = 1 << 20;
  std::vector<float> f(n);
  fill_random(f.data(), n, DType::f32, Op::sum, 3);
  for (float v : f) CHECK((v >= -4.0f && v <= 4.0f && v * 8 == std::floor(v * 8)));
  fill_random(f.data(), n, DType::f32, Op::max, 3);
  std::int64_t eighths = 0;
  for (float v : f) {
    CHECK((v >= -1.0f && v < 1.0f));
    eighths += v * 8 == std::floor(v * 8);
  }
  CHECK(eighths < n / 1000);
}

TEST_CASE("the host reference is exact on small inputs") {
  const std::vector<int> x = {5, -3, 7, -9, 2};
  CHECK(host_reference(x.data(), 5, DType::i32, Op::sum).value == 2);
  CHECK(host_reference(x.data(), 5, DType::i32, Op::min).value == -9);
  CHECK(host_reference(x.data(), 5, DType::i32, Op::max).value == 7);
  const std::vector<double> d = {0.5, 0.25, -1.0};
  CHECK(host_reference(d.data(), 3, DType::f64, Op::sum).value == -0.25L);
}

TEST_CASE("the reference adds many floats in higher precision") {
  // 2^25 copies of 1.0f: a float accumulator stalls at 2^24, the reference does not.
  const std::int64_t n = std::int64_t(1) << 25;
  std::vector<float> ones(n, 1.0f);
  CHECK(host_reference(ones.data(), n, DType::f32, Op::sum).value == static_cast<long double>(n));
}

TEST_CASE("verification is exact for every type and operator and NaN fails") {
  Reference r;
  r.value = 42;
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

  const float exact = 42.0f, close = 42.0f + 1e-5f, nan = std::numeric_limits<float>::quiet_NaN();
  for (const Op o : {Op::sum, Op::min, Op::max}) {
    CHECK(verify(&exact, r, 100, DType::f32, o).ok);
    CHECK_FALSE(verify(&close, r, 100, DType::f32, o).ok);
    CHECK_FALSE(verify(&nan, r, 100, DType::f32, o).ok);
  }
}

TEST_CASE("a float sum that drops one element or halves the input fails at 2^24") {
  // A float32 sum of the inputs in a GPU's order (blocks of 256, then their
  // partial sums) equals the reference; one element fewer, or half the
  // input, does not.
  const std::int64_t n = std::int64_t(1) << 24;
  std::vector<float> in(n);
  fill_random(in.data(), n, DType::f32, Op::sum, 42);
  const Reference ref = host_reference(in.data(), n, DType::f32, Op::sum);
  float tree = 0, half = 0, dropped = 0;
  for (std::int64_t b = 0; b < n; b += 256) {
    float block = 0;
    for (std::int64_t i = b; i < b + 256; ++i) block += in[i];
    tree += block;
    if (b < n / 2) half += block;
  }
  const std::int64_t nonzero = std::find_if(in.begin(), in.end(), [](float x) { return x != 0; }) - in.begin();
  dropped = tree - in[nonzero];
  CHECK(verify(&tree, ref, n, DType::f32, Op::sum).ok);
  CHECK_FALSE(verify(&half, ref, n, DType::f32, Op::sum).ok);
  CHECK_FALSE(verify(&dropped, ref, n, DType::f32, Op::sum).ok);
  const float zero = 0;
  CHECK_FALSE(verify(&zero, ref, n, DType::f32, Op::sum).ok);
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
        fill_random(in.data(), n, t, o, 9);
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
