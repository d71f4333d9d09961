#include "src/ranks/rank_channel.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/ranks/mpi_plugin.h"

namespace gpubench {
namespace {

std::string plugin_path() {
  std::string exe(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", exe.data(), exe.size());
  if (n <= 0) return "libgpubench_mpi.so";
  exe.resize(std::size_t(n));
  return exe.substr(0, exe.rfind('/') + 1) + "libgpubench_mpi.so";
}

template <class F>
F symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (!p) throw UsageError(fmt::format("the MPI plugin lacks {}: rebuild gpubench", name));
  return reinterpret_cast<F>(p);
}

}  // namespace

struct RankChannel::Api {
  decltype(&gpubench_mpi_init) init;
  decltype(&gpubench_mpi_gather) gather;
  decltype(&gpubench_mpi_free) free;
  decltype(&gpubench_mpi_abort) abort;
  decltype(&gpubench_mpi_finalize) finalize;
};

RankChannel::RankChannel(const Rank& rank) : rank_(rank) {
  const std::string path = plugin_path();
  // RTLD_GLOBAL: Open MPI's own components look up libmpi's symbols.
  lib_ = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib_)
    throw UsageError(fmt::format("started as rank {} of {} by {}, but {} cannot be loaded ({}): build gpubench where "
                                 "MPI is installed (libopenmpi-dev) to run under a launcher",
                                 rank.rank, rank.size, rank.launcher, path, dlerror()));
  try {
    api_ = new Api{symbol<decltype(&gpubench_mpi_init)>(lib_, "gpubench_mpi_init"),
                   symbol<decltype(&gpubench_mpi_gather)>(lib_, "gpubench_mpi_gather"),
                   symbol<decltype(&gpubench_mpi_free)>(lib_, "gpubench_mpi_free"),
                   symbol<decltype(&gpubench_mpi_abort)>(lib_, "gpubench_mpi_abort"),
                   symbol<decltype(&gpubench_mpi_finalize)>(lib_, "gpubench_mpi_finalize")};
  } catch (...) {
    dlclose(lib_);
    throw;
  }
  if (api_->init(&world_rank_, &world_size_) != 0) {
    delete api_;
    api_ = nullptr;
    throw UsageError("MPI_Init_thread failed");
  }
}

void RankChannel::check_world() const {
  if (world_rank_ != rank_.rank || world_size_ != rank_.size)
    throw UsageError(fmt::format("MPI says rank {} of {}, the launcher's environment rank {} of {}", world_rank_,
                                 world_size_, rank_.rank, rank_.size));
}

RankChannel::~RankChannel() {
  if (api_) api_->finalize();
  delete api_;
}

std::vector<std::string> RankChannel::gather(const std::string& mine) {
  std::vector<long long> lengths(std::size_t(rank_.size), 0);
  char* all = nullptr;
  const int rc = api_->gather(mine.data(), static_cast<long long>(mine.size()), &all, lengths.data());
  if (rc != 0) throw UsageError(fmt::format("gathering the ranks' results failed (MPI error {})", rc));
  std::vector<std::string> out;
  if (rank_.rank != 0) return out;
  std::size_t at = 0;
  for (const long long n : lengths) {
    out.emplace_back(all + at, std::size_t(n));
    at += std::size_t(n);
  }
  api_->free(all);
  return out;
}

void RankChannel::abort(int code) {
  api_->abort(code);
  std::_Exit(code);  // MPI_Abort does not return; should it, end this rank anyway
}

}  // namespace gpubench
