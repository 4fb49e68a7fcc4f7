/* tests/mpi/startup_kill.c -- a PE that dies at a chosen point of shmem_init
 * (run by tests/mpi/startup_kill.sh, which checks /dev/shm afterwards).
 *
 * The MPI routines Gasket calls during start-up are wrapped here through
 * MPI's profiling interface: each wrapper calls the real routine (PMPI_*),
 * then counts one "point".  With STARTUP_KILL_AT=k, the process whose world
 * rank is k modulo the job size raises SIGKILL right after the k-th point,
 * i.e. between two steps of start-up where a collective has just completed
 * (every shared-memory object is created, published or opened around one).
 * STARTUP_KILL_AT=0 kills nobody and PE 0 prints "startup_kill: N points",
 * so the script knows how many points there are.  At MPI_Init_thread each
 * process writes "<Open MPI job id in hex> <pid>" to
 * $STARTUP_KILL_DIR/<pid>: the names in /dev/shm that belong to this job. */
#define _GNU_SOURCE
#include <mpi.h>
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int points, kill_at, counting, world_rank = -1, world_size = 1;

static void point(const char* after) {
    if (!counting) return;
    ++points;
    if (kill_at > 0 && points == kill_at && world_rank == kill_at % world_size) {
        fprintf(stderr, "startup_kill: rank %d killed after %s (point %d)\n", world_rank, after, points);
        fflush(stderr);
        raise(SIGKILL);
    }
}

static void record_ids(void) {
    const char* dir = getenv("STARTUP_KILL_DIR");
    const char* jobid = getenv("OMPI_MCA_ess_base_jobid");
    if (!dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
    FILE* f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%lx %ld\n", jobid ? strtoul(jobid, NULL, 10) : 0UL, (long)getpid());
    fclose(f);
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    record_ids();
    point("MPI_Init_thread");
    return rc;
}

#define WRAP(name, params, args) \
    int name params {            \
        int rc = P##name args;   \
        point(#name);            \
        return rc;               \
    }
WRAP(MPI_Barrier, (MPI_Comm c), (c))
WRAP(MPI_Bcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
WRAP(MPI_Allreduce, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c), (s, r, n, t, op, c))
WRAP(MPI_Allgather, (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c),
     (s, sn, st, r, rn, rt, c))
WRAP(MPI_Comm_dup, (MPI_Comm c, MPI_Comm* out), (c, out))
WRAP(MPI_Comm_split, (MPI_Comm c, int color, int key, MPI_Comm* out), (c, color, key, out))
WRAP(MPI_Comm_split_type, (MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm* out), (c, type, key, info, out))
WRAP(MPI_Win_allocate_shared, (MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void* base, MPI_Win* win),
     (size, unit, info, c, base, win))
WRAP(MPI_Win_allocate, (MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void* base, MPI_Win* win),
     (size, unit, info, c, base, win))
WRAP(MPI_Win_create, (void* base, MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, MPI_Win* win),
     (base, size, unit, info, c, win))

int main(void) {
    const char* at = getenv("STARTUP_KILL_AT");
    kill_at = at ? atoi(at) : 0;
    counting = 1;
    shmem_init();
    counting = 0;
    if (kill_at > 0)
        printf("startup_kill: PE %d: nobody was killed at point %d (%d points)\n", shmem_my_pe(), kill_at, points);
    else if (shmem_my_pe() == 0)
        printf("startup_kill: %d points\n", points);
    shmem_finalize();
    return 0;
}
