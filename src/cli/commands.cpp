#include "src/cli/commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "src/cli/size_arg.hpp"
#include "src/compare/compare.hpp"
#include "src/config/config.hpp"
#include "src/patterns/reduce/reduce_config.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/errors.hpp"
#include "src/patterns/gemm/gemm_bench.hpp"
#include "src/patterns/gemm/ladder.hpp"
#include "src/patterns/reduce/ladder.hpp"
#include "src/patterns/reduce/reduce_bench.hpp"
#include "src/patterns/scan/ladder.hpp"
#include "src/patterns/scan/scan_bench.hpp"
#include "src/report/csv_report.hpp"
#include "src/report/json_report.hpp"
#include "src/report/output_file.hpp"
#include "src/report/table.hpp"

namespace gpubench {
namespace {

const std::vector<std::string> kPatterns = {"reduce", "gemm", "scan"};

struct OutputArgs {
  std::string json_path, csv_path;
  bool markdown = false;
};

struct ReduceArgs {
  reduce::Options opts;
  std::string n = "2^28", dtype = "int32", op = "sum";
  OutputArgs out;
};

void add_output_options(CLI::App* cmd, OutputArgs& o) {
  cmd->add_option("--json", o.json_path, "Write the results as JSON (docs/json-schema.md)");
  cmd->add_option("--csv", o.csv_path, "Write the results as CSV");
  cmd->add_flag("--md", o.markdown, "Print the table as markdown");
}

// Options every pattern command shares: device, seed, sampling, output.
void add_run_options(CLI::App* cmd, int& device, std::uint64_t& seed, MeasureOptions& m, OutputArgs& out) {
  cmd->add_option("--device", device, "CUDA device index")->capture_default_str();
  cmd->add_option("--seed", seed, "Seed of the random input")->capture_default_str();
  cmd->add_flag("--hot", m.hot, "Do not flush the L2 cache before each sample");
  cmd->add_option("--min-samples", m.min_samples, "Timed samples per variant, at least")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--min-time", m.min_time_s, "Seconds of sampling per variant, at least")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            const bool ok = !text.empty() && *end == '\0' && std::isfinite(v) && v >= 0 && v <= 3600;
            return ok ? "" : "expected seconds from 0 to 3600, got '" + text + "'";
          },
          "SECONDS"))
      ->capture_default_str();
  add_output_options(cmd, out);
}

void add_variant_option(CLI::App* cmd, std::string& variants, const char* pattern) {
  cmd->add_option("-v,--variant", variants,
                  fmt::format("'all' or a comma-separated list of steps (see 'gpubench list {}')", pattern))
      ->capture_default_str();
}

void add_dtype_option(CLI::App* cmd, std::string& dtype) {
  cmd->add_option("--dtype", dtype, "Element type")->check(CLI::IsMember(reduce::dtype_names()))->capture_default_str();
}

// The sizes a flag's text names; its errors name the flag.
std::vector<std::int64_t> sizes_of(const char* flag, const std::string& text) {
  try {
    return parse_size_list(text);
  } catch (const UsageError& e) {
    throw UsageError(std::string(flag) + ": " + e.what());
  }
}

void add_reduce(CLI::App& app, ReduceArgs& a) {
  auto* cmd = app.add_subcommand("reduce", "Run the parallel-reduction ladder (reduce0 ... reduce9, course steps, cub, cpu)");
  add_variant_option(cmd, a.opts.variants, "reduce");
  cmd->add_option("-n,--n", a.n, "Elements to reduce: 4194304, 4M, 2^22, 1G, a comma-separated list, or 2^16:2^30")
      ->capture_default_str();
  add_dtype_option(cmd, a.dtype);
  cmd->add_option("--op", a.op, "Reduction operator")->check(CLI::IsMember(reduce::op_names()))->capture_default_str();
  cmd->add_option("--block", a.opts.block, "Threads per block: a power of two from 32 to 1024")->capture_default_str();
  add_run_options(cmd, a.opts.device, a.opts.seed, a.opts.measure, a.out);
}

struct GemmArgs {
  gemm::Options opts;
  std::string m = "4096", n = "4096", k = "4096";
  OutputArgs out;
};

void add_gemm(CLI::App& app, GemmArgs& a) {
  auto* cmd = app.add_subcommand("gemm", "Run the matrix-multiplication ladder (naive ... tensor cores, cuBLAS)");
  add_variant_option(cmd, a.opts.variants, "gemm");
  cmd->add_option("--m", a.m, "Rows of A and C")->capture_default_str();
  cmd->add_option("--n", a.n, "Columns of B and C")->capture_default_str();
  cmd->add_option("--k", a.k, "Columns of A, rows of B")->capture_default_str();
  add_run_options(cmd, a.opts.device, a.opts.seed, a.opts.measure, a.out);
}

struct ScanArgs {
  scan::Options opts;
  std::string n = "2^28", dtype = "int32", kind = "inclusive";
  OutputArgs out;
};

void add_scan(CLI::App& app, ScanArgs& a) {
  auto* cmd = app.add_subcommand("scan", "Run the prefix-sum ladder (Kogge-Stone ... decoupled look-back, cub, cpu)");
  add_variant_option(cmd, a.opts.variants, "scan");
  cmd->add_option("-n,--n", a.n, "Elements to scan: 4194304, 4M, 2^22, a comma-separated list, or 2^16:2^30")
      ->capture_default_str();
  add_dtype_option(cmd, a.dtype);
  cmd->add_option("--kind", a.kind, "inclusive (out[i] includes in[i]) or exclusive")
      ->check(CLI::IsMember(scan::kind_names()))
      ->capture_default_str();
  add_run_options(cmd, a.opts.device, a.opts.seed, a.opts.measure, a.out);
}

std::vector<PlannedRun> plan_scan(ScanArgs& a) {
  const std::vector<std::int64_t> sizes = sizes_of("--n", a.n);
  a.opts.dtype = reduce::dtype_named(a.dtype);
  a.opts.kind = scan::kind_named(a.kind);
  scan::select_steps(a.opts.variants);  // unknown names fail before any work
  return scan::plan_sizes(a.opts, sizes);
}

// One run per m x n x k; each flag takes a size, a list or a sweep.
std::vector<PlannedRun> plan_gemm(GemmArgs& a) {
  const auto ms = sizes_of("--m", a.m), ns = sizes_of("--n", a.n), ks = sizes_of("--k", a.k);
  gemm::select_steps(a.opts.variants);
  return gemm::plan_sizes(a.opts, ms, ns, ks);
}

// Runs everything planned, prints one table per parameter set, writes the
// files; exit 1 when any result failed verification.
int run_and_report(const std::vector<PlannedRun>& runs, const OutputArgs& o, std::optional<nlohmann::json> config,
                   bool progress, std::ostream& out, std::ostream& err) {
  if (!o.json_path.empty()) check_writable(o.json_path);
  if (!o.csv_path.empty()) check_writable(o.csv_path);
  for (const auto& r : runs) r.check();  // every run fits before the first starts
  RunReport report;
  report.config = std::move(config);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (progress) err << fmt::format("[{}/{}] {}\n", i + 1, runs.size(), runs[i].description) << std::flush;
    append(report, runs[i].run());
  }
  out << (o.markdown ? format_markdown(report) : format_table(report)) << std::flush;
  std::vector<std::pair<std::string, std::string>> files;
  if (!o.json_path.empty()) files.emplace_back(o.json_path, to_json(report).dump(2) + "\n");
  if (!o.csv_path.empty()) files.emplace_back(o.csv_path, format_csv(report));
  write_files(files);
  for (const auto& r : report.results)
    if (!r.verified) return kExitVerifyFailed;
  return kExitOk;
}

std::vector<PlannedRun> plan_reduce(ReduceArgs& a) {
  const std::vector<std::int64_t> sizes = sizes_of("--n", a.n);
  a.opts.dtype = reduce::dtype_named(a.dtype);
  a.opts.op = reduce::op_named(a.op);
  reduce::select_steps(a.opts.variants);  // unknown names fail before any work
  return reduce::plan_sizes(a.opts, sizes);
}

struct CompareArgs {
  std::string base, fresh, threshold = "5%", json_path;
  bool markdown = false;
  compare::Options opts;
};

double parse_threshold(const std::string& text) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == '%') digits.pop_back();
  try {
    std::size_t used = 0;
    const double pct = std::stod(digits, &used);
    if (used == digits.size() && pct >= 0 && pct < 100) return pct / 100;
  } catch (const std::exception&) {
    // reported below
  }
  throw UsageError(fmt::format("--threshold '{}': expected a percentage such as 5%", text));
}

int run_compare(CompareArgs& a, std::ostream& out) {
  a.opts.threshold = parse_threshold(a.threshold);
  if (!a.json_path.empty()) check_writable(a.json_path);
  auto load = [](const std::string& path) {
    try {
      return report_from_json(config::load_json_file(path));
    } catch (const UsageError& e) {
      throw UsageError(path + ": " + e.what());
    }
  };
  const RunReport base = load(a.base), fresh = load(a.fresh);
  const compare::Comparison c = compare::compare(base, fresh, a.opts);
  out << compare::format_comparison(c, a.markdown) << std::flush;
  if (!a.json_path.empty()) write_files({{a.json_path, compare::to_json(c).dump(2) + "\n"}});
  return compare::exit_code(c);
}

int run_list(const std::string& pattern, std::ostream& out) {
  if (!pattern.empty() && std::find(kPatterns.begin(), kPatterns.end(), pattern) == kPatterns.end())
    throw UsageError(fmt::format("unknown pattern '{}'; valid: {}", pattern, fmt::join(kPatterns, ", ")));
  if (pattern.empty() || pattern == "reduce") {
    out << "reduce: parallel reduction of n elements to one value\n";
    for (const auto& s : reduce::ladder())
      out << fmt::format("  {:<18}  {:<11}  {}\n", s.name, reduce::ladder_name(s.ladder), s.summary);
  }
  if (pattern.empty() || pattern == "gemm") {
    out << "gemm: C = A * B, row-major float matrices\n";
    for (const auto& s : gemm::ladder())
      out << fmt::format("  {:<18}  {:<11}  {}\n", s.name, gemm::ladder_name(s.ladder), s.summary);
  }
  if (pattern.empty() || pattern == "scan") {
    out << "scan: prefix sum (inclusive or exclusive) of n elements\n";
    for (const auto& s : scan::ladder())
      out << fmt::format("  {:<26}  {:<11}  {}\n", s.name, scan::ladder_name(s.ladder), s.summary);
  }
  return kExitOk;
}

int run_info(int device, std::ostream& out) {
  DeviceInfo d = open_device(device);
  cudaStream_t stream;
  GPUBENCH_CUDA(cudaStreamCreate(&stream));
  d.copy_gbps = measure_copy_gbps(stream);
  GPUBENCH_CUDA(cudaStreamDestroy(stream));
  out << fmt::format(
      "device {}: {}\n  compute capability {}.{}, {} SMs, {} threads/SM\n  L2 {} MiB, memory {:.1f} GiB\n"
      "  SM clock {} MHz, memory clock {} MHz, bus {} bits\n  theoretical DRAM bandwidth {:.0f} GB/s\n"
      "  measured device-to-device copy {:.0f} GB/s (read + write)\n",
      d.index, d.name, d.cc_major, d.cc_minor, d.sm_count, d.max_threads_per_sm, d.l2_bytes >> 20,
      d.memory_bytes / double(1ull << 30), d.sm_clock_mhz, d.memory_clock_mhz, d.bus_width_bits, d.theoretical_gbps,
      d.copy_gbps);
  return kExitOk;
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err, bool progress) {
  CLI::App app{"gpubench: the classic GPU optimization ladders, verified and measured"};
  app.set_version_flag("--version", std::string("gpubench ") + GPUBENCH_VERSION + " (" + GPUBENCH_GIT_COMMIT + ")");
  app.require_subcommand(1);

  ReduceArgs reduce_args;
  add_reduce(app, reduce_args);
  GemmArgs gemm_args;
  add_gemm(app, gemm_args);
  ScanArgs scan_args;
  add_scan(app, scan_args);
  std::string list_pattern;
  app.add_subcommand("list", "List patterns and their ladder steps")
      ->add_option("pattern", list_pattern, "Only this pattern");
  int info_device = 0;
  app.add_subcommand("info", "Describe the GPU and measure its copy bandwidth")
      ->add_option("--device", info_device, "CUDA device index");

  std::string config_path;
  OutputArgs run_out;
  auto* run_cmd = app.add_subcommand("run", "Run the benchmarks a JSON config lists (docs/configs.md)");
  run_cmd->add_option("config", config_path, "Config file")->required();
  add_output_options(run_cmd, run_out);

  CompareArgs cmp;
  auto* cmp_cmd = app.add_subcommand("compare", "Compare two result files; exit 1 on a regression");
  cmp_cmd->add_option("base", cmp.base, "Baseline results (JSON)")->required();
  cmp_cmd->add_option("new", cmp.fresh, "New results (JSON)")->required();
  cmp_cmd->add_option("--threshold", cmp.threshold, "Smallest change that counts, e.g. 5%")->capture_default_str();
  cmp_cmd->add_flag("--allow-device-mismatch", cmp.opts.allow_device_mismatch, "Compare runs from different GPUs");
  cmp_cmd->add_option("--json", cmp.json_path, "Write the comparison as JSON (for scripts/plot.py)");
  cmp_cmd->add_flag("--md", cmp.markdown, "Print the table as markdown");

  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      out << app.help();
      return kExitOk;
    } catch (const CLI::CallForVersion& e) {
      out << e.what() << "\n";
      return kExitOk;
    } catch (const CLI::ParseError& e) {
      // CLI11 reports a misspelt command as a missing one; name it instead.
      if (argc > 1 && argv[1][0] != '-') {
        std::vector<std::string> commands;
        for (const auto* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
        if (std::find(commands.begin(), commands.end(), argv[1]) == commands.end())
          throw UsageError(fmt::format("unknown command '{}'; valid: {}", argv[1], fmt::join(commands, ", ")));
      }
      throw UsageError(std::string(e.what()) + " (see gpubench --help)");
    }
    const std::string cmd = app.get_subcommands().front()->get_name();
    if (cmd == "reduce") return run_and_report(plan_reduce(reduce_args), reduce_args.out, std::nullopt, progress, out, err);
    if (cmd == "gemm") return run_and_report(plan_gemm(gemm_args), gemm_args.out, std::nullopt, progress, out, err);
    if (cmd == "scan") return run_and_report(plan_scan(scan_args), scan_args.out, std::nullopt, progress, out, err);
    if (cmd == "run") {
      const nlohmann::json doc = config::load_json_file(config_path);
      std::vector<PlannedRun> runs;
      try {
        runs = config::plan(doc);
      } catch (const UsageError& e) {
        throw UsageError(config_path + ": " + e.what());
      }
      return run_and_report(runs, run_out, doc, progress, out, err);
    }
    if (cmd == "compare") return run_compare(cmp, out);
    if (cmd == "list") return run_list(list_pattern, out);
    return run_info(info_device, out);
  } catch (const UsageError& e) {
    err << "gpubench: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    err << "gpubench: error: " << e.what() << "\n";
    return kExitNoDevice;
  } catch (const CudaError& e) {
    err << "gpubench: CUDA error: " << e.what() << "\n";
    return kExitCudaError;
  } catch (const std::bad_alloc&) {
    err << "gpubench: error: out of host memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    err << "gpubench: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace gpubench
