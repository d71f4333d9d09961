// How the ranks of a launch send their reports to rank 0: MPI, from a
// plugin (libgpubench_mpi.so, built beside gpubench where MPI is installed)
// loaded only for a launch of several ranks, so gpubench neither links MPI
// nor needs it to run alone.
#pragma once

#include <string>
#include <vector>

#include "src/ranks/launch.hpp"

namespace gpubench {

class RankChannel {
 public:
  // Initializes MPI. UsageError when the plugin cannot be loaded or MPI
  // does not start: that rank ends alone (mpirun then ends the others;
  // under srun, --kill-on-bad-exit does).
  explicit RankChannel(const Rank& rank);
  // UsageError when MPI's world is not the one the launcher's environment
  // describes. Call it where a failure goes to abort().
  void check_world() const;
  ~RankChannel();
  RankChannel(const RankChannel&) = delete;
  RankChannel& operator=(const RankChannel&) = delete;

  // Every rank calls it once. At rank 0: each rank's text in rank order;
  // elsewhere: empty.
  std::vector<std::string> gather(const std::string& mine);
  // Ends every rank with `code`: a rank that failed must not leave the
  // others waiting in gather().
  [[noreturn]] void abort(int code);

 private:
  struct Api;
  Rank rank_;
  int world_rank_ = -1, world_size_ = 0;
  void* lib_ = nullptr;
  Api* api_ = nullptr;
};

}  // namespace gpubench
