// Runs started by mpirun or srun: the rank from the launcher's environment,
// the GPU a rank takes, and the one report rank 0 merges from every rank's.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <fmt/format.h>

#include "src/compare/fleet.hpp"
#include "src/detail/json_file.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/stats.hpp"
#include "src/ranks/launch.hpp"
#include "src/report/json_report.hpp"
#include "src/report/table.hpp"

using namespace gpubench;

namespace {

EnvLookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

std::string usage_error(const std::map<std::string, std::string>& vars) {
  try {
    launched_rank(env_of(vars));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// Rank i of a launch: a real H200 result, on a host of its own, on a GPU
// of its own, `slower` times slower.
RunReport rank_report(int i, double slower) {
  RunReport r = report_from_json(load_json_file(std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/reduce-2p22.json"));
  r.host["name"] = fmt::format("node{}", i);
  r.devices.at(0).uuid = fmt::format("GPU-0000000{}-0000-0000-0000-000000000000", i);
  for (BenchResult& b : r.results) {
    for (double& s : b.samples_ms) s *= slower;
    b.stats = summarize(b.samples_ms);
  }
  return r;
}

}  // namespace

TEST_CASE("ranks: Open MPI's and srun's variables name the rank, a batch script alone is no launch") {
  CHECK_FALSE(launched_rank(env_of({})));
  const auto mpi = launched_rank(env_of(
      {{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}}));
  REQUIRE(mpi);
  CHECK(mpi->rank == 3);
  CHECK(mpi->size == 8);
  CHECK(mpi->local_rank == 1);
  CHECK(mpi->launcher == "mpirun");
  const auto srun = launched_rank(env_of({{"SLURM_STEP_ID", "0"},
                                          {"SLURM_PROCID", "5"},
                                          {"SLURM_STEP_NUM_TASKS", "16"},
                                          {"SLURM_LOCALID", "2"},
                                          {"SLURM_NTASKS", "16"}}));
  REQUIRE(srun);
  CHECK(srun->rank == 5);
  CHECK(srun->size == 16);
  CHECK(srun->local_rank == 2);
  CHECK(srun->launcher == "srun");
  // sbatch runs its script once, with the allocation's task count but no step.
  CHECK_FALSE(launched_rank(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "16"}, {"SLURM_LOCALID", "0"}})));
}

TEST_CASE("ranks: a malformed launcher variable is one line naming it") {
  CHECK(usage_error({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}}) ==
        "OMPI_COMM_WORLD_RANK='x' is not a whole number from 0 up");
  CHECK(usage_error({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}}) ==
        "OMPI_COMM_WORLD_RANK=2 is not below OMPI_COMM_WORLD_SIZE=2");
  CHECK(usage_error({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}}) ==
        "OMPI_COMM_WORLD_SIZE is not set, though the launcher set the other rank variables");
  CHECK(usage_error({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "0"}, {"SLURM_STEP_NUM_TASKS", "0"}, {"SLURM_LOCALID", "0"}}) ==
        "SLURM_STEP_NUM_TASKS='0' is not a whole number from 1 up");
  for (const char* bad : {"-1", "+1", " 1", "1 ", "2147483648"})
    CHECK(usage_error({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", bad}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}}) ==
          fmt::format("OMPI_COMM_WORLD_SIZE='{}' is not a whole number from 1 up", bad));
}

TEST_CASE("ranks: each rank takes the GPU of its local rank, or the one GPU bound to it") {
  Rank r;
  r.rank = 5;
  r.size = 8;
  r.local_rank = 1;
  CHECK(rank_device(r, 4, false) == 1);
  CHECK(rank_device(r, 1, true) == 0);  // its launcher bound one GPU to it
  CHECK_THROWS_WITH(rank_device(r, 1, false),
                    "rank 5 is local rank 1 on its host, which shows it 1 GPU: start at most one rank per GPU, or bind "
                    "one to each rank (CUDA_VISIBLE_DEVICES, srun --gpus-per-task=1)");
}

TEST_CASE("ranks: rank 0's report holds every rank's rows, each GPU with its rank, host and CUDA index") {
  Rank launch;
  launch.size = 3;
  launch.launcher = "srun";
  const RunReport merged = merge_ranks({rank_report(0, 1.0), rank_report(1, 1.0), rank_report(2, 1.10)}, launch);
  const std::size_t rows = rank_report(0, 1.0).results.size();
  REQUIRE(merged.results.size() == 3 * rows);
  REQUIRE(merged.devices.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(merged.devices[i].index == i);
    CHECK(merged.devices[i].rank == i);
    CHECK(merged.devices[i].cuda_index == 0);
    CHECK(merged.devices[i].host == fmt::format("node{}", i));
    CHECK(merged.results[i * rows].device == i);
  }
  CHECK(merged.launch.at("ranks") == 3);
  CHECK(merged.launch.at("hosts").size() == 3);

  SECTION("the JSON keeps it") {
    const RunReport back = report_from_json(to_json(merged));
    CHECK(back.devices.at(2).host == "node2");
    CHECK(back.devices.at(2).rank == 2);
    CHECK(back.devices.at(2).cuda_index == 0);
    CHECK(back.launch == merged.launch);
  }
  SECTION("the table names each rank and its host") {
    const std::string t = format_table(merged);
    CHECK(t.find("on node1 (rank 1, CUDA device 0)") != std::string::npos);
    CHECK(t.find("seed=42 L2=flushed rank=2") != std::string::npos);
  }
  SECTION("fleet finds the slow GPU by its host and UUID") {
    const auto f = fleet::judge({{"fleet.json", merged}}, 0.05);
    CHECK(fleet::exit_code(f) == 1);
    REQUIRE_FALSE(f.rows.empty());
    for (const auto& row : f.rows)
      for (const auto& d : row.devices) CHECK(d.slow == (d.device.find("node2 GPU-00000002") == 0));
  }
}
