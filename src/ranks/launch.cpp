#include "src/ranks/launch.hpp"

#include <limits>
#include <optional>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

int env_int(const EnvLookup& env, const char* name, int least) {
  const char* text = env(name);
  if (!text) throw UsageError(fmt::format("{} is not set, though the launcher set the other rank variables", name));
  const std::optional<std::uint64_t> v = whole_number(text);
  if (!v || *v < std::uint64_t(least) || *v > std::uint64_t(std::numeric_limits<int>::max()))
    throw UsageError(fmt::format("{}='{}' is not a whole number from {} up", name, text, least));
  return int(*v);
}

Rank read_rank(const EnvLookup& env, const char* rank, const char* size, const char* local, const char* launcher) {
  Rank r;
  r.rank = env_int(env, rank, 0);
  r.size = env_int(env, size, 1);
  r.local_rank = env_int(env, local, 0);
  r.launcher = launcher;
  if (r.rank >= r.size) throw UsageError(fmt::format("{}={} is not below {}={}", rank, r.rank, size, r.size));
  return r;
}

}  // namespace

std::optional<Rank> launched_rank(const EnvLookup& env) {
  if (env("OMPI_COMM_WORLD_RANK"))
    return read_rank(env, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "mpirun");
  if (env("SLURM_STEP_ID") && env("SLURM_PROCID"))
    return read_rank(env, "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID", "srun");
  return std::nullopt;
}

int rank_device(const Rank& r, int device_count, bool visible_devices_set) {
  if (device_count == 1 && visible_devices_set) return 0;
  if (r.local_rank >= device_count)
    throw UsageError(fmt::format("rank {} is local rank {} on its host, which shows it {} GPU{}: start at most one rank "
                                 "per GPU, or bind one to each rank (CUDA_VISIBLE_DEVICES, srun --gpus-per-task=1)",
                                 r.rank, r.local_rank, device_count, device_count == 1 ? "" : "s"));
  return r.local_rank;
}

RunReport merge_ranks(std::vector<RunReport> per_rank, const Rank& launch) {
  RunReport out;
  out.launch = {{"launcher", launch.launcher}, {"ranks", per_rank.size()}, {"hosts", nlohmann::json::array()}};
  for (std::size_t i = 0; i < per_rank.size(); ++i) {
    RunReport& r = per_rank[i];
    const std::string host = host_name(r);
    out.launch["hosts"].push_back(r.host);
    for (DeviceInfo& d : r.devices) {
      d.cuda_index = d.index;
      d.index = int(i);
      d.rank = int(i);
      d.host = host;
      out.devices.push_back(std::move(d));
    }
    for (UnavailableStep& u : r.unavailable) u.row.device = int(i);
    for (BenchResult& b : r.results) b.device = int(i);
    append_rows(out, r);
    if (i == 0) {
      out.host = r.host;
      out.config = r.config;
    }
  }
  return out;
}

}  // namespace gpubench
