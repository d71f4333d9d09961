#include <fmt/format.h>

#include "src/config/json_fields.hpp"
#include "src/patterns/reduce/reduce_bench.hpp"
#include "src/patterns/scan/ladder.hpp"
#include "src/patterns/scan/scan_bench.hpp"

namespace gpubench::scan {

using config::Item;
using config::param_values;

std::vector<PlannedRun> plan_from_config(const config::Benchmark& b) {
  config::check_keys(b.params, {"n", "dtype", "kind", "seed", "device"}, b.path + ".params");
  Options base;
  base.variants = config::variant_list(b.variants, b.path + ".variants", [](const std::string& names) {
    select_steps(names);
  });
  base.measure = b.measure;
  const auto ns = param_values<std::int64_t>(b, "n", base.n, [](const Item& i) { return config::sizes(i); });
  const auto dtypes = param_values<DType>(b, "dtype", base.dtype, [](const Item& i) {
    return std::vector<DType>{reduce::dtype_named(config::one_of(i, reduce::dtype_names()))};
  });
  const auto kinds = param_values<Kind>(b, "kind", base.kind, [](const Item& i) {
    return std::vector<Kind>{kind_named(config::one_of(i, kind_names()))};
  });
  config::seed_and_device(b, base.seed, base.device);

  std::vector<PlannedRun> runs;
  for (const DType t : dtypes)
    for (const Kind k : kinds) {
      Options o = base;
      o.dtype = t;
      o.kind = k;
      for (auto& r : plan_sizes(o, ns)) runs.push_back(std::move(r));
    }
  return runs;
}

}  // namespace gpubench::scan
