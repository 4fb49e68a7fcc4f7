// tests/mpi/coll_error_cases.cpp -- collective calls that must end the whole
// job with a nonzero status and a message naming the routine and the bad
// value.  Run as `oshrun -np 2 gasket_mpi_coll_error_cases <case>` under
// expect_failure.sh.  Each case prints "coll_error_cases: <case>: reached"
// before the bad call and "... NOT STOPPED" if the library let it return.
// Every PE makes the bad call (a collective), unless the case says
// otherwise.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

long g_psync[SHMEM_SYNC_SIZE];
long g_pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
long g_data[16];

void reached(const char* name) {
    std::printf("coll_error_cases: %s: reached on PE %d\n", name, shmem_my_pe());
    std::fflush(stdout);
}

[[noreturn]] void not_stopped(const char* name) {
    std::printf("coll_error_cases: %s: NOT STOPPED on PE %d\n", name, shmem_my_pe());
    std::fflush(stdout);
    shmem_finalize();
    std::exit(0);
}

int usage() {
    std::fprintf(stderr,
                 "usage: gasket_mpi_coll_error_cases CASE\n"
                 "  dest_not_symmetric reduce_past_heap_end active_set_too_big not_in_active_set\n"
                 "  psync_not_symmetric to_all_negative_nreduce bcast32_bad_root bcast_size_differs\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return usage();
    const std::string what = argv[1];
    const char* name = what.c_str();
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (long& x : g_psync) x = SHMEM_SYNC_VALUE;
    long stack[16] = {};
    long* heap = static_cast<long*>(shmem_malloc(16 * sizeof(long)));

    reached(name);
    if (what == "dest_not_symmetric") {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, stack, heap, 4, 0);
    } else if (what == "reduce_past_heap_end") {
        // Run with SHMEM_SYMMETRIC_SIZE=1M: 1 Mi longs run past the heap.
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, heap, heap, std::size_t(1) << 20);
    } else if (what == "active_set_too_big") {
        shmem_barrier(0, 0, n + 1, g_psync);
    } else if (what == "not_in_active_set") {
        // The set is PE 0 alone; PE 1 calls too.
        if (me <= 1) shmem_sync(0, 0, 1, g_psync);
        if (me == 0) {
            shmem_barrier_all();  // waits for PE 1, whose call ended the job
        }
    } else if (what == "psync_not_symmetric") {
        long local_psync[SHMEM_SYNC_SIZE] = {};
        shmem_barrier(0, 0, n, local_psync);
    } else if (what == "to_all_negative_nreduce") {
        shmem_long_sum_to_all(g_data, g_data, -1, 0, 0, n, g_pwrk, g_psync);
    } else if (what == "bcast32_bad_root") {
        shmem_broadcast32(g_data, g_data, 1, n, 0, 0, n, g_psync);
    } else if (what == "bcast_size_differs") {
        // PE 1 asks for 8 elements, the root (PE 0) sends 4: on the node
        // path PE 1 notices (MPI_Bcast took it silently, leaving 4 elements
        // of PE 1's dest unwritten).
        shmem_long_broadcast(SHMEM_TEAM_WORLD, heap + 8, heap, me == 0 ? 4 : 8, 0);
        shmem_barrier_all();  // the root waits for PE 1, whose call ended the job
    } else {
        return usage();
    }
    not_stopped(name);
}
