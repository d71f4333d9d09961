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
  // Initializes MPI. UsageError when the plugin or MPI cannot be loaded.
  explicit RankChannel(const Rank& rank);
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
  void* lib_ = nullptr;
  Api* api_ = nullptr;
};

}  // namespace gpubench
