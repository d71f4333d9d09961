// libgpubench_mpi.so: the little of MPI gpubench needs, behind mpi_plugin.h.
#include "src/ranks/mpi_plugin.h"

#include <mpi.h>

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "gpubench: error: %s\n", why);
  MPI_Abort(MPI_COMM_WORLD, 5);
  std::abort();
}

}  // namespace

extern "C" {

int gpubench_mpi_init(int* rank, int* size) {
  // Only the main thread calls MPI; the host pool, CUDA and NVML have threads of their own.
  int provided = 0;
  int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(MPI_COMM_WORLD, rank);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(MPI_COMM_WORLD, size);
  return rc;
}

int gpubench_mpi_gather(const char* mine, long long length, char** all, long long* lengths) {
  // Ranks that finish first wait here asleep: MPI's collectives wait by
  // spinning, which would take a core from the host steps a rank beside
  // them is still timing.
  MPI_Request arrived;
  int rc = MPI_Ibarrier(MPI_COMM_WORLD, &arrived);
  for (int done = 0; rc == MPI_SUCCESS && !done;) {
    rc = MPI_Test(&arrived, &done, MPI_STATUS_IGNORE);
    if (!done) usleep(1000);
  }
  if (rc != MPI_SUCCESS) return rc;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  rc = MPI_Gather(&length, 1, MPI_LONG_LONG, lengths, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) return rc;
  // MPI_Gatherv counts in int: a rank's report past 2 GiB is refused.
  if (length > INT_MAX) fail("a rank's report is past 2 GiB, more than MPI_Gatherv sends");
  std::vector<int> counts, offsets;
  long long total = 0;
  if (rank == 0) {
    for (int i = 0; i < size; ++i) {
      if (lengths[i] > INT_MAX || total > INT_MAX - lengths[i])
        fail("the ranks' reports are past 2 GiB together, more than MPI_Gatherv gathers");
      counts.push_back(int(lengths[i]));
      offsets.push_back(int(total));
      total += lengths[i];
    }
    *all = static_cast<char*>(std::malloc(std::size_t(total) + 1));
    if (!*all) fail("out of host memory for the ranks' reports");
  }
  return MPI_Gatherv(mine, int(length), MPI_CHAR, rank == 0 ? *all : nullptr, counts.data(), offsets.data(), MPI_CHAR, 0,
                     MPI_COMM_WORLD);
}

void gpubench_mpi_free(char* all) { std::free(all); }

void gpubench_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

void gpubench_mpi_finalize(void) { MPI_Finalize(); }

}  // extern "C"
