// A run started as several processes by mpirun or srun: which rank this
// process is, which GPU it takes, and the one report rank 0 writes for all.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/report/result.hpp"

namespace gpubench {

struct Rank {
  int rank = 0, size = 1;  // this process among `size`
  int local_rank = 0;      // among the ranks on this host: the GPU it takes
  std::string launcher;    // "mpirun" (Open MPI) or "srun" (Slurm)
};

using EnvLookup = std::function<const char*(const char*)>;

// The rank the launcher's environment describes: Open MPI's OMPI_COMM_WORLD_*
// or, inside an srun step, Slurm's SLURM_PROCID, SLURM_STEP_NUM_TASKS and
// SLURM_LOCALID (a batch script alone is no launch). Empty when neither is
// set; UsageError naming the variable when one is malformed.
std::optional<Rank> launched_rank(const EnvLookup& env);

// The CUDA device of a rank that runs device steps: its local rank; or
// device 0 where the rank sees one GPU and CUDA_VISIBLE_DEVICES is set (a
// launcher that binds a GPU to each rank, as srun --gpus-per-task=1 does).
// UsageError when the rank's GPU is not there.
int rank_device(const Rank& r, int device_count, bool visible_devices_set);

// One report from every rank's, in rank order. Each rank ran on one GPU,
// so the GPU of rank i becomes device i, with its rank, host and CUDA
// index recorded, and each row's device is its rank's.
RunReport merge_ranks(std::vector<RunReport> per_rank, const Rank& launch);

}  // namespace gpubench
