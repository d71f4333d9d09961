#include "src/patterns/reduce/reduce_config.hpp"

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/patterns/reduce/ladder.hpp"

namespace gpubench::reduce {
using config::Item;
using config::param_values;

std::string describe(const Options& o) {
  return fmt::format("reduce n={} dtype={} op={} block={} variants={}", o.n, to_string(o.dtype), to_string(o.op),
                     o.block, o.variants);
}

std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& sizes) {
  return plan_each_size<Options>(base, sizes, &check, &run, &describe);
}

std::vector<PlannedRun> plan_from_config(const config::Benchmark& b) {
  config::check_keys(b.params, {"n", "dtype", "op", "block", "seed", "device"}, b.path + ".params");
  Options base;
  base.variants = config::variant_list(b.variants, b.path + ".variants", [](const std::string& names) {
    select_steps(names);
  });
  base.measure = b.measure;
  const auto ns = param_values<std::int64_t>(b, "n", base.n, [](const Item& i) { return config::sizes(i); });
  const auto dtypes = param_values<DType>(b, "dtype", base.dtype, [](const Item& i) {
    return std::vector<DType>{dtype_named(config::one_of(i, dtype_names()))};
  });
  const auto ops = param_values<Op>(b, "op", base.op, [](const Item& i) {
    return std::vector<Op>{op_named(config::one_of(i, op_names()))};
  });
  const auto blocks = param_values<int>(b, "block", base.block, [](const Item& i) {
    const auto v = int(config::integer(i, 32, 1024));
    if (v & (v - 1)) config::fail_got(i.path, "a power of two from 32 to 1024", *i.value);
    return std::vector<int>{v};
  });
  config::seed_and_device(b, base.seed, base.device);

  std::vector<PlannedRun> runs;
  for (const DType t : dtypes)
    for (const Op op : ops)
      for (const int block : blocks) {
        Options o = base;
        o.dtype = t;
        o.op = op;
        o.block = block;
        for (auto& r : plan_sizes(o, ns)) runs.push_back(std::move(r));
      }
  return runs;
}

}  // namespace gpubench::reduce
