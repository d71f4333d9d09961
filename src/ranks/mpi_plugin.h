/* The C interface of libgpubench_mpi.so (mpi_plugin.cpp), which
   RankChannel loads with dlopen. Every function returns 0 or an MPI error code. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

int gpubench_mpi_init(int* rank, int* size);
/* Gathers each rank's `length` bytes at rank 0: there `*all` (free with
   gpubench_mpi_free) holds them in rank order and lengths[i] rank i's
   count; elsewhere nothing is written. */
int gpubench_mpi_gather(const char* mine, long long length, char** all, long long* lengths);
void gpubench_mpi_free(char* all);
void gpubench_mpi_abort(int code);
void gpubench_mpi_finalize(void);

#ifdef __cplusplus
}
#endif
