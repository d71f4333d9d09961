#include "src/patterns/gemm/gemm_bench.hpp"

#include <climits>

#include "src/detail/errors.hpp"
#include "src/patterns/gemm/ladder.hpp"

namespace gpubench::gemm {

std::vector<PlannedRun> plan_from_config(const config::Benchmark& b) {
  config::check_keys(b.params, {"m", "n", "k", "seed", "device"}, b.path + ".params");
  Options base;
  base.variants = config::variant_list(b.variants, b.path + ".variants", [](const std::string& names) {
    select_steps(names);
  });
  base.measure = b.measure;
  auto dims = [&](const char* key, std::int64_t fallback) {
    if (!b.params.contains(key)) return std::vector<std::int64_t>{fallback};
    std::vector<std::int64_t> out;
    for (const auto& item : config::as_list(b.params.at(key), b.param_path(key)))
      for (const std::int64_t v : config::sizes(item)) {
        if (v > INT_MAX) config::fail_got(item.path, "a size up to 2^31-1", *item.value);
        out.push_back(v);
      }
    return out;
  };
  const auto ms = dims("m", base.m), ns = dims("n", base.n), ks = dims("k", base.k);
  config::seed_and_device(b, base.seed, base.device);
  return plan_sizes(base, ms, ns, ks);
}

std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& ms,
                                   const std::vector<std::int64_t>& ns, const std::vector<std::int64_t>& ks) {
  std::vector<PlannedRun> runs;
  for (const auto m : ms)
    for (const auto n : ns)
      for (const auto k : ks) {
        Options o = base;
        o.m = m;
        o.n = n;
        o.k = k;
        runs.push_back({describe(o), [o] { check(o); }, [o] { return run(o); }});
      }
  return runs;
}

}  // namespace gpubench::gemm
