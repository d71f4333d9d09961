#include "src/cli/commands.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "git_commit.hpp"  // generated at build time: GPUBENCH_GIT_COMMIT

#include "src/compare/compare.hpp"
#include "src/compare/fleet.hpp"
#include "src/config/config.hpp"
#include "src/core/devices_at_once.hpp"
#include "src/core/runner.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/json_file.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/strings.hpp"
#include "src/ranks/launch.hpp"
#include "src/ranks/rank_channel.hpp"
#include "src/report/csv_report.hpp"
#include "src/report/json_report.hpp"
#include "src/report/output_file.hpp"
#include "src/report/table.hpp"

namespace gpubench {
namespace {

// The length of the UTF-8 character that starts at `s`, 0 when none does.
std::size_t utf8_length(const unsigned char* s) {
  const std::size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
  for (std::size_t i = 1; i < n; ++i)
    if ((s[i] & 0xC0) != 0x80) return 0;  // a zero byte ends the check too
  return n;
}

// A message as one line: the control characters a name from the user may
// carry (a newline, a terminal's escape codes, C1 and bidirectional ones) and
// bytes that are not UTF-8 written as \n, \x1b or \u009b; cut after 2000
// bytes, since a message may repeat what the user gave (a 100 KB --variant).
std::string one_line(const char* message) {
  constexpr std::size_t kMost = 2000;
  const std::string text = message;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (out.size() >= kMost) return out + " ...";
    const auto* c = reinterpret_cast<const unsigned char*>(text.data() + i);
    const std::size_t n = *c < 0x80 ? 1 : utf8_length(c);
    if (*c == '\n') out += "\\n";
    else if (n == 0 || *c < 0x20 || *c == 0x7f) out += fmt::format("\\x{:02x}", *c);
    else out += escape_display_controls(text.substr(i, n));
    i += n == 0 ? 1 : n;
  }
  return out;
}

// One line on stderr for what ended the command, and its exit code.
int report_failure(std::exception_ptr failure, std::ostream& err) {
  try {
    std::rethrow_exception(failure);
  } catch (const UsageError& e) {
    err << "gpubench: error: " << one_line(e.what()) << "\n";
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    err << "gpubench: error: " << one_line(e.what()) << "\n";
    return kExitNoDevice;
  } catch (const CudaError& e) {
    err << "gpubench: CUDA error: " << one_line(e.what()) << "\n";
    return kExitCudaError;
  } catch (const std::bad_alloc&) {
    err << "gpubench: error: out of host memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    err << "gpubench: internal error: " << one_line(e.what()) << "\n";
    return kExitInternal;
  } catch (...) {
    err << "gpubench: internal error: an unknown exception\n";
    return kExitInternal;
  }
}

bool all_verified(const RunReport& report) {
  return std::all_of(report.results.begin(), report.results.end(), [](const BenchResult& r) { return r.verified; });
}

// How a command runs what it planned, and where the results go.
struct OutputArgs {
  std::string json_path, csv_path;
  bool markdown = false, dry_run = false, concurrent = false;
  CLI::Option *json = nullptr, *csv = nullptr;
};

void add_output_options(CLI::App* cmd, OutputArgs& o) {
  o.json = cmd->add_option("--json", o.json_path, "Write the results as JSON (docs/json-schema.md); '-': standard output");
  o.csv = cmd->add_option("--csv", o.csv_path, "Write the results as CSV; '-': standard output");
  cmd->add_flag("--md", o.markdown, "Print the table as markdown");
  cmd->add_flag("--dry-run", o.dry_run, "Check everything that needs no GPU and list the runs, without running them");
  cmd->add_flag("--concurrent", o.concurrent,
                "With runs on several devices (--devices, a config's params.device): one host thread per device, "
                "all at the same time, instead of one device after another");
}

// The outputs a command was given, in order; an empty one is an error.
std::vector<std::string> named_outputs(std::initializer_list<std::pair<const CLI::Option*, const std::string*>> options) {
  std::vector<std::string> paths;
  for (const auto& [option, path] : options) {
    if (!option || option->count() == 0) continue;
    if (path->empty()) throw UsageError(option->get_name() + ": an empty path (write '-' for standard output)");
    if (path->size() > 1 && path->front() == '-')  // "--json --" takes "--" as its value
      throw UsageError(fmt::format("{} '{}': looks like an option, not a path (write ./{} for a file of that name)",
                                   option->get_name(), *path, *path));
    paths.push_back(*path);
  }
  return paths;
}

// A pattern's subcommand: one option per axis, and the options every
// pattern shares (variants, device, seed, sampling, output).
struct PatternArgs {
  const Pattern* pattern = nullptr;
  std::map<std::string, std::string> axis_text;  // as written, parsed by the axis after CLI11
  std::string seeds = "42";
  std::string devices;  // --devices as written
  const CLI::Option* devices_option = nullptr;  // whether --devices was given (an empty list is an error)
  const CLI::Option* device_option = nullptr;   // whether --device was given
  std::size_t max_runs = kDefaultMaxRuns;
  RunRequest request;
  OutputArgs out;
};

std::vector<Point> parse_seeds(const std::string& text) {
  std::vector<Point> seeds;
  for (const std::string& item : split(text, ',')) {
    const std::optional<std::uint64_t> seed = whole_number(item);
    if (!seed || *seed > std::uint64_t(INT64_MAX))
      throw UsageError(fmt::format("--seed {}: expected an integer from 0 to 2^63-1", quoted(nlohmann::json(item))));
    seeds.emplace_back(*seed);
  }
  return seeds;
}

std::string axis_help(const Axis& a) {
  if (a.kind != Axis::Kind::choice) return a.help;
  return fmt::format("{}: {} (a comma-separated list runs each)", a.help, fmt::join(a.choices, ", "));
}

// Whole numbers from `least` to `most`, written in decimal digits (CLI11's
// own checks take 0x10 for 16 and call 1e3 out of range). UINT64_MAX: up
// to the option type's maximum, which no one needs to read in a message.
CLI::Validator whole_in(std::uint64_t least, std::uint64_t most, const std::string& name) {
  return CLI::Validator(
      [least, most](std::string& text) -> std::string {
        const std::optional<std::uint64_t> n = whole_number(text);
        if (n && *n >= least && *n <= most) return "";
        const std::string range =
            most == UINT64_MAX ? fmt::format("from {} up", least) : fmt::format("from {} to {}", least, most);
        return fmt::format("expected a whole number {}, got {}", range, quoted(nlohmann::json(text)));
      },
      name);
}

// Plain decimals from 0 to `most` only. `what` names them in the message ("seconds").
CLI::Validator decimal_up_to(double most, const std::string& what, const std::string& name) {
  return CLI::Validator(
      [most, what](std::string& text) -> std::string {
        const std::optional<double> v = plain_decimal(text);
        return v && *v <= most ? ""
                               : fmt::format("expected decimal {} from 0 to {}, got {}", what, most,
                                             quoted(nlohmann::json(text)));
      },
      name);
}

CLI::App* add_pattern(CLI::App& app, PatternArgs& a) {
  const Pattern& p = *a.pattern;
  a.request.pattern = &p;
  a.request.measure = p.measure;
  auto* cmd = app.add_subcommand(p.name, p.help);
  cmd->add_option("-v,--variant", a.request.variants,
                  fmt::format("'all' or a comma-separated list of steps (see 'gpubench list {}')", p.name))
      ->capture_default_str();
  for (const Axis& axis : p.axes) {
    std::string& text = a.axis_text[axis.name] = axis.fallback;
    cmd->add_option(axis.flags.empty() ? "--" + axis.name : axis.flags, text, axis_help(axis))->capture_default_str();
  }
  MeasureOptions& m = a.request.measure;
  auto* device =
      cmd->add_option("--device", a.request.device, "CUDA device index")
          ->check(whole_in(0, 1023, "INT in [0 - 1023]"))
          ->capture_default_str();
  a.device_option = device;
  a.devices_option =
      cmd->add_option("--devices", a.devices,
                      p.min_devices > 1 ? "'all' or a comma-separated list of CUDA device indices: each run spans them all"
                                        : "'all' or a comma-separated list of CUDA device indices: the runs on each, "
                                          "one device after another")
          ->excludes(device);
  cmd->add_option("--seed", a.seeds, "Seed of the random input, from 0 to 2^63-1; a comma-separated list runs each")
      ->capture_default_str();
  cmd->add_option("--max-runs", a.max_runs, "Refuse a cross product of more runs than this")
      ->check(whole_in(1, UINT64_MAX, "N"))
      ->capture_default_str();
  cmd->add_flag("--hot", m.hot, "Do not flush the GPU's L2 (for host steps, the host's caches) before each sample");
  cmd->add_option("--min-samples", m.min_samples, "Timed samples per variant, at least")
      ->check(whole_in(1, 100000, "INT in [1 - 100000]"))
      ->capture_default_str();
  cmd->add_option("--min-time", m.min_time_s, "Seconds of sampling per variant, at least")
      ->check(decimal_up_to(3600, "seconds", "SECONDS"))
      ->capture_default_str();
  cmd->add_option("--throttle-threshold", m.throttle_threshold,
                  "Fraction of the maximum SM clock below which a sample is suspect")
      ->check(decimal_up_to(1, "fractions", "FRACTION"))
      ->capture_default_str();
  cmd->add_flag("--discard-on-throttle", m.discard_on_throttle,
                "Retake samples taken while the clock was held down, up to 3 times per variant, after a cool-down");
  cmd->add_flag("--energy", m.energy, "After the samples, measure energy per run over back-to-back runs (NVML)");
  cmd->add_option("--energy-time", m.energy_time_s, "Seconds of back-to-back runs for --energy, at least")
      ->check(decimal_up_to(600, "seconds", "SECONDS"))
      ->capture_default_str();
  add_output_options(cmd, a.out);
  return cmd;
}

// One request per point of the axes' cross product; unknown steps fail first.
std::vector<RunRequest> plan(const PatternArgs& a) {
  RunRequest base = a.request;
  base.variants = chosen_steps(*a.pattern, a.request.variants);
  std::map<std::string, std::vector<Point>> values;
  for (const Axis& axis : a.pattern->axes)
    values[axis.name] = values_from_text(axis, a.axis_text.at(axis.name), "--" + axis.name);
  values["seed"] = parse_seeds(a.seeds);
  const std::vector<RunRequest> runs = cross_product(base, values, a.max_runs);
  if (a.devices_option->count()) return on_devices(runs, parse_devices(a.devices, "--devices"), a.max_runs);
  if (a.pattern->min_devices <= 1) return runs;
  // A run that spans devices takes every one unless told which.
  return on_devices(runs, a.device_option->count() ? std::vector<int>{a.request.device} : parse_devices("all", "--devices"),
                    a.max_runs);
}

// The --json and --csv paths, checked before anything runs.
std::vector<OutputTarget> output_targets(const OutputArgs& o, const std::vector<std::string>& inputs) {
  return check_outputs(named_outputs({{o.json, &o.json_path}, {o.csv, &o.csv_path}}), inputs);
}

// Prints the report's tables and writes its files (to the targets
// check_outputs gave, in the order named_outputs named them); exit 1 when
// any result failed verification.
int print_and_write(const RunReport& report, const OutputArgs& o, const std::vector<OutputTarget>& targets,
                    std::ostream& out, std::ostream& err) {
  // A results file on standard output leaves the table to stderr.
  const bool table_to_err = std::any_of(targets.begin(), targets.end(), [](const OutputTarget& t) {
    return t.kind == OutputTarget::Kind::standard_output;
  });
  (table_to_err ? err : out) << (o.markdown ? format_markdown(report) : format_table(report)) << std::flush;
  std::vector<std::pair<OutputTarget, std::string>> files;
  std::size_t next = 0;
  if (o.json->count()) files.emplace_back(targets[next++], to_json(report).dump(2) + "\n");
  if (o.csv->count()) files.emplace_back(targets[next++], format_csv(report));
  write_outputs(files, out);
  return all_verified(report) ? kExitOk : kExitVerifyFailed;
}

// Every run fits before the first starts (what needs no GPU was checked
// before). Then every run, in order, or with --concurrent each device's on a
// thread of its own.
RunReport run_all(const std::vector<RunRequest>& runs, std::optional<nlohmann::json> config, bool progress,
                  bool concurrent, std::ostream& err) {
  for (const auto& r : runs) check(r);
  RunReport report;
  report.config = std::move(config);
  if (concurrent) {
    for (RunReport& r : run_devices_at_once(runs, progress, err)) append(report, std::move(r));
    return report;
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (progress) err << fmt::format("[{}/{}] {}\n", i + 1, runs.size(), describe(runs[i])) << std::flush;
    append(report, run(runs[i], err));
  }
  return report;
}

int dry_run(const std::vector<RunRequest>& runs, std::ostream& out) {
  for (std::size_t i = 0; i < runs.size(); ++i) out << fmt::format("[{}/{}] {}\n", i + 1, runs.size(), describe(runs[i]));
  return kExitOk;
}

// One rank of an mpirun or srun launch: it runs everything planned on the
// GPU of its local rank, and rank 0 prints and writes one report of every
// rank's rows. A rank that fails ends them all, so none waits for it.
int run_as_rank(const Rank& rank, std::vector<RunRequest> runs, const OutputArgs& o, std::optional<nlohmann::json> config,
                const std::vector<std::string>& inputs, bool progress, std::ostream& out, std::ostream& err) {
  RankChannel channel(rank);
  try {
    channel.check_world();
    const bool root = rank.rank == 0;
    for (RunRequest& r : runs) {
      if (r.pattern->min_devices > 1)
        throw UsageError(fmt::format("{} runs across several GPUs of one process; started by {}, each rank has one: "
                                     "run it without {}",
                                     r.pattern->name, rank.launcher, rank.launcher));
      if (r.device != 0)
        throw UsageError(fmt::format("started by {}, each rank runs on the GPU of its local rank: leave out --device, "
                                     "--devices and params.device",
                                     rank.launcher));
      if (const int gpus = cuda_device_count(); has_device_steps(r) && gpus > 0)
        r.device = rank_device(rank, gpus, std::getenv("CUDA_VISIBLE_DEVICES") != nullptr);
    }
    std::vector<OutputTarget> targets;
    if (root) targets = output_targets(o, inputs);
    for (const auto& r : runs) check_host(r);
    if (o.dry_run) return root ? dry_run(runs, out) : kExitOk;
    const RunReport mine = run_all(runs, std::move(config), progress && root, false, err);  // a rank has one GPU
    const std::vector<std::string> texts = channel.gather(to_json(mine).dump());
    if (!root) return all_verified(mine) ? kExitOk : kExitVerifyFailed;
    std::vector<RunReport> reports;
    for (const std::string& t : texts) reports.push_back(report_from_json(nlohmann::json::parse(t)));
    return print_and_write(merge_ranks(std::move(reports), rank), o, targets, out, err);
  } catch (...) {
    channel.abort(report_failure(std::current_exception(), err));
  }
}

// Runs everything planned, prints one table per parameter set, writes the
// files; exit 1 when any result failed verification.
int run_and_report(const std::vector<RunRequest>& runs, const OutputArgs& o, std::optional<nlohmann::json> config,
                   const std::vector<std::string>& inputs, bool progress, std::ostream& out, std::ostream& err) {
  host_threads();  // a bad GPUBENCH_HOST_THREADS is refused before anything runs
  const std::optional<Rank> rank = launched_rank([](const char* name) { return std::getenv(name); });
  if (rank && rank->size > 1) return run_as_rank(*rank, runs, o, std::move(config), inputs, progress, out, err);
  const std::vector<OutputTarget> targets = output_targets(o, inputs);
  for (const auto& r : runs) check_host(r);
  if (o.concurrent) check_at_once(runs);  // what needs no GPU, --dry-run or not
  if (o.dry_run) return dry_run(runs, out);
  return print_and_write(run_all(runs, std::move(config), progress, o.concurrent, err), o, targets, out, err);
}

struct CompareArgs {
  std::string base, fresh, json_path;
  std::vector<std::string> thresholds;  // "5%", or "PATTERN=10%" for one pattern's rows
  bool markdown = false;
  compare::Options opts;
  CLI::Option* json = nullptr;
};

// A plain decimal percentage below 100, the % sign optional. compare's must
// be above 0: a change of 0 would be "the threshold or more", so a file
// compared with itself would have no row the same.
// `option` is the option's whole text, for the message ("NAME=0").
double parse_threshold(const std::string& text, bool zero_allowed, const std::string& option) {
  const std::optional<double> pct = plain_decimal(!text.empty() && text.back() == '%' ? text.substr(0, text.size() - 1) : text);
  if (pct && *pct < 100 && (zero_allowed || *pct > 0)) return *pct / 100;
  throw UsageError(fmt::format("--threshold {}: expected a percentage {} 100, such as 5%", quoted(nlohmann::json(option)),
                               zero_allowed ? "from 0 up to (not including)" : "above 0 and below"));
}

// A results file, its errors prefixed with its path.
RunReport load_results(const std::string& path) {
  const nlohmann::json doc = load_json_file(path);
  try {
    return report_from_json(doc);
  } catch (const UsageError& e) {
    throw UsageError(path + ": " + e.what());
  }
}

// compare's --threshold, given once or more: a percentage for every row, and
// PATTERN=PERCENT for one pattern's rows; each at most once.
void parse_thresholds(const std::vector<std::string>& texts, compare::Options& o) {
  bool have_default = false;
  for (const std::string& text : texts) {
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos) {
      if (have_default) throw UsageError("--threshold: a percentage for every row is given twice");
      have_default = true;
      o.threshold = parse_threshold(text, false, text);
      continue;
    }
    const std::string pattern = text.substr(0, eq);
    if (pattern.empty()) throw UsageError(fmt::format("--threshold {}: expected PATTERN=PERCENT", quoted(nlohmann::json(text))));
    if (!o.pattern_threshold.emplace(pattern, parse_threshold(text.substr(eq + 1), false, text)).second)
      throw UsageError(fmt::format("--threshold: pattern {} is given twice", quoted(nlohmann::json(pattern))));
  }
}

int run_compare(CompareArgs& a, std::ostream& out, std::ostream& err) {
  parse_thresholds(a.thresholds, a.opts);
  const std::vector<OutputTarget> targets = check_outputs(named_outputs({{a.json, &a.json_path}}), {a.base, a.fresh});
  const RunReport base = load_results(a.base), fresh = load_results(a.fresh);
  const compare::Comparison c = compare::compare(base, fresh, a.opts);
  (targets.empty() || targets[0].kind != OutputTarget::Kind::standard_output ? out : err)
      << compare::format_comparison(c, a.markdown) << std::flush;
  if (!targets.empty()) write_outputs({{targets[0], compare::to_json(c).dump(2) + "\n"}}, out);
  return compare::exit_code(c);
}

struct FleetArgs {
  std::vector<std::string> files;
  std::string threshold = "5%";
  bool markdown = false, allow_missing = false;
};

int run_fleet(const FleetArgs& a, std::ostream& out) {
  const double threshold = parse_threshold(a.threshold, true, a.threshold);
  std::vector<fleet::Input> inputs;
  for (const std::string& path : a.files) {
    for (const fleet::Input& earlier : inputs) {
      std::error_code ec;
      if (std::filesystem::equivalent(path, earlier.path, ec))
        throw UsageError(fmt::format("'{}' is given twice: its GPUs would count twice in the fleet", path));
    }
    inputs.push_back({path, load_results(path)});
  }
  const fleet::Fleet f = fleet::judge(inputs, threshold, a.allow_missing);
  out << fleet::format(f, a.markdown) << std::flush;
  return fleet::exit_code(f);
}

// Every pattern, or the one named (an empty name is no pattern's).
int run_list(const Registry& patterns, const std::optional<std::string>& name, std::ostream& out) {
  if (name && !patterns.find(*name))
    throw UsageError(fmt::format("unknown pattern '{}'; valid: {}", *name, fmt::join(patterns.names(), ", ")));
  for (const Pattern* p : patterns.patterns) {
    if (name && p->name != *name) continue;
    out << p->name << ": " << p->title << "\n";
    std::size_t width = 0, ladder_width = 0;
    for (const StepInfo& s : p->steps) {
      width = std::max(width, s.name.size());
      ladder_width = std::max(ladder_width, s.ladder.size());
    }
    for (const StepInfo& s : p->steps)
      out << fmt::format("  {:<{}}  {:<{}}  {}\n", s.name, width, s.ladder, ladder_width, s.summary);
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

// The command itself; run_cli adds the check that its output arrived.
int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const Registry& patterns,
                bool progress) {
  CLI::App app{"gpubench: the classic GPU optimization ladders, verified and measured"};
  app.set_version_flag("--version", std::string("gpubench ") + GPUBENCH_VERSION + " (" + GPUBENCH_GIT_COMMIT + ")");
  app.require_subcommand(1);
  app.fallthrough();  // --version after a command name, as before it

  std::list<PatternArgs> pattern_args;  // stable addresses: CLI11 writes into them
  for (const Pattern* p : patterns.patterns) {
    pattern_args.emplace_back();
    pattern_args.back().pattern = p;
    add_pattern(app, pattern_args.back());
  }
  std::string list_pattern;
  const CLI::Option* list_one = app.add_subcommand("list", "List patterns and their ladder steps")
                                    ->add_option("pattern", list_pattern, "Only this pattern");
  int info_device = 0;
  app.add_subcommand("info", "Describe the GPU and measure its copy bandwidth")
      ->add_option("--device", info_device, "CUDA device index")
      ->check(whole_in(0, 1023, "INT in [0 - 1023]"));

  std::string config_path;
  OutputArgs run_out;
  std::size_t run_max_runs = kDefaultMaxRuns;
  auto* run_cmd = app.add_subcommand("run", "Run the benchmarks a JSON config lists (docs/configs.md)");
  run_cmd->add_option("config", config_path, "Config file")->required();
  run_cmd->add_option("--max-runs", run_max_runs, "Refuse a config that plans more runs than this")
      ->check(whole_in(1, UINT64_MAX, "N"))
      ->capture_default_str();
  std::string run_devices;
  const CLI::Option* run_devices_option =
      run_cmd->add_option("--devices", run_devices,
                          "'all' or a comma-separated list of CUDA device indices, for every benchmark (in place of "
                          "params.device)");
  add_output_options(run_cmd, run_out);

  CompareArgs cmp;
  auto* cmp_cmd = app.add_subcommand("compare", "Compare two result files; exit 1 on a slower or failed row, 2 on bad input");
  cmp_cmd->add_option("base", cmp.base, "Baseline results (JSON)")->required();
  cmp_cmd->add_option("new", cmp.fresh, "New results (JSON)")->required();
  cmp_cmd
      ->add_option("--threshold", cmp.thresholds,
                   "Smallest change that counts (default 5%); PATTERN=PERCENT gives one pattern's rows their own; "
                   "may be given again")
      ->allow_extra_args(false);
  cmp_cmd->add_flag("--allow-device-mismatch", cmp.opts.allow_device_mismatch, "Compare runs from different GPUs");
  cmp_cmd->add_flag("--allow-missing", cmp.opts.allow_missing, "Pass although the new run lacks results of the baseline");
  cmp.json = cmp_cmd->add_option("--json", cmp.json_path, "Write the comparison as JSON (for scripts/plot.py); '-': standard output");
  cmp_cmd->add_flag("--md", cmp.markdown, "Print the table as markdown");

  FleetArgs fleet_args;
  auto* fleet_cmd = app.add_subcommand("fleet", "The same rows on several GPUs: exit 1 if a GPU is slower than the fleet, wrong, or lacks rows");
  fleet_cmd->add_option("results", fleet_args.files, "Result files (JSON): one run with --devices, or one per node")
      ->required();
  fleet_cmd->add_option("--threshold", fleet_args.threshold, "Slower than the fleet median by more than this is slow")
      ->capture_default_str();
  fleet_cmd->add_flag("--allow-missing", fleet_args.allow_missing,
                      "Pass although a GPU lacks rows that other GPUs of its kind ran");
  fleet_cmd->add_flag("--md", fleet_args.markdown, "Print the table as markdown");

  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      out << app.help();
      return kExitOk;
    } catch (const CLI::CallForVersion& e) {
      out << e.what() << "\n";
      return kExitOk;
    } catch (const CLI::ExtrasError&) {
      // CLI11's own message lists the leftover words in reverse ("0 --warmup").
      const std::vector<std::string> left = app.remaining(true);
      throw UsageError(fmt::format("not expected: {} (see gpubench --help)", fmt::join(left, " ")));
    } catch (const CLI::ParseError& e) {
      // CLI11 reports a misspelt command, or an option before any, as a
      // missing command; name what was given instead.
      if (argc > 1) {
        std::vector<std::string> commands;
        for (const auto* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
        if (argv[1][0] == '-' && app.get_subcommands().empty())
          throw UsageError(fmt::format("unknown option '{}': a command comes first ({}), its options after it",
                                       argv[1], fmt::join(commands, ", ")));
        if (argv[1][0] != '-' && std::find(commands.begin(), commands.end(), argv[1]) == commands.end())
          throw UsageError(fmt::format("unknown command '{}'; valid: {}", argv[1], fmt::join(commands, ", ")));
      }
      throw UsageError(std::string(e.what()) + " (see gpubench --help)");
    }
    const std::string cmd = app.get_subcommands().front()->get_name();
    for (const PatternArgs& a : pattern_args)
      if (cmd == a.pattern->name) return run_and_report(plan(a), a.out, std::nullopt, {}, progress, out, err);
    if (cmd == "run") {
      std::optional<std::vector<int>> devices;
      if (run_devices_option->count()) devices = parse_devices(run_devices, "--devices");
      const nlohmann::json doc = load_json_file(config_path);
      std::vector<RunRequest> runs;
      try {
        runs = config::plan(doc, patterns, run_max_runs, devices);
      } catch (const UsageError& e) {
        throw UsageError(config_path + ": " + e.what());
      }
      return run_and_report(runs, run_out, doc, {config_path}, progress, out, err);
    }
    if (cmd == "compare") return run_compare(cmp, out, err);
    if (cmd == "fleet") return run_fleet(fleet_args, out);
    if (cmd == "list") return run_list(patterns, list_one->count() ? std::optional(list_pattern) : std::nullopt, out);
    return run_info(info_device, out);
  } catch (...) {
    return report_failure(std::current_exception(), err);
  }
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const Registry& patterns,
            bool progress) {
  const int rc = run_command(argc, argv, out, err, patterns, progress);
  out.flush();
  // A full disk, a closed pipe: the output is lost, and exit 2 says so, as
  // the run's own write does, in place of a verdict nobody could read. An
  // error line already printed (exit 2 and above) may have said so.
  if (!out && rc <= kExitVerifyFailed) {
    err << "gpubench: error: writing the standard output failed\n";
    return kExitUsage;
  }
  return rc;
}

}  // namespace gpubench
