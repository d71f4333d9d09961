#include "src/patterns/reduce/reduce_config.hpp"

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/patterns/reduce/ladder.hpp"

namespace gpubench::reduce {
namespace {

using config::Item;
using nlohmann::json;


// The values of one param: its items parsed by `parse`, or the default.
template <class T, class Parse>
std::vector<T> values(const config::Benchmark& b, const char* key, T fallback, Parse parse) {
  if (!b.params.contains(key)) return {fallback};
  std::vector<T> out;
  for (const Item& item : config::as_list(b.params.at(key), b.param_path(key))) {
    for (const T& v : parse(item)) out.push_back(v);
  }
  return out;
}

}  // namespace

std::string describe(const Options& o) {
  return fmt::format("reduce n={} dtype={} op={} block={} variants={}", o.n, to_string(o.dtype), to_string(o.op),
                     o.block, o.variants);
}

std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& sizes) {
  std::vector<PlannedRun> runs;
  for (const std::int64_t n : sizes) {
    Options o = base;
    o.n = n;
    runs.push_back({describe(o), [o] { check(o); }, [o] { return run(o); }});
  }
  return runs;
}

std::vector<PlannedRun> plan_from_config(const config::Benchmark& b) {
  config::check_keys(b.params, {"n", "dtype", "op", "block", "seed", "device"}, b.path + ".params");
  Options base;
  base.variants = config::variant_list(b.variants, b.path + ".variants", [](const std::string& names) {
    select_steps(names);
  });
  base.measure = b.measure;
  const auto ns = values<std::int64_t>(b, "n", base.n, [](const Item& i) { return config::sizes(i); });
  const auto dtypes = values<DType>(b, "dtype", base.dtype, [](const Item& i) {
    return std::vector<DType>{dtype_named(config::one_of(i, dtype_names()))};
  });
  const auto ops = values<Op>(b, "op", base.op, [](const Item& i) {
    return std::vector<Op>{op_named(config::one_of(i, op_names()))};
  });
  const auto blocks = values<int>(b, "block", base.block, [](const Item& i) {
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
